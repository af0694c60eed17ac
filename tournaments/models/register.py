"""The register: the clubs and players the site knows, across tournaments."""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)

    class Meta:
        ordering = ("name",)
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    full_name = models.CharField(_("full name"), max_length=120)
    # PROTECT: deleting a club must not silently delete its players' history.
    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("club"),
    )
    # Blank (not NULL) when unknown, per Django's convention for text fields; so uniqueness
    # has to exclude the blank value explicitly.
    licence_number = models.CharField(_("federation licence number"), max_length=20, blank=True)
    is_active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ("full_name",)
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = (
            models.UniqueConstraint(
                fields=["licence_number"],
                condition=~Q(licence_number=""),
                name="player_licence_number_unique_when_set",
                violation_error_message=_("Another player has this licence number."),
            ),
        )

    def __str__(self) -> str:
        return self.full_name
