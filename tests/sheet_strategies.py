"""Hypothesis strategies for random VALID table sheets, written from docs/rules.md alone.

This generator is independent of `engine.simulate` on purpose: a sheet the engine must accept is
built here from the validation rules of docs/rules.md, so a mistake shared by the engine and its
own simulator cannot hide. The generator keeps its own record of who deals each deal (the deal
passes to the left every deal, passes included; a penalty uses no deal), because at a 4-player
table the dealer sits the deal out and can never be the declarer.

A `SheetCase` holds the sheet as the JSON of `python -m engine score` (README, "The engine's
command line"); `to_sheet()` builds the engine's dataclasses directly (not through
`engine.json_contract`), so the two paths can be compared.
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from engine import Galdins, Pass, PenaltyPule, Play, Rules, Sheet

# docs/rules.md, "Cards and card points": 120 card points in the pack; the two talon cards hold
# at most 22; a total of 1 or 119 is impossible.
TOTAL_POINTS = 120
MAX_TALON_POINTS = 22
IMPOSSIBLE_POINTS = frozenset({1, 119})
TRICKS_PER_DEAL = 8
# Where the payout bands change (docs/rules.md, "Where the bands change"), so that they come up
# often.
BAND_EDGES = (0, 2, 22, 30, 31, 60, 61, 90, 91, 98, 118, 120)

LATVIAN_NAMES = (
    "Anna",
    "Jānis",
    "Pēteris",
    "Līga",
    "Ģirts",
    "Ķēniņš",
    "Žanis",
    "Ļena",
    "Ņina",
    "Čaksts",
    "Šķēle",
    "Ēriks",
    "Īrisa",
    "Ūdris",
    "Āboliņš",
    "Bērziņa",
)
CYRILLIC_NAMES = ("Александр", "Людмила", "Ёжиков", "Юрий", "Щукина", "Эдуард")
NAME_LETTERS = (
    "aābcčdeēfgģhiījkķlļmnņoprsštuūvzž"
    "AĀBCČDEĒFGĢHIĪJKĶLĻMNŅOPRSŠTUŪVZŽ"
    "абвгдеёжзийклмнопрстуфхцчшщъыьэюя"
    "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЭЮЯ"
    " -'"
)

PLAYED_GAMES = ("lielais", "zole", "maza_zole")
ALL_PASS = ("pule", "galdins", "galdins_pule")
GALDINS_SCORING = ("tricks", "rondo")
MAX_PENALTIES = 3  # docs/rules.md: at most 3 penalty pules per player per round


@dataclass(frozen=True)
class SheetCase:
    """One random valid sheet, as the JSON contract, with the generator's own dealer record."""

    players: tuple[str, ...]
    rules: dict[str, Any]
    first_dealer: str | None  # None: the JSON leaves it out and the first player deals
    deals: tuple[dict[str, Any], ...]  # the JSON `deals` list: deals and penalties
    dealers: tuple[str | None, ...]  # who deals each entry (None for a penalty)
    closed: bool

    @property
    def size(self) -> int:
        return len(self.players)

    @property
    def keeps_pules(self) -> bool:
        return self.rules["all_pass"] in ("pule", "galdins_pule")

    def to_json(self) -> dict[str, Any]:
        """The sheet in the JSON shape of `python -m engine score` (a fresh copy every call)."""
        data: dict[str, Any] = {
            "rules": dict(self.rules),
            "players": list(self.players),
            "deals": copy.deepcopy(list(self.deals)),
            "closed": self.closed,
        }
        if self.first_dealer is not None:
            data["first_dealer"] = self.first_dealer
        return data

    def to_sheet(self) -> Sheet:
        """The same sheet built from the engine's dataclasses (not through engine.json_contract)."""
        return Sheet(
            players=self.players,
            entries=tuple(entry_of(deal) for deal in self.deals),
            rules=Rules(**self.rules),
            first_dealer=self.first_dealer,
            closed=self.closed,
        )


def entry_of(deal: dict[str, Any]) -> Play | Pass | Galdins | PenaltyPule:
    if "penalty" in deal:
        return PenaltyPule(player=deal["player"])
    if deal["game"] == "pass":
        return Pass()
    if deal["game"] == "galdins":
        return Galdins(
            tricks=dict(deal["tricks"]),
            points=dict(deal["points"]),
            draw_loser=deal.get("draw_loser"),
        )
    return Play(
        game=deal["game"],
        declarer=deal["declarer"],
        tricks=deal["tricks"],
        points=deal.get("points"),
    )


