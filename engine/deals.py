"""One entry of a table sheet: a played game, everyone passing, galdiņš, or a penalty pule.

`validate_entry` refuses what cannot have happened (docs/rules.md, Validation); `score_deal` gives
the points that move in one deal before any pule is collected or written (pules are a sheet's
memory, see `engine.sheet`). `galdins_draw_needed` tells a referee's page when a rondo galdiņš
needs the card draw between two tied losers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, TypedDict

from engine.errors import SheetError, gettext_noop, shown
from engine.rules import (
    GALDINS_LOSS,
    IMPOSSIBLE_POINTS,
    MAX_TALON_POINTS,
    TOTAL_POINTS,
    TRICKS_PER_DEAL,
    Game,
    Rules,
    declarer_unit,
    rondo_winnings,
)

PLAYED_GAMES = frozenset({Game.LIELAIS, Game.ZOLE, Game.MAZA_ZOLE})
# One template per game (the contract's game names), so a translation can name the game.
_NO_DECLARER = {
    Game.PASS: gettext_noop("pass has no declarer"),
    Game.GALDINS: gettext_noop("galdins has no declarer"),
}
_NOT_PLAYED = {
    Game.LIELAIS: gettext_noop("lielais is not played under this table's rules"),
    Game.ZOLE: gettext_noop("zole is not played under this table's rules"),
    Game.MAZA_ZOLE: gettext_noop("maza_zole is not played under this table's rules"),
    Game.PASS: gettext_noop("pass is not played under this table's rules"),
    Game.GALDINS: gettext_noop("galdins is not played under this table's rules"),
}


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
            raise SheetError(
                gettext_noop("unknown game %(value)s"), field="game", value=shown(self.game)
            ) from None
        if self.game not in PLAYED_GAMES:
            raise SheetError(_NO_DECLARER[self.game], field="game")


@dataclass(frozen=True, slots=True)
class Pass:
    """Everyone passed (and the rule set writes a common pule)."""

    game: ClassVar[Game] = Game.PASS


@dataclass(frozen=True, slots=True)
class Galdins:
    """Everyone passed and galdiņš was played: each playing player's tricks and card points.

    `draw_loser` is who drew the card and pays the larger half, given only when two tied losers
    of a rondo galdiņš split an odd amount (`galdins_draw_needed`)."""

    tricks: Mapping[str, int]
    points: Mapping[str, int]
    draw_loser: str | None = None
    game: ClassVar[Game] = Game.GALDINS


@dataclass(frozen=True, slots=True)
class PenaltyPule:
    """A referee gives a player a personal pule as a penalty (a late player, a revoke, a deal
    annulled for a wrong lead). It uses no deal; at most 3 per player per round."""

    player: str
    game: ClassVar[None] = None


Deal = Play | Pass | Galdins
SheetLine = Play | Pass | Galdins | PenaltyPule


# One template per field, so a translation can phrase each field as its language needs (the
# field's name is never a param): see `engine.errors`. "of" templates name a galdiņš player.
_WHOLE = {
    "tricks": gettext_noop("tricks must be a whole number, got %(value)s"),
    "points": gettext_noop("points must be a whole number, got %(value)s"),
    "tricks of": gettext_noop("tricks of %(player)s must be a whole number, got %(value)s"),
    "points of": gettext_noop("points of %(player)s must be a whole number, got %(value)s"),
}
_RANGE = {
    "tricks": gettext_noop("tricks must be %(low)s-%(high)s, got %(value)s"),
    "points": gettext_noop("points must be %(low)s-%(high)s, got %(value)s"),
    "tricks of": gettext_noop("tricks of %(player)s must be %(low)s-%(high)s, got %(value)s"),
    "points of": gettext_noop("points of %(player)s must be %(low)s-%(high)s, got %(value)s"),
}
_IMPOSSIBLE = {
    "points": gettext_noop("points cannot be %(value)s: no set of cards is worth 1 point"),
    "points of": gettext_noop(
        "points of %(player)s cannot be %(value)s: no set of cards is worth 1 point"
    ),
}
_NOT_AT_TABLE = {
    "declarer": gettext_noop("declarer %(player)s is not at this table"),
    "player": gettext_noop("player %(player)s is not at this table"),
    "tricks": gettext_noop("tricks: player %(player)s is not at this table"),
    "points": gettext_noop("points: player %(player)s is not at this table"),
}
_SITS_OUT = {
    "declarer": gettext_noop(
        "declarer %(player)s deals this deal and sits it out at a 4-player table"
    ),
    "player": gettext_noop("player %(player)s deals this deal and sits it out at a 4-player table"),
    "tricks": gettext_noop(
        "tricks: player %(player)s deals this deal and sits it out at a 4-player table"
    ),
    "points": gettext_noop(
        "points: player %(player)s deals this deal and sits it out at a 4-player table"
    ),
}
_NOT_GIVEN_EACH = {
    "tricks": gettext_noop("tricks must give each playing player's tricks, got %(value)s"),
    "points": gettext_noop("points must give each playing player's points, got %(value)s"),
}
_MISSING_OF = {
    "tricks": gettext_noop("tricks of %(player)s is missing"),
    "points": gettext_noop("points of %(player)s is missing"),
}


class _Player(TypedDict, total=False):
    """The player param of a galdiņš field's error; none for a field of the declarer's game."""

    player: str


def _field_of(field_name: str, of: str | None) -> tuple[str, str, _Player]:
    """The template key, the error's field and the player param of a (galdiņš) field."""
    if of is None:
        return field_name, field_name, {}
    return f"{field_name} of", f"{field_name} of {of}", {"player": of}


