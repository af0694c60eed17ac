"""Tournament scoring: place points at each table (with the values a scheme gives for shared
places), and the standings order with shared ranks."""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from typing import TypeVar

from engine.errors import SheetError, gettext_noop, shown
from engine.names import latvian_sort_key
from engine.rules import TABLE_SIZES

Span = tuple[int, int]  # the first and last place tied players share, 1-based: (2, 3)

# One template per refusal of a shared value; `size` says which table's text is wrong.
_SHARED_FORMAT = gettext_noop(
    "shared place points for a table of %(size)s must be written like 1-4=2, got %(value)s"
)
_SHARED_SPAN = gettext_noop(
    "shared place points for a table of %(size)s: places %(places)s must lie within "
    "1-%(size)s and cover at least 2 places"
)
_SHARED_TWICE = gettext_noop(
    "shared place points for a table of %(size)s: places %(places)s are given twice"
)
_SHARED_WHOLE = gettext_noop(
    "shared place points for a table of %(size)s: places %(places)s must get a whole number, "
    "got %(value)s"
)
_SHARED_RANGE = gettext_noop(
    "shared place points for a table of %(size)s: places %(places)s must get from %(low)s to "
    "%(high)s (the points of those places), got %(value)s"
)
_SPAN = re.compile(r"\s*([0-9]+)\s*-\s*([0-9]+)\s*")


def span_text(span: Span) -> str:
    """A span as organisers write it and places are shown: "2-3", or "1" for one place."""
    first, last = span
    return str(first) if first == last else f"{first}-{last}"


def place_text(first: int, last: int | None = None) -> str:
    """A place as it is shown to people: "2", or "2–3" (an en dash) for places 2 to 3 shared by
    tied players. (Organisers write spans with a hyphen in a place-point scheme: `span_text`.)"""
    return str(first) if last is None or last == first else f"{first}–{last}"


def rank_text(rank: int, shared_by: int) -> str:
    """A rank in the standings as it is shown: "2–3" for two players tied at rank 2."""
    return place_text(rank, rank + shared_by - 1)


def rank_texts(ranks: Iterable[int]) -> dict[int, str]:
    """Each rank of a ranked list (1, 2, 2, 4) as it is shown: {1: "1", 2: "2–3", 4: "4"}."""
    shared: dict[int, int] = defaultdict(int)
    for rank in ranks:
        shared[rank] += 1
    return {rank: rank_text(rank, count) for rank, count in shared.items()}


def span_from_text(text: str, size: int) -> Span:
    """ "1-4" as the span (1, 4) of a table of this size; its range is checked by `PlaceScheme`."""
    written = _SPAN.fullmatch(text)
    if written is None:
        raise SheetError(_SHARED_FORMAT, field="place_points", size=size, value=shown(text))
    return int(written[1]), int(written[2])


@dataclass(frozen=True, slots=True)
class PlaceScheme:
    """Place points for 1st, 2nd, ... at a table of 3 and at a table of 4, and the values given
    for shared places (the federation's `1-4=2`). Tied players whose span has no value share the
    mean of the places they span."""

    three: tuple[int, ...] = (6, 4, 2)
    four: tuple[int, ...] = (6, 4, 2, 0)
    shared_three: Mapping[Span, int] = field(default_factory=dict)  # {(1, 3): 4}
    shared_four: Mapping[Span, int] = field(default_factory=dict)  # {(1, 4): 2}

    def __post_init__(self) -> None:
        for size, points, shared in (
            (3, self.three, "shared_three"),
            (4, self.four, "shared_four"),
        ):
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
            checked = _checked_shared(getattr(self, shared), size, points)
            object.__setattr__(self, shared, checked)  # a copy, in span order

    def __hash__(self) -> int:  # a frozen value, though its shared values are dicts
        return hash(
            (
                self.three,
                self.four,
                tuple(self.shared_three.items()),
                tuple(self.shared_four.items()),
            )
        )

    @classmethod
    def from_text(cls, three: str, four: str) -> PlaceScheme:
        """From the way organisers write it: "6,4,2" and "6,4,2,0; 1-4=2" (shared values after
        a semicolon, several separated by commas)."""
        three_points, shared_three = _table_from_text(three, 3)
        four_points, shared_four = _table_from_text(four, 4)
        return cls(
            three=three_points,
            four=four_points,
            shared_three=shared_three,
            shared_four=shared_four,
        )

    def table_text(self, size: int) -> str:
        """One table's scheme as organisers write it (`from_text` reads it): "6,4,2,0; 1-4=2"."""
        text = ",".join(map(str, self.for_table(size)))
        shared = self.shared_for_table(size)
        if shared:
            text += "; " + ", ".join(
                f"{span_text(span)}={points}" for span, points in shared.items()
            )
        return text

    def to_text(self) -> tuple[str, str]:
        """The texts for a table of 3 and of 4: `PlaceScheme.from_text(*scheme.to_text())`."""
        return self.table_text(3), self.table_text(4)

    def for_table(self, size: int) -> tuple[int, ...]:
        if size not in TABLE_SIZES:
            raise SheetError(
                gettext_noop("place points are given at tables of 3 or 4 players, got %(size)s"),
                field="place_points",
                size=size,
            )
        return self.three if size == 3 else self.four

    def shared_for_table(self, size: int) -> Mapping[Span, int]:
        """The values given for shared places at a table of this size, in span order."""
        self.for_table(size)  # refuses a size that is no table
        return self.shared_three if size == 3 else self.shared_four


