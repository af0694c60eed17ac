"""The season ranking: ranking points per tournament, the best K results, the final's qualifiers.

Rules (what the federation publishes with each season):
- A player's **ranking points** for a tournament come from the season's points table, by the
  tournament's level (a national event is worth more than a district one) and his final place
  there. A place past the end of the level's list, or a level the table does not name, earns 0.
  Players who share a final rank share its points: both of a tie for 2nd get the 2nd place's.
- The **season ranking** adds up each player's best K results of the season (K is the season's
  `best_k`); the others are listed as dropped. Among results with equal points the one with a
  win, then more game points, then the earlier tournament counts first.
- Ties are broken by **wins**, then by **game points**, both over the counted results. A win is a
  tournament won: final place 1 (Latvian practice speaks of "uzvaras" in the season as
  tournaments won, not rounds won at a table). Players still equal share a rank (1, 2, 2, 4) and
  are listed by name in Latvian alphabetical order.
- The **qualifiers** for the season's final: the players ranked in the top N (everyone tied at the
  cut is in) with at least one ranking point, then the invited players (title holders, wild
  cards) who are not in already.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from engine.errors import SheetError, shown
from engine.names import latvian_sort_key

MAX_PLACES = 500  # a points table longer than any tournament's field is a typing mistake


@dataclass(frozen=True, slots=True)
class PointsTable:
    """Ranking points by level and final place: `levels` pairs a level with the points for the
    1st, 2nd, ... place. Build it with `from_mapping`, which checks it."""

    levels: tuple[tuple[str, tuple[int, ...]], ...]

    @classmethod
    def from_mapping(cls, data: object) -> PointsTable:
        """From JSON such as {"national": [100, 85, ...], "district": [50, 42, ...]}: each
        level's points are whole numbers of at least 0 that never grow with the place."""
        if not isinstance(data, Mapping) or not data:
            raise SheetError(
                f"a points table names at least one level, got {shown(data)}",
                field="points_table",
            )
        levels = []
        for level, points in sorted(data.items()):
            if not isinstance(level, str) or not level.strip():
                raise SheetError(
                    f"a level's name must be text, got {shown(level)}", field="points_table"
                )
            if (
                not isinstance(points, Sequence)
                or isinstance(points, str)
                or not 0 < len(points) <= MAX_PLACES
                or any(isinstance(value, bool) or not isinstance(value, int) for value in points)
                or any(value < 0 for value in points)
            ):
                raise SheetError(
                    f"{level}: the points for places 1, 2, ... must be 1-{MAX_PLACES} whole "
                    f"numbers of at least 0, got {shown(points)}",
                    field="points_table",
                )
            if list(points) != sorted(points, reverse=True):
                raise SheetError(
                    f"{level}: the points must not grow with the place, got {shown(points)}",
                    field="points_table",
                )
            levels.append((level, tuple(points)))
        return cls(levels=tuple(levels))

    def as_mapping(self) -> dict[str, list[int]]:
        return {level: list(points) for level, points in self.levels}

    def for_level(self, level: str) -> tuple[int, ...]:
        for name, points in self.levels:
            if name == level:
                return points
        return ()


# A default a season starts from: a national tournament pays about twice a district one, a district
# one about twice a club one; the first places are worth clearly more than the middle of the field.
DEFAULT_POINTS_TABLE = PointsTable.from_mapping(
    {
        "national": [
            *(100, 85, 75, 65, 60, 55, 50, 45, 40, 36, 32, 29, 26, 23, 20),
            *(18, 16, 14, 12, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1),
        ],
        "district": [50, 42, 36, 32, 29, 26, 23, 20, 18, 16, 14, 12, 10, 8, 6, 5, 4, 3, 2, 1],
        "club": [20, 16, 13, 11, 9, 7, 5, 4, 3, 2, 1],
    }
)
DEFAULT_BEST_K = 6
DEFAULT_QUALIFIERS = 24  # a final of 24: eight tables of three, or six of four


def ranking_points(table: PointsTable, level: str, place: int) -> int:
    """The ranking points of a final `place` (1-based; a shared rank counts as that place) in a
    tournament of `level`."""
    if isinstance(place, bool) or not isinstance(place, int) or place < 1:
        raise SheetError(f"a final place is 1 or more, got {shown(place)}", field="place")
    points = table.for_level(level)
    return points[place - 1] if place <= len(points) else 0


@dataclass(frozen=True, slots=True)
class EventResult:
    """A player's final result in one tournament that counts for the season."""

    player: str
    event: str  # the tournament's key
    held_on: datetime.date
    level: str
    place: int  # the final rank (shared by tied players)
    game_points: int
    points: int  # ranking points

    @property
    def won(self) -> bool:
        return self.place == 1


