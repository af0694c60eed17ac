"""Rounds, their tables, the seats at them, and each table's private entry link."""

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from tournaments.models.registrations import Registration
from tournaments.models.tournament import SeatingMode, Tournament

# Read aloud in a hall and typed on a phone: no 0/O, 1/I, 2/Z, 5/S, 8/B to mistake.
CHECK_IN_CODE_LETTERS = "ACDEFHJKLMNPRTUVWXY34679"
CHECK_IN_CODE_LENGTH = 5


def new_check_in_code() -> str:
    return "".join(secrets.choice(CHECK_IN_CODE_LETTERS) for _ in range(CHECK_IN_CODE_LENGTH))


class RoundStatus(models.TextChoices):
    # A round's status, as in "round 2: published".
    DRAFT = "draft", pgettext_lazy("round status", "draft")
    PUBLISHED = "published", pgettext_lazy("round status", "published")
    IN_PLAY = "in_play", pgettext_lazy("round status", "in play")
    CLOSED = "closed", pgettext_lazy("round status", "closed")


class Round(models.Model):
    """A round (kārta): draft → published → in play → closed."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(
        _("status"), max_length=10, choices=RoundStatus.choices, default=RoundStatus.DRAFT
    )
    seating_mode = models.CharField(_("seating"), max_length=8, choices=SeatingMode.choices)
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)
    warnings = models.JSONField(_("warnings"), default=list, blank=True)
    generated_at = models.DateTimeField(_("seated at"), null=True, blank=True)
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    # The rules the round is played with (tournaments/rule_set.py), fixed when it is published:
    # a later change of the tournament's options applies from the next round. Empty: a draft,
    # which follows the tournament's options.
    rule_set = models.JSONField(_("rule set"), default=dict, blank=True)
    # The round clock of a timed round: the limit is fixed when the clock starts.
    clock_started_at = models.DateTimeField(_("clock started at"), null=True, blank=True)
    time_limit = models.PositiveSmallIntegerField(_("time limit (minutes)"), null=True, blank=True)
    # The chief referee called time before the clock ran out.
    time_called_at = models.DateTimeField(_("time called at"), null=True, blank=True)
    # Self check-in: the code the hall display shows while the round is a draft not yet seated.
    check_in_code = models.CharField(
        _("check-in code"), max_length=8, default=new_check_in_code, editable=False
    )

    class Meta:
        ordering = ("tournament", "number")
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = (
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
        )

    def __str__(self) -> str:
        return gettext("%(tournament)s · round %(number)s") % {
            "tournament": self.tournament,
            "number": self.number,
        }


class Table(models.Model):
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="tables", verbose_name=_("round")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    first_dealer_position = models.PositiveSmallIntegerField(_("first dealer's seat"), default=1)
    # Why the table is as it is, from the engine: [{"code": "repeat_meeting", "detail": "..."}].
    flags = models.JSONField(_("flags"), default=list, blank=True)
    # Once the round's time is up a table plays only the deal under way; the chief referee may
    # allow it this many deals more (scoring.services.table_deals_allow).
    deals_allowed_after_time = models.PositiveSmallIntegerField(
        _("deals allowed after time"), default=0
    )
    # Referee accounts assigned to this table: they enter its deals signed in, without the link.
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="refereed_tables",
        verbose_name=_("table referees"),
    )

    class Meta:
        ordering = ("round", "number")
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = (
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
        )

    def __str__(self) -> str:
        return gettext("%(round)s · table %(number)s") % {
            "round": self.round,
            "number": self.number,
        }


def new_table_token() -> str:
    # 32 bytes from the OS's CSPRNG: unguessable, and short enough for a QR code.
    return secrets.token_urlsafe(32)


class TableToken(models.Model):
    """The private entry link of a table (/r/<token>/), revocable by the organiser.

    A link outlives its table: when a published round is seated again its tables go, and
    their links stay behind revoked, with no table, so that whoever still holds one is told
    the round was re-seated (a link nobody issued is only "not found")."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="table_tokens", verbose_name=_("round")
    )
    table = models.ForeignKey(
        Table,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tokens",
        verbose_name=_("table"),
    )
    token = models.CharField(_("token"), max_length=64, unique=True, default=new_table_token)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)
        verbose_name = _("table link")
        verbose_name_plural = _("table links")

    def __str__(self) -> str:
        return gettext("%(table)s · link") % {"table": self.table or self.round}


class Seat(models.Model):
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
    )
    # 1-based, each to the left of the previous
    position = models.PositiveSmallIntegerField(_("seat"))
    registration = models.ForeignKey(
        Registration, on_delete=models.PROTECT, related_name="seats", verbose_name=_("registration")
    )

    class Meta:
        ordering = ("table", "position")
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = (
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["table", "registration"], name="seat_once_per_table"),
        )

    def __str__(self) -> str:
        return gettext("%(table)s · seat %(number)s") % {
            "table": self.table,
            "number": self.position,
        }
