"""One entry of a table sheet: a played game, everyone passing, galdiņš, or a penalty pule.

`validate_entry` refuses what cannot have happened (RULES.md, Validation); `score_deal` gives the
points that move in one deal before any pule is collected or written (pules are a sheet's memory,
see `engine.sheet`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from engine.errors import SheetError, shown
from engine.rules import (
    GALDINS_LOSS,
    IMPOSSIBLE_POINTS,
    MAX_TALON_POINTS,
    TOTAL_POINTS,
    TRICKS_PER_DEAL,
    Game,
    Rules,
    declarer_unit,
)

PLAYED_GAMES = frozenset({Game.LIELAIS, Game.ZOLE, Game.MAZA_ZOLE})


@dataclass(frozen=True, slots=True)
class Play:
    """Lielais, zole or mazā zole: one declarer against the rest. `points`, `tricks` are his."""

    game: Game
    declarer: str
    tricks: int
    points: int | None = None  # not needed for mazā zole, which is decided by tricks alone

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "game", Game(self.game))
        except (ValueError, TypeError):
            raise SheetError(f"unknown game {shown(self.game)}", field="game") from None
        if self.game not in PLAYED_GAMES:
            raise SheetError(f"{self.game} has no declarer", field="game")


@dataclass(frozen=True, slots=True)
class Pass:
    """Everyone passed (and the rule set writes a common pule)."""

    game: ClassVar[Game] = Game.PASS


@dataclass(frozen=True, slots=True)
class Galdins:
    """Everyone passed and galdiņš was played: each playing player's tricks and card points."""

    tricks: Mapping[str, int]
    points: Mapping[str, int]
    game: ClassVar[Game] = Game.GALDINS


@dataclass(frozen=True, slots=True)
class PenaltyPule:
    """A referee gives a player a personal pule as a penalty (a late player). It uses no deal."""

    player: str
    game: ClassVar[None] = None


Deal = Play | Pass | Galdins
Entry = Play | Pass | Galdins | PenaltyPule


