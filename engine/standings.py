"""Tournament scoring: place points at each table, and the standings order with shared ranks."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from typing import TypeVar

from engine.errors import SheetError, gettext_noop, shown
from engine.names import latvian_sort_key
from engine.rules import TABLE_SIZES


@dataclass(frozen=True, slots=True)
class PlaceScheme:
    """Place points for 1st, 2nd, ... at a table of 3 and at a table of 4."""

    three: tuple[int, ...] = (6, 4, 2)
    four: tuple[int, ...] = (6, 4, 2, 0)

    def __post_init__(self) -> None:
        for size, points in zip(TABLE_SIZES, (self.three, self.four), strict=True):
            if len(points) != size or any(
                isinstance(value, bool) or not isinstance(value, int) for value in points
            ):
                raise SheetError(
                    gettext_noop(
                        "place points for a table of %(size)s must be %(size)s whole numbers, "
                        "got %(value)s"
                    ),
                    field="place_points",
                    size=size,
                    value=shown(points),
                )
            if list(points) != sorted(points, reverse=True):
                raise SheetError(
                    gettext_noop(
                        "place points for a table of %(size)s must not grow with the place, "
                        "got %(value)s"
                    ),
                    field="place_points",
                    size=size,
                    value=shown(points),
                )

    @classmethod
    def from_text(cls, three: str, four: str) -> PlaceScheme:
        """From the way organisers write it: "6,4,2" and "6,4,2,0"."""

        def numbers(text: str, size: int) -> tuple[int, ...]:
            try:
                return tuple(int(part) for part in text.split(","))
            except ValueError:
                raise SheetError(
                    gettext_noop(
                        "place points for a table of %(size)s must be whole numbers separated "
                        "by commas, got %(value)s"
                    ),
                    field="place_points",
                    size=size,
                    value=shown(text),
                ) from None

        return cls(three=numbers(three, 3), four=numbers(four, 4))

    def for_table(self, size: int) -> tuple[int, ...]:
        if size not in TABLE_SIZES:
            raise SheetError(
                gettext_noop("place points are given at tables of 3 or 4 players, got %(size)s"),
                field="place_points",
                size=size,
            )
        return self.three if size == 3 else self.four


def place_points(
    game_points: Mapping[str, int], scheme: PlaceScheme | None = None
) -> dict[str, Fraction]:
    """Each player's place points at one table from the round's game points.

    Tied players share the mean of the place points of the places they span."""
    points_for_place = (scheme or PlaceScheme()).for_table(len(game_points))
    ordered = sorted(game_points.values(), reverse=True)
    shared: dict[int, Fraction] = {}
    for result in set(ordered):
        first = ordered.index(result)
        span = ordered.count(result)
        shared[result] = Fraction(sum(points_for_place[first : first + span]), span)
    return {player: shared[result] for player, result in game_points.items()}


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A player's result in one round (kārta)."""

    player: str
    round_number: int
    game_points: int
    place_points: Fraction
    place: int = 1  # 1 + how many at his table did better (tied players share a place)


def round_results(
    round_number: int, totals: Mapping[str, int], scheme: PlaceScheme | None = None
) -> list[RoundResult]:
    """The round results of one table, from its sheet's final totals."""
    points = place_points(totals, scheme)
    return [
        RoundResult(
            player=player,
            round_number=round_number,
            game_points=game_points,
            place_points=points[player],
            place=1 + sum(other > game_points for other in totals.values()),
        )
        for player, game_points in totals.items()
    ]


class Metric(StrEnum):
    """What a standings order can rank by, highest first."""

    PLACE_POINTS = "place_points"
    GAME_POINTS = "game_points"
    LAST_ROUND_GAME_POINTS = "last_round_game_points"
    WINS = "wins"  # rounds in which nobody at the player's table did better


DEFAULT_ORDER = (Metric.PLACE_POINTS, Metric.GAME_POINTS, Metric.LAST_ROUND_GAME_POINTS)
GAME_POINTS_ONLY = (Metric.GAME_POINTS,)


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int  # tied players share a rank (1, 2, 2, 4)
    player: str
    name: str
    place_points: Fraction
    game_points: int
    last_round_game_points: int
    wins: int
    rounds: tuple[RoundResult, ...] = field(default=())

    def metric(self, metric: Metric) -> Fraction | int:
        return getattr(self, metric.value)