def _table_from_text(text: str, size: int) -> tuple[tuple[int, ...], dict[Span, int]]:
    points_text, semicolon, shared_text = text.partition(";")
    try:
        # "6;4;2" is a semicolon typed for a comma, not shared values such as "1-4=2"
        if semicolon and not any(mark in shared_text for mark in "-="):
            raise ValueError("a semicolon where a comma belongs")
        points = tuple(int(part) for part in points_text.split(","))
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
    shared: dict[Span, int] = {}
    if semicolon:
        for item in shared_text.split(","):
            span_part, equals, value_part = item.partition("=")
            try:
                if not equals:
                    raise ValueError("no value")
                span, value = span_from_text(span_part, size), int(value_part)
            except (SheetError, ValueError):
                raise SheetError(
                    _SHARED_FORMAT, field="place_points", size=size, value=shown(item.strip())
                ) from None
            if span in shared:
                raise SheetError(
                    _SHARED_TWICE, field="place_points", size=size, places=span_text(span)
                )
            shared[span] = value
    return points, shared


def _checked_shared(shared: object, size: int, points: tuple[int, ...]) -> dict[Span, int]:
    """The shared values of one table size, refused unless each span lies inside the table and
    covers 2 places or more, and its value lies between the points of its first and last place
    (so more game points never give fewer place points)."""
    if not isinstance(shared, Mapping):
        raise SheetError(_SHARED_FORMAT, field="place_points", size=size, value=shown(shared))
    checked = {}
    for span, value in shared.items():
        if not (
            isinstance(span, tuple)
            and len(span) == 2
            and all(isinstance(place, int) and not isinstance(place, bool) for place in span)
        ):
            raise SheetError(_SHARED_FORMAT, field="place_points", size=size, value=shown(span))
        first, last = span
        places = f"{first}-{last}"
        if not 1 <= first < last <= size:
            raise SheetError(_SHARED_SPAN, field="place_points", size=size, places=places)
        if isinstance(value, bool) or not isinstance(value, int):
            raise SheetError(
                _SHARED_WHOLE, field="place_points", size=size, places=places, value=shown(value)
            )
        low, high = points[last - 1], points[first - 1]
        if not low <= value <= high:
            raise SheetError(
                _SHARED_RANGE,
                field="place_points",
                size=size,
                places=places,
                low=low,
                high=high,
                value=value,
            )
        checked[(first, last)] = value
    return dict(sorted(checked.items()))


def place_spans(game_points: Mapping[str, int]) -> dict[str, Span]:
    """Each player's places at one table from the round's game points: (1, 1) for a clear
    first, (2, 3) for two tied for second and third."""
    ordered = sorted(game_points.values(), reverse=True)
    return {
        player: (ordered.index(result) + 1, ordered.index(result) + ordered.count(result))
        for player, result in game_points.items()
    }


def place_labels(game_points: Mapping[str, int]) -> dict[str, str]:
    """Each player's place as it is printed: "1", "2-3", "4"."""
    return {player: span_text(span) for player, span in place_spans(game_points).items()}


def place_points(
    game_points: Mapping[str, int], scheme: PlaceScheme | None = None
) -> dict[str, Fraction]:
    """Each player's place points at one table from the round's game points.

    Tied players get the scheme's value for the places they share if it gives one, else the
    mean of the place points of those places."""
    scheme = scheme or PlaceScheme()
    points_for_place = scheme.for_table(len(game_points))
    shared = scheme.shared_for_table(len(game_points))

    def points_of(span: Span) -> Fraction:
        if span in shared:
            return Fraction(shared[span])
        first, last = span
        return Fraction(sum(points_for_place[first - 1 : last]), last - first + 1)

    return {player: points_of(span) for player, span in place_spans(game_points).items()}


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
    spans = place_spans(totals)
    return [
        RoundResult(
            player=player,
            round_number=round_number,
            game_points=game_points,
            place_points=points[player],
            place=spans[player][0],
        )
        for player, game_points in totals.items()
    ]


class Metric(StrEnum):
    """What a standings order can rank by, highest first."""

    PLACE_POINTS = "place_points"
    GAME_POINTS = "game_points"
    LAST_ROUND_GAME_POINTS = "last_round_game_points"
    WINS = "wins"  # rounds in which nobody at the player's table did better


class AbsentRule(StrEnum):
    """How a player who missed rounds (absent, or entered late) ranks."""

    POINTS = "points"  # by his points like everyone: a missed round counts nothing (0 and 0)
    LAST = "last"  # below every player who played more rounds, then by his points


