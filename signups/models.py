"""Sign-ups: a player's own registration on a tournament's public page, on the list or the
waiting list until the organiser accepts it (it becomes a `Registration`) or refuses it."""

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournaments.models import Player, Registration, Tournament


class SignUpStatus(models.TextChoices):
    # Where an online registration stands, as in "Anna Ozoliņa: on the waiting list".
    LISTED = "listed", pgettext_lazy("sign-up status", "on the list")
    WAITING = "waiting", pgettext_lazy("sign-up status", "on the waiting list")
    ACCEPTED = "accepted", pgettext_lazy("sign-up status", "accepted")
    REFUSED = "refused", pgettext_lazy("sign-up status", "refused")


class SignUp(models.Model):
    """A player's registration on the tournament's public page, until the organiser accepts it
    (it then becomes a `Registration`) or refuses it. The typed name, club and licence are
    kept as typed; `player` is the register's player they name, when he is there already."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="signups", verbose_name=_("tournament")
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="signups",
        verbose_name=_("player"),
    )
    full_name = models.CharField(_("full name"), max_length=120)
    club = models.CharField(_("club"), max_length=120, blank=True)
    licence_number = models.CharField(_("federation licence number"), max_length=20, blank=True)
    # Private: shown to the organisers only, never on a public page or in the audit log.
    contact = models.CharField(_("contact (e-mail or phone)"), max_length=120, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=SignUpStatus.choices, default=SignUpStatus.LISTED
    )
    created_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    # Orders a list: when he joined the list he is on (a move puts him at its end).
    queued_at = models.DateTimeField(_("on this list since"))
    # The language he signed up in: what the site tells him (by mail) is written in it.
    language = models.CharField(_("language"), max_length=8, default="lv")
    registration = models.OneToOneField(
        Registration,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="signup",
        verbose_name=_("registration"),
    )

    class Meta:
        ordering = ("queued_at", "pk")
        verbose_name = _("online sign-up")
        verbose_name_plural = _("online sign-ups")
        # The table kept the name it had when sign-ups were part of the tournaments app: the move
        # to this app changed only where the model is declared, not a row or a column.
        db_table = "tournaments_signup"

    def __str__(self) -> str:
        return f"{self.full_name} @ {self.tournament}"