def _whole_number(
    value: object, field_name: str, low: int, high: int, of: str | None = None
) -> int:
    # The error's wording is looked up only for a bad value: a sheet of 28 deals checks some
    # sixty numbers each time it is scored, and nearly all of them are good.
    if isinstance(value, bool) or not isinstance(value, int):
        key, field, player = _field_of(field_name, of)
        raise SheetError(_WHOLE[key], field=field, value=shown(value), **player)
    if not low <= value <= high:
        key, field, player = _field_of(field_name, of)
        raise SheetError(_RANGE[key], field=field, low=low, high=high, value=value, **player)
    return value


def _card_points(value: object, field_name: str, of: str | None = None) -> int:
    points = _whole_number(value, field_name, 0, TOTAL_POINTS, of)
    if points in IMPOSSIBLE_POINTS:
        key, field, player = _field_of(field_name, of)
        raise SheetError(_IMPOSSIBLE[key], field=field, value=points, **player)
    return points


def _tricks(value: object, field_name: str, of: str | None = None) -> int:
    return _whole_number(value, field_name, 0, TRICKS_PER_DEAL, of)


def _seated_player(
    name: object, field_name: str, players: Sequence[str], sitting_out: str | None
) -> str:
    """`field_name` is "declarer", "player", or "tricks" / "points" for a galdiņš player."""
    field = field_name if field_name in ("declarer", "player") else f"{field_name}: player"
    if not isinstance(name, str) or name not in players:
        raise SheetError(_NOT_AT_TABLE[field_name], field=field, player=shown(name))
    if name == sitting_out:
        raise SheetError(_SITS_OUT[field_name], field=field, player=name)
    return name


def _validate_play(play: Play, players: Sequence[str], sitting_out: str | None) -> None:
    _seated_player(play.declarer, "declarer", players, sitting_out)
    tricks = _tricks(play.tricks, "tricks")
    if play.game is Game.MAZA_ZOLE:
        if play.points is not None:
            points = _card_points(play.points, "points")
            if tricks == 0 and points:
                raise SheetError(
                    gettext_noop("points must be 0 when mazā zole takes no trick, got %(value)s"),
                    field="points",
                    value=points,
                )
        return
    if play.points is None:
        raise SheetError(gettext_noop("points is missing"), field="points")
    points = _card_points(play.points, "points")
    if play.game is Game.LIELAIS:
        if tricks == TRICKS_PER_DEAL and points != TOTAL_POINTS:
            raise SheetError(
                gettext_noop(
                    "points must be %(total)s when Lielais takes all %(tricks)s tricks, "
                    "got %(value)s"
                ),
                field="points",
                total=TOTAL_POINTS,
                tricks=TRICKS_PER_DEAL,
                value=points,
            )
        if tricks == 0 and points > MAX_TALON_POINTS:
            raise SheetError(
                gettext_noop(
                    "points must be at most %(most)s (the discards) when Lielais takes no trick, "
                    "got %(value)s"
                ),
                field="points",
                most=MAX_TALON_POINTS,
                value=points,
            )
    else:  # zole: the talon counts for the defenders
        if tricks == 0 and points:
            raise SheetError(
                gettext_noop("points must be 0 when zole takes no trick, got %(value)s"),
                field="points",
                value=points,
            )
        if tricks == TRICKS_PER_DEAL and points < TOTAL_POINTS - MAX_TALON_POINTS:
            raise SheetError(
                gettext_noop(
                    "points must be at least %(least)s when zole takes all %(tricks)s tricks, "
                    "got %(value)s"
                ),
                field="points",
                least=TOTAL_POINTS - MAX_TALON_POINTS,
                tricks=TRICKS_PER_DEAL,
                value=points,
            )


