"""What is stored for the season ranking and the ratings.

- `Season`: its dates, its points table (by level and final place), how many results count
  (best K) and how many players the ranking sends to the final.
- `Invitation`: a player invited to the season's final (a title holder, a wild card), for every
  final of the season or for one tournament.
- `Placing`: a player's final place in a finished tournament (all planned rounds closed), from
  the tournament's standings; the ranking points are not stored but computed by the engine from
  the season's table, so editing a table changes the ranking at once.
- `RatingChange`: a player's rating before and after one confirmed table; `PlayerRating`: his
  current rating (the last change's "after"), kept for the rating list.

Everything here is derived from the confirmed results and can be rebuilt by
`manage.py recompute_ranking`.
"""

from __future__ import annotations

import datetime

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from engine.errors import SheetError
from engine.ranking import (
    DEFAULT_BEST_K,
    DEFAULT_POINTS_TABLE,
    DEFAULT_QUALIFIERS,
    PointsTable,
)
from engine.rating import Rating
from scoring.models import TableResult
from tournaments.models import Player, Tournament


def default_points_table() -> dict[str, list[int]]:
    return DEFAULT_POINTS_TABLE.as_mapping()


class Season(models.Model):
    name = models.CharField(_("name"), max_length=80, unique=True)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    best_k = models.PositiveSmallIntegerField(
        _("results counted"),
        default=DEFAULT_BEST_K,
        validators=[MinValueValidator(1)],
        help_text=_("Each player's best K tournament results of the season count."),
    )
    qualifiers = models.PositiveSmallIntegerField(
        _("qualifiers for the final"),
        default=DEFAULT_QUALIFIERS,
        help_text=_("The top N of the ranking qualify for the final, with the invited players."),
    )
    points_table = models.JSONField(
        _("points table"),
        default=default_points_table,
        help_text=_(
            'Ranking points by level and final place, e.g. {"national": [100, 85, 75], '
            '"district": [50, 42, 36], "club": [20, 16, 13]}.'
        ),
    )

    class Meta:
        ordering = ("-starts_on", "name")
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = (
            models.CheckConstraint(
                condition=Q(ends_on__gte=F("starts_on")), name="season_ends_after_start"
            ),
        )

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        try:
            PointsTable.from_mapping(self.points_table)
        except SheetError as error:
            raise ValidationError({"points_table": str(error)}) from None
        if self.starts_on and self.ends_on and self.ends_on < self.starts_on:
            raise ValidationError({"ends_on": _("A season ends on or after its first day.")})

    @property
    def table(self) -> PointsTable:
        return PointsTable.from_mapping(self.points_table)

    def covers(self, day: datetime.date) -> bool:
        return self.starts_on <= day <= self.ends_on


class Invitation(models.Model):
    """A player invited to the final, whatever his ranking."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("season")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("player")
    )
    # Blank: invited to every final of the season.
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="invitations",
        verbose_name=_("only to this tournament"),
    )
    reason = models.CharField(_("reason"), max_length=120, blank=True)

    class Meta:
        ordering = ("season", "pk")
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = (
            models.UniqueConstraint(
                fields=["season", "player"],
                condition=Q(tournament__isnull=True),
                name="invitation_once_per_season",
            ),
            models.UniqueConstraint(
                fields=["season", "player", "tournament"], name="invitation_once_per_tournament"
            ),
        )

    def __str__(self) -> str:
        return f"{self.player} · {self.season}"


class Placing(models.Model):
    """A player's final place in a finished tournament (shared by tied players)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="placings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="placings")
    place = models.PositiveSmallIntegerField()
    game_points = models.IntegerField()

    class Meta:
        ordering = ("tournament", "place")
        constraints = (
            models.UniqueConstraint(fields=["tournament", "player"], name="placing_unique"),
        )

    def __str__(self) -> str:
        return f"{self.player} {self.place}. @ {self.tournament}"


class RatingChange(models.Model):
    """A player's rating before and after one confirmed table."""

    table_result = models.ForeignKey(
        TableResult, on_delete=models.CASCADE, related_name="rating_changes"
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        constraints = (
            models.UniqueConstraint(
                fields=["table_result", "player"], name="rating_change_once_per_table"
            ),
        )

    def __str__(self) -> str:
        return f"{self.player}: {self.mu_before:.2f} → {self.mu_after:.2f}"

    @property
    def before(self) -> Rating:
        return Rating(self.mu_before, self.sigma_before)

    @property
    def after(self) -> Rating:
        return Rating(self.mu_after, self.sigma_after)


class RatingUpdate(models.Model):
    """A re-rating left to a job (ranking.services.rating_updates_run): every table from this
    point of the rating order on is rated again, and the players listed get their rating anew
    (those of an unlocked table may have no table left in the tail). While one waits, the
    stored ratings are those of before it, whole."""

    starts_on = models.DateField()
    tournament_slug = models.SlugField(max_length=120)
    round_number = models.PositiveIntegerField()
    table_number = models.PositiveIntegerField()
    players = models.JSONField(default=list)  # player ids (text), as the engine keys them
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("pk",)

    def __str__(self) -> str:
        return f"re-rate from {self.starts_on} {self.tournament_slug} R{self.round_number}"


class PlayerRating(models.Model):
    """A player's current rating: the "after" of his last rated table."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True)  # mu − 3·sigma: the list's order
    tables = models.PositiveIntegerField()  # tables rated

    class Meta:
        ordering = ("-ordinal",)

    def __str__(self) -> str:
        return f"{self.player}: {self.mu:.2f} ± {self.sigma:.2f}"