def _whole_number(value: object, field_name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SheetError(
            f"{field_name} must be a whole number, got {shown(value)}", field=field_name
        )
    if not low <= value <= high:
        raise SheetError(f"{field_name} must be {low}-{high}, got {value}", field=field_name)
    return value


def _card_points(value: object, field_name: str) -> int:
    points = _whole_number(value, field_name, 0, TOTAL_POINTS)
    if points in IMPOSSIBLE_POINTS:
        raise SheetError(
            f"{field_name} cannot be {points}: no set of cards is worth 1 point", field=field_name
        )
    return points


def _tricks(value: object, field_name: str) -> int:
    return _whole_number(value, field_name, 0, TRICKS_PER_DEAL)


def _seated_player(
    name: object, field_name: str, players: Sequence[str], sitting_out: str | None
) -> str:
    if not isinstance(name, str) or name not in players:
        raise SheetError(f"{field_name} {shown(name)} is not at this table", field=field_name)
    if name == sitting_out:
        raise SheetError(
            f"{field_name} {name} deals this deal and sits it out at a 4-player table",
            field=field_name,
        )
    return name


def _validate_play(play: Play, players: Sequence[str], sitting_out: str | None) -> None:
    _seated_player(play.declarer, "declarer", players, sitting_out)
    tricks = _tricks(play.tricks, "tricks")
    if play.game is Game.MAZA_ZOLE:
        if play.points is not None:
            points = _card_points(play.points, "points")
            if tricks == 0 and points:
                raise SheetError(
                    f"points must be 0 when mazā zole takes no trick, got {points}",
                    field="points",
                )
        return
    if play.points is None:
        raise SheetError("points is missing", field="points")
    points = _card_points(play.points, "points")
    if play.game is Game.LIELAIS:
        if tricks == TRICKS_PER_DEAL and points != TOTAL_POINTS:
            raise SheetError(
                f"points must be 120 when Lielais takes all 8 tricks, got {points}",
                field="points",
            )
        if tricks == 0 and points > MAX_TALON_POINTS:
            raise SheetError(
                f"points must be at most 22 (the discards) when Lielais takes no trick, "
                f"got {points}",
                field="points",
            )
    else:  # zole: the talon counts for the defenders
        if tricks == 0 and points:
            raise SheetError(
                f"points must be 0 when zole takes no trick, got {points}", field="points"
            )
        if tricks == TRICKS_PER_DEAL and points < TOTAL_POINTS - MAX_TALON_POINTS:
            raise SheetError(
                f"points must be at least 98 when zole takes all 8 tricks, got {points}",
                field="points",
            )


def _validate_galdins(galdins: Galdins, players: Sequence[str], sitting_out: str | None) -> None:
    playing = [name for name in players if name != sitting_out]
    for field_name, values, check in (
        ("tricks", galdins.tricks, _tricks),
        ("points", galdins.points, _card_points),
    ):
        if not isinstance(values, Mapping):
            raise SheetError(
                f"{field_name} must give each playing player's {field_name}, got {shown(values)}",
                field=field_name,
            )
        for name in values:
            _seated_player(name, f"{field_name}: player", players, sitting_out)
        for name in playing:
            if name not in values:
                raise SheetError(f"{field_name} of {name} is missing", field=field_name)
            check(values[name], f"{field_name} of {name}")
    trick_sum = sum(galdins.tricks.values())
    if trick_sum != TRICKS_PER_DEAL:
        raise SheetError(f"tricks must add up to 8, got {trick_sum}", field="tricks")
    point_sum = sum(galdins.points.values())
    if point_sum > TOTAL_POINTS:
        raise SheetError(f"points must add up to at most 120, got {point_sum}", field="points")


def validate_entry(
    entry: Entry, *, players: Sequence[str], dealer: str | None, rules: Rules
) -> None:
    """Refuse an entry that cannot have happened at this table; raise `SheetError` naming the field.

    `dealer` is the dealer of this deal (None for a penalty, which uses no deal).
    """
    sitting_out = dealer if len(players) == 4 else None
    if isinstance(entry, PenaltyPule):
        if not rules.pules:
            raise SheetError(
                'a penalty pule needs the rule all_pass = "pule": this table keeps no pules',
                field="penalty",
            )
        _seated_player(entry.player, "player", players, None)
        return
    if not isinstance(entry, Play | Pass | Galdins):
        raise SheetError(f"unknown entry {shown(entry)}", field="game")
    if not rules.allows(entry.game):
        raise SheetError(f"{entry.game} is not played under this table's rules", field="game")
    if isinstance(entry, Play):
        _validate_play(entry, players, sitting_out)
    elif isinstance(entry, Galdins):
        _validate_galdins(entry, players, sitting_out)


def galdins_losers(galdins: Galdins) -> list[str]:
    """The most tricks loses; a tie on tricks goes to more card points; still tied, all lose."""
    most_tricks = max(galdins.tricks.values())
    candidates = [name for name, tricks in galdins.tricks.items() if tricks == most_tricks]
    most_points = max(galdins.points[name] for name in candidates)
    return [name for name in candidates if galdins.points[name] == most_points]


def base_scores(deal: Deal, players: Sequence[str]) -> list[int]:
    """The points one validated deal moves, in seat order, before any pule (sums to zero)."""
    size = len(players)
    if isinstance(deal, Play):
        unit = declarer_unit(deal.game, points=deal.points, tricks=deal.tricks)
        scores = [-unit] * size
        scores[players.index(deal.declarer)] = unit * (size - 1)
        return scores
    if isinstance(deal, Galdins):
        scores = [0] * size
        for loser in galdins_losers(deal):
            loser_seat = players.index(loser)
            for seat in range(size):
                scores[seat] += -GALDINS_LOSS * (size - 1) if seat == loser_seat else GALDINS_LOSS
        return scores
    return [0] * size


def score_deal(
    deal: Deal, *, players: Sequence[str], dealer: str, rules: Rules | None = None
) -> dict[str, int]:
    """Validate one deal and give each player's points, before pules (see `score_sheet`)."""
    validate_entry(deal, players=players, dealer=dealer, rules=rules or Rules())
    return dict(zip(players, base_scores(deal, players), strict=True))