def _validate_galdins(
    galdins: Galdins, players: Sequence[str], sitting_out: str | None, rules: Rules
) -> None:
    playing = [name for name in players if name != sitting_out]
    for field_name, values, check in (
        ("tricks", galdins.tricks, _tricks),
        ("points", galdins.points, _card_points),
    ):
        if not isinstance(values, Mapping):
            raise SheetError(_NOT_GIVEN_EACH[field_name], field=field_name, value=shown(values))
        for name in values:
            _seated_player(name, field_name, players, sitting_out)
        for name in playing:
            if name not in values:
                raise SheetError(_MISSING_OF[field_name], field=field_name, player=name)
            check(values[name], field_name, name)
    trick_sum = sum(galdins.tricks.values())
    if trick_sum != TRICKS_PER_DEAL:
        raise SheetError(
            gettext_noop("tricks must add up to %(total)s, got %(value)s"),
            field="tricks",
            total=TRICKS_PER_DEAL,
            value=trick_sum,
        )
    point_sum = sum(galdins.points.values())
    if point_sum > TOTAL_POINTS:
        raise SheetError(
            gettext_noop("points must add up to at most %(total)s, got %(value)s"),
            field="points",
            total=TOTAL_POINTS,
            value=point_sum,
        )
    _validate_draw_loser(galdins, rules)


def _validate_draw_loser(galdins: Galdins, rules: Rules) -> None:
    """`draw_loser` is given exactly when the card draw is needed, naming one of the tied two."""
    tied = galdins_draw_needed(galdins, rules)
    if tied is None:
        if galdins.draw_loser is not None:
            raise SheetError(
                gettext_noop("draw_loser %(player)s is given, but this galdiņš needs no card draw"),
                field="draw_loser",
                player=shown(galdins.draw_loser),
            )
        return
    first, second = tied
    if galdins.draw_loser is None:
        raise SheetError(
            gettext_noop(
                "draw_loser is missing: %(first)s and %(second)s tie for the most points and "
                "draw a card for who pays the larger half"
            ),
            field="draw_loser",
            first=first,
            second=second,
        )
    if galdins.draw_loser not in tied:
        raise SheetError(
            gettext_noop(
                "draw_loser %(player)s is not one of the tied players %(first)s and %(second)s"
            ),
            field="draw_loser",
            player=shown(galdins.draw_loser),
            first=first,
            second=second,
        )


def validate_entry(
    entry: SheetLine, *, players: Sequence[str], dealer: str | None, rules: Rules
) -> None:
    """Refuse an entry that cannot have happened at this table; raise `SheetError` naming the field.

    `dealer` is the dealer of this deal (None for a penalty, which uses no deal).
    """
    sitting_out = dealer if len(players) == 4 else None
    if isinstance(entry, PenaltyPule):
        if not rules.pules:
            raise SheetError(
                gettext_noop(
                    'a penalty pule needs the rule all_pass = "pule" or "galdins_pule": this '
                    "table keeps no pules"
                ),
                field="penalty",
            )
        _seated_player(entry.player, "player", players, None)
        return
    if not isinstance(entry, Play | Pass | Galdins):
        raise SheetError(gettext_noop("unknown entry %(value)s"), field="game", value=shown(entry))
    if not rules.allows(entry.game):
        raise SheetError(_NOT_PLAYED[entry.game], field="game")
    if isinstance(entry, Play):
        _validate_play(entry, players, sitting_out)
    elif isinstance(entry, Galdins):
        _validate_galdins(entry, players, sitting_out, rules)