def validate_absent(rule: str) -> AbsentRule:
    try:
        return AbsentRule(rule)
    except ValueError:
        raise SheetError(
            gettext_noop("absent players: unknown rule %(value)s (one of %(choices)s)"),
            field="absent",
            value=shown(rule),
            choices=", ".join(member.value for member in AbsentRule),
        ) from None


DEFAULT_ORDER = (Metric.PLACE_POINTS, Metric.GAME_POINTS, Metric.LAST_ROUND_GAME_POINTS)


def exact_sum(values: Iterable[Fraction | int]) -> Fraction:
    """The exact sum of fractions, as `sum(values, Fraction(0))` gives it, without building and
    reducing a Fraction at every step: the numerators are added per denominator (place points
    have a handful: 1, 2, 3, 4, 6, 12), then over their least common multiple."""
    numerators: dict[int, int] = defaultdict(int)
    for value in values:
        numerators[value.denominator] += value.numerator
    common = math.lcm(*numerators)  # one Fraction built (and reduced), not one per denominator
    return Fraction(
        sum(numerator * (common // denominator) for denominator, numerator in numerators.items()),
        common,
    )


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
        value: Fraction | int = getattr(self, metric.value)
        return value


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


def _exact_integers(values: Sequence[Fraction | int]) -> list[int]:
    """The values times their least common denominator: integers in the same order as the
    values, equal exactly when the values are (place points: twelfths at most)."""
    common = math.lcm(*{value.denominator for value in values})
    return [value.numerator * (common // value.denominator) for value in values]


def _ranked(
    rows: list[Ranked],
    metrics: Sequence[Metric],
    name: Callable[[Ranked], str],
    first: Callable[[Ranked], int] | None = None,
) -> list[Ranked]:
    """Rows ordered by the metrics, highest first, then by name (Latvian alphabetical order),
    with competition ranks: rows equal on every metric share a rank (1, 2, 2, 4).

    The order of tied rows is the official one, printed in protocols, archived and cached for
    every reader: it stays Latvian (the federation's language) whatever language a page is shown
    in, so the same standings never list tied players differently for different readers. Lists
    sorted only for display use `engine.names.name_sort_key` with the reader's language.
    `first`, when given, ranks before every metric (the rounds played, under `AbsentRule.LAST`)."""

    # Each row's key: its metrics as exact integers (see `_exact_integers`), compared as fast as
    # integers are rather than as Fractions, in the same order and equal exactly when they are.
    columns = [_exact_integers([row.metric(metric) for row in rows]) for metric in metrics]
    if first is not None:
        columns.insert(0, [first(row) for row in rows])
    keys = zip(*columns, strict=True)
    keyed = sorted(zip(keys, rows, strict=True), key=lambda pair: latvian_sort_key(name(pair[1])))
    keyed.sort(key=lambda pair: pair[0], reverse=True)
    ranked: list[Ranked] = []
    for index, (key, row) in enumerate(keyed):
        tied = index and key == keyed[index - 1][0]
        ranked.append(replace(row, rank=ranked[-1].rank if tied else index + 1))
    return ranked


def _round_number(result: RoundResult) -> int:
    return result.round_number


def rank_standings(
    results: Iterable[RoundResult],
    *,
    players: Iterable[str] = (),
    names: Mapping[str, str] | None = None,
    order: Sequence[str] = DEFAULT_ORDER,
    absent: str = AbsentRule.POINTS,
) -> list[Standing]:
    """The standings: ranked by `order`, highest first; players equal on every metric share a
    rank and are listed by name (Latvian alphabetical order). `absent` says where players who
    missed rounds rank (`AbsentRule`).

    `players` adds entrants without results yet; `names` gives display names (the player key
    otherwise)."""
    metrics = validate_order(order)
    absent_rule = validate_absent(absent)
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
        rounds.sort(key=_round_number)
        game_points = last_round_game_points = wins = 0
        for result in rounds:  # one pass: a 600-player event has 6,000 results and more
            game_points += result.game_points
            if result.round_number == last_round:
                last_round_game_points += result.game_points
            if result.place == 1:
                wins += 1
        standings.append(
            Standing(
                rank=0,
                player=player,
                name=names.get(player, player),
                place_points=exact_sum(result.place_points for result in rounds),
                game_points=game_points,
                last_round_game_points=last_round_game_points,
                wins=wins,
                rounds=tuple(rounds),
            )
        )
    return _ranked(
        standings,
        metrics,
        name=lambda standing: standing.name,
        first=_rounds_played if absent_rule == AbsentRule.LAST else None,
    )


def _rounds_played(standing: Standing) -> int:
    return len({result.round_number for result in standing.rounds})


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
        value: Fraction | int = getattr(self, metric.value)
        return value


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
                place_points=exact_sum(s.place_points for s in member_standings),
                game_points=sum(s.game_points for s in member_standings),
                last_round_game_points=sum(s.last_round_game_points for s in member_standings),
                wins=sum(s.wins for s in member_standings),
            )
        )
    return _ranked(rows, metrics, name=lambda row: row.team)
