"""A player's statistics from every confirmed deal, beside the field's: the sums of the tallies
his seat results carry (`engine.statistics.SeatTally`, counted when each table was confirmed),
over his career, a season (its dates) or one tournament. Two queries, whatever the number of
deals: his sums and the field's, each one aggregate over the seat results of the scope."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from django.db.models import Count, Q, QuerySet, Sum
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from engine.rules import Band, Game
from engine.statistics import (
    BANDED_GAMES,
    TALLY_FIELDS,
    SeatTally,
    declarer_share,
    defender_share,
    share,
)
from scoring.models import SeatResult
from scoring.selectors.public_results import PUBLIC_STATUSES
from scoring.selectors.tournament_statistics import GAME_WORDS, OUTCOME_WORDS
from tournaments.models import Player, Tournament

PLACES = (1, 2, 3, 4)


@dataclass(frozen=True)
class StatisticsScope:
    """Whose seat results count: every one (`career`), a season's dates, or one tournament."""

    starts_on: datetime.date | None = None
    ends_on: datetime.date | None = None
    tournament: Tournament | None = None

    def seat_results(self) -> QuerySet[SeatResult]:
        results = SeatResult.objects.filter(table_result__table__round__status__in=PUBLIC_STATUSES)
        if self.tournament is not None:
            return results.filter(registration__tournament=self.tournament)
        if self.starts_on is not None:
            results = results.filter(registration__tournament__starts_on__gte=self.starts_on)
        if self.ends_on is not None:
            results = results.filter(registration__tournament__starts_on__lte=self.ends_on)
        return results


@dataclass(frozen=True)
class Totals:
    """Sums of seat results: one player's, or the field's (every player of the scope)."""

    tally: SeatTally
    rounds: int  # seat results: a round at a table each
    game_points: int
    places: tuple[int, ...]  # how many times 1st, 2nd, 3rd, 4th at the table
    players: int
    tournaments: int

    @property
    def game_points_per_deal(self) -> Fraction | None:
        return share(self.game_points, self.tally.deals)

    @property
    def game_points_per_round(self) -> Fraction | None:
        return share(self.game_points, self.rounds)

    def place_share(self, place: int) -> Fraction | None:
        return share(self.places[place - 1], self.rounds)

    def per_hundred_deals(self, count: int) -> Fraction | None:
        rate = share(count, self.tally.deals)
        return None if rate is None else rate * 100


@dataclass(frozen=True)
class GameLine:
    """One declared game's figures: his and the field's."""

    game: Game
    label: str
    attempts: int
    wins: int
    won_share: Fraction | None
    field_won_share: Fraction | None
    per_hundred: Fraction | None  # his attempts per 100 deals
    field_per_hundred: Fraction | None
    # Each band: its words, his count, his share and the field's of the game's deals.
    bands: tuple[tuple[str, int, Fraction | None, Fraction | None], ...]


@dataclass(frozen=True)
class CountLine:
    """A count of his (deals passed by all, pules) and how often it came, his and the field's:
    per 100 deals played."""

    name: str  # the tally's field
    label: Promise
    count: int
    per_hundred: Fraction | None
    field_per_hundred: Fraction | None


@dataclass(frozen=True)
class PlaceLine:
    place: int
    count: int
    share: Fraction | None
    field_share: Fraction | None


# What the page lists after the games, in order: the tally's fields, and a line's words.
COUNT_LINES = (
    ("passed", _("Deals passed by all")),
    ("common_written", _("Common pules written")),
    ("common_collected", _("Common pules collected")),
    ("personal_written", _("Personal pules written (a lost lielais)")),
    ("penalty_written", _("Penalty pules")),
    ("own_collected", _("Own pules crossed out")),
    ("personal_collected", _("Other players' pules collected")),
    ("personal_paid", _("Pules paid to another's lielais")),
    ("settled", _("Pules paid at the round's end")),
)


@dataclass(frozen=True)
class PlayerStatistics:
    his: Totals
    field: Totals

    # Computed once per page: the template reads each list in several places.
    @cached_property
    def games(self) -> list[GameLine]:
        lines = []
        for game in (*BANDED_GAMES, Game.MAZA_ZOLE):
            his, field = self.his.tally, self.field.tally
            if game is Game.MAZA_ZOLE and not field.attempts(game):
                continue  # not played under the rules of the scope
            bands = (
                tuple(
                    (
                        str(OUTCOME_WORDS[band.value]),
                        his.band(game, band),
                        share(his.band(game, band), his.attempts(game)),
                        share(field.band(game, band), field.attempts(game)),
                    )
                    for band in Band
                )
                if game in BANDED_GAMES
                else ()
            )
            lines.append(
                GameLine(
                    game=game,
                    label=str(GAME_WORDS[game]),
                    attempts=his.attempts(game),
                    wins=his.wins(game),
                    won_share=declarer_share(his, game),
                    field_won_share=declarer_share(field, game),
                    per_hundred=self.his.per_hundred_deals(his.attempts(game)),
                    field_per_hundred=self.field.per_hundred_deals(field.attempts(game)),
                    bands=bands,
                )
            )
        return lines

    @cached_property
    def counts(self) -> list[CountLine]:
        return [
            CountLine(
                name=name,
                label=label,
                count=getattr(self.his.tally, name),
                per_hundred=self.his.per_hundred_deals(getattr(self.his.tally, name)),
                field_per_hundred=self.field.per_hundred_deals(getattr(self.field.tally, name)),
            )
            for name, label in COUNT_LINES
        ]

    @cached_property
    def places(self) -> list[PlaceLine]:
        """His places at his tables (tied players share the better place), the places the
        field had (a 4th only where tables of four were played)."""
        return [
            PlaceLine(
                place=place,
                count=self.his.places[place - 1],
                share=self.his.place_share(place),
                field_share=self.field.place_share(place),
            )
            for place in PLACES
            if self.field.places[place - 1]
        ]

    @property
    def defender_share(self) -> Fraction | None:
        return defender_share(self.his.tally)

    @property
    def field_defender_share(self) -> Fraction | None:
        return defender_share(self.field.tally)


_SUMS = {name: Sum(name) for name in TALLY_FIELDS}
_PLACES = {f"place_{place}": Count("pk", filter=Q(place=place)) for place in PLACES}


def _totals(results: QuerySet[SeatResult]) -> Totals:
    row = results.aggregate(
        **_SUMS,
        **_PLACES,
        rounds=Count("pk"),
        points=Sum("game_points"),
        players=Count("registration__player", distinct=True),
        tournaments=Count("registration__tournament", distinct=True),
    )
    return Totals(
        tally=SeatTally(**{name: row[name] or 0 for name in TALLY_FIELDS}),
        rounds=row["rounds"],
        game_points=row["points"] or 0,
        places=tuple(row[f"place_{place}"] for place in PLACES),
        players=row["players"],
        tournaments=row["tournaments"],
    )


def player_statistics(*, player: Player, scope: StatisticsScope) -> PlayerStatistics:
    """His sums and the field's over the scope's confirmed tables of public rounds."""
    results = scope.seat_results()
    return PlayerStatistics(
        his=_totals(results.filter(registration__player=player)),
        field=_totals(results),
    )