def galdins_losers(galdins: Galdins, rules: Rules | None = None) -> list[str]:
    """Who loses galdiņš under the rules' `galdins_scoring`.

    "tricks": the most tricks loses; a tie on tricks goes to more card points; still tied, all
    lose. "rondo": the most card points loses; players tied for it all lose."""
    if rules is not None and rules.rondo:
        most_points = max(galdins.points.values())
        return [name for name, points in galdins.points.items() if points == most_points]
    most_tricks = max(galdins.tricks.values())
    candidates = [name for name, tricks in galdins.tricks.items() if tricks == most_tricks]
    most_points = max(galdins.points[name] for name in candidates)
    return [name for name in candidates if galdins.points[name] == most_points]


def _rondo_winnings(galdins: Galdins, winner: str) -> int:
    return rondo_winnings(points=galdins.points[winner], tricks=galdins.tricks[winner])


def galdins_draw_needed(galdins: Galdins, rules: Rules) -> tuple[str, str] | None:
    """The two players who must draw a card, or None when no draw is needed.

    In a rondo galdiņš two players tied for the most card points split what the winner receives;
    when that is odd, the one who draws (`Galdins.draw_loser`) pays the larger half. Asks only
    about a galdiņš whose tricks and points are otherwise valid (`validate_entry`); the two are
    named in the order of `galdins.points`."""
    if not rules.rondo:
        return None
    losers = galdins_losers(galdins, rules)
    if len(losers) != 2:
        return None
    (winner,) = (name for name in galdins.points if name not in losers)
    if _rondo_winnings(galdins, winner) % 2 == 0:
        return None
    return losers[0], losers[1]


def _galdins_scores(galdins: Galdins, players: Sequence[str], rules: Rules) -> dict[str, int]:
    scores = dict.fromkeys(players, 0)

    def pay(payer: str, receiver: str, amount: int) -> None:
        scores[payer] -= amount
        scores[receiver] += amount

    losers = galdins_losers(galdins, rules)
    if not rules.rondo:  # each loser pays every other seated player, the sitting-out dealer too
        for loser in losers:
            for name in players:
                if name != loser:
                    pay(loser, name, GALDINS_LOSS)
    # Rondo names only the playing players: the sitting-out dealer neither pays nor receives.
    elif len(losers) == 1:
        (loser,) = losers
        for winner in galdins.points:
            if winner != loser:
                pay(loser, winner, _rondo_winnings(galdins, winner))
    elif len(losers) == 2:  # the two split what the one winner receives
        (winner,) = (name for name in galdins.points if name not in losers)
        amount = _rondo_winnings(galdins, winner)
        larger = galdins.draw_loser or losers[0]  # without a draw the halves are equal
        smaller = losers[1] if larger == losers[0] else losers[0]
        pay(larger, winner, amount - amount // 2)
        pay(smaller, winner, amount // 2)
    # three tied: nothing moves
    return scores


def base_scores(deal: Deal, players: Sequence[str], rules: Rules | None = None) -> list[int]:
    """The points one validated deal moves, in seat order, before any pule (sums to zero)."""
    rules = rules or Rules()
    size = len(players)
    if isinstance(deal, Play):
        unit = declarer_unit(
            deal.game, points=deal.points, tricks=deal.tricks, small_zole_loss=rules.small_zole_loss
        )
        scores = [-unit] * size
        scores[players.index(deal.declarer)] = unit * (size - 1)
        return scores
    if isinstance(deal, Galdins):
        by_name = _galdins_scores(deal, players, rules)
        return [by_name[name] for name in players]
    return [0] * size


def score_deal(
    deal: Deal, *, players: Sequence[str], dealer: str, rules: Rules | None = None
) -> dict[str, int]:
    """Validate one deal and give each player's points, before pules (see `score_sheet`)."""
    rules = rules or Rules()
    validate_entry(deal, players=players, dealer=dealer, rules=rules)
    return dict(zip(players, base_scores(deal, players, rules), strict=True))