def validate_order(order: Sequence[str]) -> tuple[Metric, ...]:
    metrics = []
    for name in order:
        try:
            metrics.append(Metric(name))
        except ValueError:
            raise SheetError(
                gettext_noop("standings order: unknown metric %(value)s (one of %(choices)s)"),
                field="order",
                value=shown(name),
                choices=", ".join(member.value for member in Metric),
            ) from None
    if not metrics or len(set(metrics)) != len(metrics):
        raise SheetError(
            gettext_noop("standings order: name each metric once, at least one"), field="order"
        )
    return tuple(metrics)


Ranked = TypeVar("Ranked", "Standing", "TeamStanding")


def _ranked(
    rows: list[Ranked], metrics: Sequence[Metric], name: Callable[[Ranked], str]
) -> list[Ranked]:
    """Rows ordered by the metrics, highest first, then by name (Latvian alphabetical order),
    with competition ranks: rows equal on every metric share a rank (1, 2, 2, 4).

    The order of tied rows is the official one, printed in protocols, archived and cached for
    every reader: it stays Latvian (the federation's language) whatever language a page is shown
    in, so the same standings never list tied players differently for different readers. Lists
    sorted only for display use `engine.names.name_sort_key` with the reader's language."""

    def ranking_key(row: Ranked) -> tuple[Fraction | int, ...]:
        return tuple(row.metric(metric) for metric in metrics)

    rows = sorted(rows, key=lambda row: latvian_sort_key(name(row)))
    rows.sort(key=ranking_key, reverse=True)
    ranked = []
    for index, row in enumerate(rows):
        tied = index and ranking_key(row) == ranking_key(rows[index - 1])
        ranked.append(replace(row, rank=ranked[-1].rank if tied else index + 1))
    return ranked


def rank_standings(
    results: Iterable[RoundResult],
    *,
    players: Iterable[str] = (),
    names: Mapping[str, str] | None = None,
    order: Sequence[str] = DEFAULT_ORDER,
) -> list[Standing]:
    """The standings: ranked by `order`, highest first; players equal on every metric share a
    rank and are listed by name (Latvian alphabetical order).

    `players` adds entrants without results yet; `names` gives display names (the player key
    otherwise)."""
    metrics = validate_order(order)
    names = names or {}
    by_player: dict[str, list[RoundResult]] = defaultdict(list)
    for player in players:
        by_player.setdefault(player, [])
    last_round = 0
    for result in results:
        by_player[result.player].append(result)
        last_round = max(last_round, result.round_number)
    standings = []
    for player, rounds in by_player.items():
        rounds.sort(key=lambda result: result.round_number)
        standings.append(
            Standing(
                rank=0,
                player=player,
                name=names.get(player, player),
                place_points=sum((result.place_points for result in rounds), Fraction(0)),
                game_points=sum(result.game_points for result in rounds),
                last_round_game_points=sum(
                    result.game_points for result in rounds if result.round_number == last_round
                ),
                wins=sum(result.place == 1 for result in rounds),
                rounds=tuple(rounds),
            )
        )
    return _ranked(standings, metrics, name=lambda standing: standing.name)


@dataclass(frozen=True, slots=True)
class TeamStanding:
    rank: int
    team: str
    members: tuple[str, ...]
    place_points: Fraction
    game_points: int
    last_round_game_points: int
    wins: int

    def metric(self, metric: Metric) -> Fraction | int:
        return getattr(self, metric.value)


def team_standings(
    teams: Mapping[str, Iterable[str]],
    standings: Iterable[Standing],
    *,
    order: Sequence[str] = DEFAULT_ORDER,
) -> list[TeamStanding]:
    """A team's score is the sum of its members' scores, ranked by the same order."""
    metrics = validate_order(order)
    by_player = {standing.player: standing for standing in standings}
    rows = []
    for team, members in teams.items():
        member_standings = [by_player[m] for m in members if m in by_player]
        rows.append(
            TeamStanding(
                rank=0,
                team=team,
                members=tuple(members),
                place_points=sum((s.place_points for s in member_standings), Fraction(0)),
                game_points=sum(s.game_points for s in member_standings),
                last_round_game_points=sum(s.last_round_game_points for s in member_standings),
                wins=sum(s.wins for s in member_standings),
            )
        )
    return _ranked(rows, metrics, name=lambda row: row.team)