@functools.cache
def card_points(low: int = 0, high: int = TOTAL_POINTS) -> st.SearchStrategy[int]:
    """Card points a set of Zole cards can be worth, between low and high: never 1 nor 119."""
    edges = [points for points in BAND_EDGES if low <= points <= high]
    whole = st.integers(low, high)
    drawn = st.one_of(st.sampled_from(edges), whole) if edges else whole
    return drawn.filter(lambda points: points not in IMPOSSIBLE_POINTS)


@functools.cache
def whole_numbers(low: int, high: int) -> st.SearchStrategy[int]:
    return st.integers(low, high)


def pick(draw: st.DrawFn, choices: list[str]) -> str:
    return choices[draw(whole_numbers(0, len(choices) - 1))]


def lielais_result(draw: st.DrawFn) -> tuple[int, int]:
    """(tricks, points): 8 tricks means all 120 points; no trick leaves only the discards."""
    tricks = draw(whole_numbers(0, TRICKS_PER_DEAL))
    if tricks == TRICKS_PER_DEAL:
        return tricks, TOTAL_POINTS
    if tricks == 0:
        return tricks, draw(card_points(0, MAX_TALON_POINTS))
    return tricks, draw(card_points())


def zole_result(draw: st.DrawFn) -> tuple[int, int]:
    """(tricks, points): the talon counts for the defenders, so no trick is 0 points and all
    8 tricks are at least 120 - 22 = 98."""
    tricks = draw(whole_numbers(0, TRICKS_PER_DEAL))
    if tricks == TRICKS_PER_DEAL:
        return tricks, draw(card_points(TOTAL_POINTS - MAX_TALON_POINTS, TOTAL_POINTS))
    if tricks == 0:
        return tricks, 0
    return tricks, draw(card_points())


MAZA_ZOLE_TRICKS = st.one_of(st.just(0), st.integers(0, TRICKS_PER_DEAL))
NO_TRICK_POINTS = st.one_of(st.none(), st.just(0))
SOME_TRICKS_POINTS = st.one_of(st.none(), card_points())


def played_deal(draw: st.DrawFn, game: str, playing: list[str]) -> dict[str, Any]:
    declarer = pick(draw, playing)
    if game == "maza_zole":
        tricks = draw(MAZA_ZOLE_TRICKS)
        deal: dict[str, Any] = {"game": game, "declarer": declarer, "tricks": tricks}
        # points are optional for mazā zole; when given with no trick they are 0
        points = draw(NO_TRICK_POINTS if tricks == 0 else SOME_TRICKS_POINTS)
        if points is not None:
            deal["points"] = points
        return deal
    tricks, points = lielais_result(draw) if game == "lielais" else zole_result(draw)
    return {"game": game, "declarer": declarer, "points": points, "tricks": tricks}


@functools.cache
def galdins_points(left: int) -> st.SearchStrategy[int]:
    # a few round values make ties on points (the second tie-break) come up
    round_values = [value for value in (0, 20, 30, 40) if value <= left]
    return st.one_of(st.sampled_from(round_values), card_points(0, left))


SEAT_ORDERS = st.permutations(range(3))


def rondo_draw(tricks: dict[str, int], points: dict[str, int]) -> list[str]:
    """docs/rules.md, rondo: two players tied for the most card points split what the winner
    receives (3 with no trick, 2 with 30 points or fewer, 1 above); when that is odd they draw a
    card. The two who draw, or nobody."""
    most = max(points.values())
    tied = [name for name in points if points[name] == most]
    if len(tied) != 2:
        return []
    (winner,) = set(points) - set(tied)
    receives = 3 if tricks[winner] == 0 else 2 if points[winner] <= 30 else 1
    return tied if receives % 2 else []


