"""Registrations: a player registered in a tournament, with his private check-in link."""

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.register import Player
from tournaments.models.tournament import Tournament


def new_check_in_token() -> str:
    # 24 bytes from the OS's CSPRNG: never guessed, short enough for a printed QR code.
    return secrets.token_urlsafe(24)


class Registration(models.Model):
    """A player's registration in a tournament."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="registrations",
        verbose_name=_("tournament"),
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="registrations",
        verbose_name=_("player"),
    )
    team = models.CharField(_("team"), max_length=80, blank=True)
    registered_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    # A late registration joins from a later round; earlier rounds count as not played.
    first_round = models.PositiveSmallIntegerField(_("plays from round"), default=1)
    withdrawn_after_round = models.PositiveSmallIntegerField(
        _("withdrawn after round"), null=True, blank=True
    )
    # A player who needs a particular table (accessibility) sits there every round.
    fixed_table = models.PositiveSmallIntegerField(
        _("fixed table (accessibility)"), null=True, blank=True
    )
    # Entry fees: the player's fee category (empty: the tournament's first) and when the fee was
    # paid and to whom (empty: not paid).
    fee_category = models.ForeignKey(
        "FeeCategory",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="registrations",
        verbose_name=_("fee category"),
    )
    fee_paid_at = models.DateTimeField(_("fee paid at"), null=True, blank=True)
    fee_paid_to = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("fee paid to"),
    )
    # Self check-in: the secret of the player's own page (/t/<slug>/me/<token>/), which checks
    # him in with one tap.
    check_in_token = models.CharField(
        _("check-in link"), max_length=64, unique=True, default=new_check_in_token, editable=False
    )

    class Meta:
        ordering = ("player__full_name",)
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = (
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_once_per_player"),
        )

    def __str__(self) -> str:
        return f"{self.player} @ {self.tournament}"

    @property
    def is_withdrawn(self) -> bool:
        return self.withdrawn_after_round is not None