def event_result(
    table: PointsTable,
    *,
    player: str,
    event: str,
    held_on: datetime.date,
    level: str,
    place: int,
    game_points: int,
) -> EventResult:
    """The result with its ranking points from `table`."""
    return EventResult(
        player=player,
        event=event,
        held_on=held_on,
        level=level,
        place=place,
        game_points=game_points,
        points=ranking_points(table, level, place),
    )


@dataclass(frozen=True, slots=True)
class RankedPlayer:
    rank: int  # tied players share a rank (1, 2, 2, 4)
    player: str
    name: str
    points: int  # over the counted results
    wins: int  # tournaments won among the counted results
    game_points: int  # over the counted results
    counted: tuple[EventResult, ...] = field(default=())  # the best K, best first
    dropped: tuple[EventResult, ...] = field(default=())

    @property
    def events(self) -> int:
        return len(self.counted) + len(self.dropped)


def _best_first(result: EventResult) -> tuple[int, int, int, int, str, str, int]:
    return (
        -result.points,
        -result.won,
        -result.game_points,
        result.held_on.toordinal(),
        result.event,
        result.level,
        result.place,
    )


def best_results(
    results: Iterable[EventResult], best_k: int
) -> tuple[tuple[EventResult, ...], tuple[EventResult, ...]]:
    """A player's results split into the `best_k` that count and the rest, best first."""
    if isinstance(best_k, bool) or not isinstance(best_k, int) or best_k < 1:
        raise SheetError(f"best K is 1 or more, got {shown(best_k)}", field="best_k")
    ordered = sorted(results, key=_best_first)
    return tuple(ordered[:best_k]), tuple(ordered[best_k:])


def _ranking_key(row: RankedPlayer) -> tuple[int, int, int]:
    return (row.points, row.wins, row.game_points)


def season_ranking(
    results: Iterable[EventResult], *, best_k: int, names: Mapping[str, str] | None = None
) -> list[RankedPlayer]:
    """Every player with a result, ranked by the points of his best `best_k` results, then wins,
    then game points (highest first); players equal on all three share a rank and are listed by
    name (`names`, the player key otherwise)."""
    names = names or {}
    by_player: dict[str, list[EventResult]] = defaultdict(list)
    for result in results:
        by_player[result.player].append(result)
    rows = []
    for player, player_results in by_player.items():
        counted, dropped = best_results(player_results, best_k)
        rows.append(
            RankedPlayer(
                rank=0,
                player=player,
                name=names.get(player, player),
                points=sum(result.points for result in counted),
                wins=sum(result.won for result in counted),
                game_points=sum(result.game_points for result in counted),
                counted=counted,
                dropped=dropped,
            )
        )
    rows.sort(key=_ranking_key, reverse=True)
    # Players equal on every metric are listed by name (only they need the name's sort key).
    start = 0
    for end in range(1, len(rows) + 1):
        if end == len(rows) or _ranking_key(rows[end]) != _ranking_key(rows[start]):
            if end - start > 1:
                rows[start:end] = sorted(
                    rows[start:end], key=lambda row: latvian_sort_key(row.name)
                )
            start = end
    ranked: list[RankedPlayer] = []
    for index, row in enumerate(rows):
        tied = index and _ranking_key(row) == _ranking_key(rows[index - 1])
        rank = ranked[-1].rank if tied else index + 1
        ranked.append(
            RankedPlayer(
                rank=rank,
                player=row.player,
                name=row.name,
                points=row.points,
                wins=row.wins,
                game_points=row.game_points,
                counted=row.counted,
                dropped=row.dropped,
            )
        )
    return ranked


class QualifiedBy(StrEnum):
    RANKING = "ranking"
    INVITATION = "invitation"


@dataclass(frozen=True, slots=True)
class Qualifier:
    player: str
    qualified_by: QualifiedBy
    rank: int | None  # in the season ranking, if he is ranked


def qualifiers(
    ranking: Sequence[RankedPlayer], *, places: int, invited: Iterable[str] = ()
) -> list[Qualifier]:
    """Who qualifies for the final: the ranked players with a rank of `places` or better and at
    least one ranking point (a tie at the cut takes everyone tied), in ranking order; then each
    invited player not in already, in the order given."""
    if isinstance(places, bool) or not isinstance(places, int) or places < 0:
        raise SheetError(f"the number of qualifiers is 0 or more, got {shown(places)}")
    ranks = {row.player: row.rank for row in ranking}
    chosen = [
        Qualifier(row.player, QualifiedBy.RANKING, row.rank)
        for row in ranking
        if row.rank <= places and row.points > 0
    ]
    seen = {qualifier.player for qualifier in chosen}
    for player in invited:
        if player not in seen:
            seen.add(player)
            chosen.append(Qualifier(player, QualifiedBy.INVITATION, ranks.get(player)))
    return chosen