def galdins_deal(draw: st.DrawFn, playing: list[str], rondo: bool = False) -> dict[str, Any]:
    """Galdiņš of the three playing players: tricks add up to 8, points to at most 120; under
    rondo, the draw's loser when two tied losers split an odd amount."""
    first = draw(whole_numbers(0, TRICKS_PER_DEAL))
    second = draw(whole_numbers(0, TRICKS_PER_DEAL - first))
    tricks = [first, second, TRICKS_PER_DEAL - first - second]
    tricks = [tricks[index] for index in draw(SEAT_ORDERS)]
    points = []
    left = TOTAL_POINTS
    for _ in playing:
        value = draw(galdins_points(left))
        points.append(value)
        left -= value
    if rondo and draw(st.booleans()):
        # Two tied for the most card points, the rondo's hard case: the third has fewer.
        most = draw(card_points(1, TOTAL_POINTS // 2))
        points = [most, most, draw(card_points(0, min(most - 1, TOTAL_POINTS - 2 * most)))]
    key_order = draw(SEAT_ORDERS)  # JSON objects have no fixed order
    deal = {
        "game": "galdins",
        "tricks": {playing[seat]: tricks[seat] for seat in key_order},
        "points": {playing[seat]: points[seat] for seat in key_order},
    }
    drawing = rondo_draw(deal["tricks"], deal["points"]) if rondo else []
    if drawing:
        deal["draw_loser"] = pick(draw, drawing)
    return deal


def player_names(size: int) -> st.SearchStrategy[list[str]]:
    name = st.one_of(
        st.sampled_from(LATVIAN_NAMES),
        st.sampled_from(CYRILLIC_NAMES),
        st.text(NAME_LETTERS, min_size=1, max_size=12).filter(lambda text: text.strip() != ""),
    )
    return st.lists(name, min_size=size, max_size=size, unique=True)


@st.composite
def sheet_cases(
    draw: st.DrawFn,
    *,
    sizes: tuple[int, ...] = (3, 4),
    all_pass: tuple[str, ...] = ALL_PASS,
    galdins_scoring: tuple[str, ...] = GALDINS_SCORING,
    max_entries: int = 30,
    closed: bool | None = None,
) -> SheetCase:
    """A random valid sheet: 3 or 4 players, random rules (every option) and first dealer,
    0..30 entries of every kind the rules allow."""
    size = draw(st.sampled_from(sizes))
    players = draw(player_names(size))
    rules = {
        "all_pass": draw(st.sampled_from(all_pass)),
        "small_zole": draw(st.booleans()),
        "personal_pule_payment": draw(st.sampled_from(("N-1", "N"))),
        "four_table_pass_pules": draw(st.sampled_from((1, 2))),
        "galdins_scoring": draw(st.sampled_from(galdins_scoring)),
        "small_zole_loss": draw(st.sampled_from((7, 6))),
    }
    first_dealer = draw(st.one_of(st.none(), st.sampled_from(players)))
    is_closed = draw(st.booleans()) if closed is None else closed

    kinds = ["lielais", "pass" if rules["all_pass"] == "pule" else "galdins", "lielais", "zole"]
    if rules["all_pass"] in ("pule", "galdins_pule"):
        kinds.append("penalty")  # penalty pules exist only where pules are kept
    if rules["small_zole"]:
        kinds.append("maza_zole")

    dealer_seat = players.index(first_dealer) if first_dealer is not None else 0
    deals: list[dict[str, Any]] = []
    dealers: list[str | None] = []
    penalties = dict.fromkeys(players, 0)
    for _ in range(draw(whole_numbers(0, max_entries))):
        kind = pick(draw, kinds)
        if kind == "penalty":
            player = pick(draw, players)
            if penalties[player] == MAX_PENALTIES:  # a fourth is refused
                continue
            penalties[player] += 1
            deals.append({"penalty": "personal_pule", "player": player})
            dealers.append(None)  # a penalty uses no deal: the dealer does not move
            continue
        dealer = players[dealer_seat]
        # at a 4-player table the dealer sits the deal out
        playing = [name for name in players if size == 3 or name != dealer]
        if kind == "pass":
            deal: dict[str, Any] = {"game": "pass"}
        elif kind == "galdins":
            deal = galdins_deal(draw, playing, rondo=rules["galdins_scoring"] == "rondo")
        else:
            deal = played_deal(draw, kind, playing)
        deals.append(deal)
        dealers.append(dealer)
        dealer_seat = (dealer_seat + 1) % size  # the next player to the left deals next

    return SheetCase(
        players=tuple(players),
        rules=rules,
        first_dealer=first_dealer,
        deals=tuple(deals),
        dealers=tuple(dealers),
        closed=is_closed,
    )
