"""Scoring models: what is stored about deals and results.

Deal results are versioned submissions: a correction is a new version of the same sheet entry,
never an edit. A confirmed table has a `TableResult` with one `SeatResult` per player, which is
what the standings read; the chief referee's unlock removes it (the audit log keeps both).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Registration, Table, TableToken

TWELFTHS = 12  # the least common multiple of 1, 2, 3 and 4


@lru_cache(maxsize=1024)
def twelfths_fraction(twelfths: int) -> Fraction:
    """Stored place points (in twelfths) as the exact number: a few values repeat in thousands
    of rows, and a Fraction (immutable) is shared rather than built (and reduced) each time."""
    return Fraction(twelfths, TWELFTHS)


class EntryKind(models.TextChoices):
    PLAY = "play", _("lielais, zole or mazā zole")
    PASS = "pass", _("everyone passed")
    GALDINS = "galdins", _("galdiņš")
    PENALTY = "penalty", _("penalty pule")
    VOID = "void", _("entry removed")


class DealResult(models.Model):
    """One version of one entry (position) of a table's sheet."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="deal_results")
    position = models.PositiveSmallIntegerField()  # 1-based entry of the sheet, penalties too
    version = models.PositiveSmallIntegerField(default=1)
    kind = models.CharField(max_length=8, choices=EntryKind.choices)
    game = models.CharField(max_length=10, blank=True)  # lielais, zole, maza_zole
    # The declarer of a game, or the player given a penalty pule.
    player = models.ForeignKey(
        Registration, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    points = models.PositiveSmallIntegerField(null=True, blank=True)
    tricks = models.PositiveSmallIntegerField(null=True, blank=True)
    # Galdiņš: {"tricks": {registration id: n}, "points": {registration id: n}} for the playing
    # players, and "draw_loser": a registration id when a rondo galdiņš was decided by the card
    # draw.
    galdins = models.JSONField(null=True, blank=True)
    reason = models.CharField(max_length=200, blank=True)  # why a correction was made
    # A device's key for this submission: a resent request or a double tap finds it and
    # records nothing twice.
    client_key = models.CharField(max_length=64)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    entered_via_token = models.ForeignKey(
        TableToken, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    ip_address = models.GenericIPAddressField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("table", "position", "version")
        constraints = (
            models.UniqueConstraint(
                fields=["table", "position", "version"], name="deal_version_unique"
            ),
            models.UniqueConstraint(fields=["table", "client_key"], name="deal_client_key_unique"),
        )
        indexes = (models.Index(fields=["table", "position", "-version"]),)

    def __str__(self) -> str:
        return f"{self.table} · entry {self.position} v{self.version}"


class TableResult(models.Model):
    """A confirmed table: its totals are what the standings read. Locked while it exists."""

    table = models.OneToOneField(Table, on_delete=models.PROTECT, related_name="result")
    confirmed_at = models.DateTimeField(auto_now_add=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The player at the table who confirmed through the table's link.
    confirmed_by_registration = models.ForeignKey(
        Registration, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    last_position = models.PositiveSmallIntegerField()  # the sheet as confirmed
    # Confirmed with fewer deals than planned because the round's time was up (timed rounds).
    time_called = models.BooleanField(default=False)
    last_version_id = models.PositiveBigIntegerField()  # newest DealResult id confirmed

    def __str__(self) -> str:
        return f"{self.table} confirmed"


class SeatResult(models.Model):
    """A player's confirmed result at one table in one round."""

    table_result = models.ForeignKey(TableResult, on_delete=models.CASCADE, related_name="seats")
    registration = models.ForeignKey(
        Registration, on_delete=models.PROTECT, related_name="seat_results"
    )
    round_number = models.PositiveSmallIntegerField()
    game_points = models.IntegerField()
    # Tied players share the mean of their places' points (4/3 at 3,2,1,1): a mean over at most
    # 4 places is a whole number of twelfths, so twelfths store it exactly and sum in SQL.
    place_points_twelfths = models.IntegerField()
    place = models.PositiveSmallIntegerField()
    # His counts at this table (engine.statistics.SeatTally, field for field): the statistics
    # of a tournament, a season and a career are their sums, read in one query.
    deals = models.PositiveSmallIntegerField(default=0)
    lielais_all_tricks = models.PositiveSmallIntegerField(default=0)
    lielais_high_win = models.PositiveSmallIntegerField(default=0)
    lielais_win = models.PositiveSmallIntegerField(default=0)
    lielais_loss = models.PositiveSmallIntegerField(default=0)
    lielais_low_loss = models.PositiveSmallIntegerField(default=0)
    lielais_no_trick = models.PositiveSmallIntegerField(default=0)
    zole_all_tricks = models.PositiveSmallIntegerField(default=0)
    zole_high_win = models.PositiveSmallIntegerField(default=0)
    zole_win = models.PositiveSmallIntegerField(default=0)
    zole_loss = models.PositiveSmallIntegerField(default=0)
    zole_low_loss = models.PositiveSmallIntegerField(default=0)
    zole_no_trick = models.PositiveSmallIntegerField(default=0)
    maza_zole_won = models.PositiveSmallIntegerField(default=0)
    maza_zole_lost = models.PositiveSmallIntegerField(default=0)
    defended = models.PositiveSmallIntegerField(default=0)
    defended_won = models.PositiveSmallIntegerField(default=0)
    passed = models.PositiveSmallIntegerField(default=0)
    common_written = models.PositiveSmallIntegerField(default=0)
    common_collected = models.PositiveSmallIntegerField(default=0)
    personal_written = models.PositiveSmallIntegerField(default=0)
    penalty_written = models.PositiveSmallIntegerField(default=0)
    own_collected = models.PositiveSmallIntegerField(default=0)
    personal_collected = models.PositiveSmallIntegerField(default=0)
    personal_paid = models.PositiveSmallIntegerField(default=0)
    settled = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = (
            models.UniqueConstraint(
                fields=["table_result", "registration"], name="seat_result_unique"
            ),
        )
        indexes = (models.Index(fields=["registration", "round_number"]),)

    def __str__(self) -> str:
        return f"{self.registration} round {self.round_number}: {self.game_points}"

    @property
    def place_points(self) -> Fraction:
        return twelfths_fraction(self.place_points_twelfths)


class TableHeard(models.Model):
    """When a table's phone was last heard from (its sync, its sheet opened through the link)
    and how many entries it said were still waiting on it or refused: what the chief referee's
    round page shows. One row a table, overwritten: it says how things stand, the audit log
    keeps the writes."""

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, primary_key=True, related_name="heard"
    )
    heard_at = models.DateTimeField()
    # None: the phone has not said (only opened the sheet, or sent no count).
    waiting = models.PositiveIntegerField(null=True, blank=True)
    refused = models.PositiveIntegerField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.table} heard {self.heard_at:%H:%M:%S}"


class LatePlayer(models.Model):
    """A seated player who came late to his table, or never came and is out of the round
    (docs/rules.md, "Late and absent players"). One row a player a table: the audit log keeps
    who recorded it and from where."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="late_players")
    registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="+")
    # When he came; None: he did not come and is out of the round (his seat is gone, the table
    # plays on without him).
    arrived_at = models.DateTimeField(null=True, blank=True)
    minutes_late = models.PositiveSmallIntegerField(null=True, blank=True)
    # The sheet's entry of the penalty pule his lateness cost (None: none was due).
    penalty_position = models.PositiveSmallIntegerField(null=True, blank=True)
    seat_position = models.PositiveSmallIntegerField()  # his seat at the table, 1-based
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("table", "seat_position")
        constraints = (
            models.UniqueConstraint(fields=["table", "registration"], name="late_player_unique"),
        )

    def __str__(self) -> str:
        return f"{self.table} · {self.registration} late"

    @property
    def is_out(self) -> bool:
        return self.arrived_at is None
