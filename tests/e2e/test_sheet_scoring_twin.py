"""static/js/sheet-scoring.js, the phone's twin of the engine's sheet scoring, answers every sheet
as the engine does: thousands of random valid sheets of every rule-set option score alike (each
entry's dealer and scores, the pules open after each entry, the settlement, the totals, the open
pules), and hundreds of broken ones are refused alike (the same line as the command line's, the
same deal and field). All are scored in Chromium in one call."""

import json
import random
from typing import Any

from engine import SheetError, score_sheet
from engine.json_contract import score_json, sheet_from_json
from tests.sheet_strategies import (
    ALL_PASS,
    BAND_EDGES,
    CYRILLIC_NAMES,
    GALDINS_SCORING,
    IMPOSSIBLE_POINTS,
    LATVIAN_NAMES,
    MAX_PENALTIES,
    MAX_TALON_POINTS,
    NAME_LETTERS,
    TOTAL_POINTS,
    TRICKS_PER_DEAL,
    rondo_draw,
)

VALID_SHEETS = 3000
TWIN = "/static/js/sheet-scoring.js"

# One call scores a list of JSON texts with the twin (both ways one JSON string: far faster than
# Playwright's objects): each gives {"result", "whole", "pules", "rows", "next"} or the refusal
# {"error", "deal", "field"}; anything but a SheetError is an "exception".
SCORE_ALL = """
async ([url, texts]) => {
  const twin = await import(url);
  const answers = JSON.parse(texts).map((text) => {
    try {
      const scored = twin.scoreSheet(twin.sheetFromJson(JSON.parse(text)));
      return {
        result: twin.scoredSheetToJson(scored),
        whole: twin.scoreJson(JSON.parse(text)),
        pules: scored.deals.map((deal) => [deal.commonPules, deal.personalPules]),
        rows: scored.deals.map((deal) => [
          deal.number, deal.totals, deal.puleEvent, deal.puleOwner, deal.commonWritten,
        ]),
        next: [scored.dealsPlayed, scored.nextDealer],
      };
    } catch (error) {
      if (error instanceof twin.SheetError) {
        return { error: String(error), deal: error.deal, field: error.field };
      }
      return { exception: String(error && error.stack) };
    }
  });
  return JSON.stringify(answers);  // one string crosses to Python much faster than objects
}
"""


def card_points(chance: random.Random, low: int = 0, high: int = TOTAL_POINTS) -> int:
    """Card points between low and high, the payout bands' edges often, never 1 nor 119."""
    edges = [points for points in BAND_EDGES if low <= points <= high]
    while True:
        points = (
            chance.choice(edges) if edges and chance.random() < 0.5 else chance.randint(low, high)
        )
        if points not in IMPOSSIBLE_POINTS:
            return points


def played(chance: random.Random, game: str, playing: list[str]) -> dict[str, Any]:
    """Lielais, zole or mazā zole with a result that can happen (as tests/sheet_strategies.py)."""
    deal: dict[str, Any] = {"game": game, "declarer": chance.choice(playing)}
    tricks = chance.choice((0, chance.randint(0, TRICKS_PER_DEAL)))
    if game == "maza_zole":
        deal["tricks"] = tricks
        points = chance.choice((None, 0 if tricks == 0 else card_points(chance)))
        if points is not None:
            deal["points"] = points
        return deal
    tricks = chance.randint(0, TRICKS_PER_DEAL)
    if game == "lielais":
        points = (
            TOTAL_POINTS
            if tricks == TRICKS_PER_DEAL
            else card_points(chance, 0, MAX_TALON_POINTS)
            if tricks == 0
            else card_points(chance)
        )
    else:  # the talon counts for the defenders of a zole
        points = (
            card_points(chance, TOTAL_POINTS - MAX_TALON_POINTS)
            if tricks == TRICKS_PER_DEAL
            else 0
            if tricks == 0
            else card_points(chance)
        )
    return {**deal, "points": points, "tricks": tricks}


def galdins(chance: random.Random, playing: list[str], rondo: bool) -> dict[str, Any]:
    """Galdiņš of the three playing players, ties on tricks and points often; under rondo the
    draw's loser when two tied losers split an odd amount."""
    first = chance.randint(0, TRICKS_PER_DEAL)
    second = chance.randint(0, TRICKS_PER_DEAL - first)
    tricks = [first, second, TRICKS_PER_DEAL - first - second]
    chance.shuffle(tricks)
    points, left = [], TOTAL_POINTS
    for _ in playing:
        round_values = [value for value in (0, 20, 30, 40) if value <= left]
        value = (
            chance.choice(round_values) if chance.random() < 0.5 else card_points(chance, 0, left)
        )
        points.append(value)
        left -= value
    if rondo and chance.random() < 0.5:  # two tied for the most card points
        most = card_points(chance, 2, TOTAL_POINTS // 2)
        points = [most, most, card_points(chance, 0, min(most - 1, TOTAL_POINTS - 2 * most))]
        chance.shuffle(points)
    order = list(range(3))
    chance.shuffle(order)  # JSON objects have no fixed order
    deal = {
        "game": "galdins",
        "tricks": {playing[seat]: tricks[seat] for seat in order},
        "points": {playing[seat]: points[seat] for seat in order},
    }
    drawing = rondo_draw(deal["tricks"], deal["points"]) if rondo else []
    if drawing:
        deal["draw_loser"] = chance.choice(drawing)
    return deal


def valid_sheet(chance: random.Random) -> dict[str, Any]:
    """A random valid sheet: 3 or 4 players, every rule-set option, 0..30 entries of every
    kind the rules allow (the generator keeps its own record of the dealer, as
    tests/sheet_strategies.py does)."""
    size = chance.choice((3, 4))
    players = chance.sample(LATVIAN_NAMES + CYRILLIC_NAMES, size)
    if chance.random() < 0.25:  # the web pages name players by their registration ids
        players = [str(entry) for entry in chance.sample(range(1, 400), size)]
    elif chance.random() < 0.2:  # any letters, spaces, hyphens and apostrophes
        typed = "".join(chance.choices(NAME_LETTERS, k=chance.randint(1, 12)))
        if typed.strip() and typed not in players:
            players[0] = typed
    rules = {
        "all_pass": chance.choice(ALL_PASS),
        "small_zole": chance.choice((True, False)),
        "personal_pule_payment": chance.choice(("N-1", "N")),
        "four_table_pass_pules": chance.choice((1, 2)),
        "galdins_scoring": chance.choice(GALDINS_SCORING),
        "small_zole_loss": chance.choice((7, 6)),
    }
    kinds = ["lielais", "pass" if rules["all_pass"] == "pule" else "galdins", "lielais", "zole"]
    if rules["all_pass"] != "galdins":
        kinds.append("penalty")
    if rules["small_zole"]:
        kinds.append("maza_zole")
    first_dealer = chance.choice((None, *players))
    seat = players.index(first_dealer) if first_dealer else 0
    deals: list[dict[str, Any]] = []
    penalties = dict.fromkeys(players, 0)
    for _ in range(chance.randint(0, 30)):
        kind = chance.choice(kinds)
        if kind == "penalty":
            player = chance.choice(players)
            if penalties[player] < MAX_PENALTIES:
                penalties[player] += 1
                deals.append({"penalty": "personal_pule", "player": player})
            continue
        playing = [name for name in players if size == 3 or name != players[seat]]
        if kind == "pass":
            deals.append({"game": "pass"})
        elif kind == "galdins":
            deals.append(galdins(chance, playing, rules["galdins_scoring"] == "rondo"))
        else:
            deals.append(played(chance, kind, playing))
        seat = (seat + 1) % size
    sheet = {"rules": rules, "players": players, "deals": deals, "closed": chance.random() < 0.7}
    if first_dealer is not None:
        sheet["first_dealer"] = first_dealer
    return sheet


NOT_A_NAME = ("Nobody", "", 7, None, ["Anna"])
BAD_POINTS = (130, -1, 1, 119, 121, 2.5, "60", None, True)
BAD_TRICKS = (9, -1, 2.5, "5", None, False)


def broken(sheet: dict[str, Any], chance: random.Random) -> dict[str, Any]:
    """One mistake put into a valid sheet: a wrong option, game, player, number or shape."""
    sheet = json.loads(json.dumps(sheet))
    deals = sheet["deals"]
    played = [deal for deal in deals if "declarer" in deal]
    galdins = [deal for deal in deals if deal.get("game") == "galdins"]
    mistakes = [
        lambda: sheet["rules"].update(colour="red"),
        lambda: sheet["rules"].update(
            all_pass=chance.choice(("pules", 1, None, "PULE")),
        ),
        lambda: sheet["rules"].update(four_table_pass_pules=chance.choice((0, 3, True, 1.5))),
        lambda: sheet["rules"].update(small_zole_loss=chance.choice((5, 8, "7", False))),
        lambda: sheet["rules"].update(small_zole=chance.choice(("yes", 1, None))),
        lambda: sheet["rules"].update(galdins_scoring=chance.choice(("points", ["rondo"]))),
        lambda: sheet["rules"].update(personal_pule_payment=chance.choice(("N+1", "n"))),
        lambda: sheet.update(rules=chance.choice(([], "classic", None))),
        lambda: sheet.update(players=sheet["players"][:2]),
        lambda: sheet.update(players=[*sheet["players"][:3], sheet["players"][0]]),
        lambda: sheet.update(players=[*sheet["players"][:-1], chance.choice((" \t", 5, ""))]),
        lambda: sheet.update(players="Anna, Jānis, Pēteris"),
        lambda: sheet.update(first_dealer=chance.choice(NOT_A_NAME)),
        lambda: sheet.update(closed=chance.choice(("yes", 1, None))),
        lambda: sheet.update(deals={"1": {"game": "pass"}}),
        lambda: sheet.update(table=3),
        lambda: sheet.pop("players"),
        lambda: deals.append(chance.choice(("pass", 3, None, ["game", "pass"]))),
        lambda: deals.append({"game": chance.choice(("grand", "Lielais", 5, None, "mazā_zole"))}),
        lambda: deals.append({"declarer": sheet["players"][0], "points": 70, "tricks": 5}),
        lambda: deals.append({"game": chance.choice(("pass", "galdins", "maza_zole"))}),
        lambda: deals.append({"game": "maza_zole", "declarer": sheet["players"][1], "tricks": 0}),
        lambda: deals.append(
            {"game": "zole", "declarer": sheet["players"][1], "points": 70, "tricks": 5, "x": 1}
        ),
        lambda: deals.append({"penalty": chance.choice(("personal", None)), "player": "Anna"}),
        lambda: deals.append({"penalty": "personal_pule", "player": chance.choice(NOT_A_NAME)}),
        lambda: deals.append({"penalty": "personal_pule"}),
        # A fourth penalty pule for one player (or any penalty where no pules are kept).
        lambda: deals.extend(
            [{"penalty": "personal_pule", "player": sheet["players"][-1]}] * 4,
        ),
        # Every player as declarer of a new deal: at a 4-table one of them deals and sits out.
        lambda: deals.extend(
            {"game": "lielais", "declarer": name, "points": 61, "tricks": 4}
            for name in sheet["players"]
        ),
    ]
    if played:
        play = chance.choice(played)
        mistakes += [
            lambda: play.update(declarer=chance.choice(NOT_A_NAME)),
            lambda: play.update(points=chance.choice(BAD_POINTS)),
            lambda: play.update(tricks=chance.choice(BAD_TRICKS)),
            lambda: play.update(tricks=8, points=chance.choice((96, 110))),
            lambda: play.update(tricks=0, points=chance.choice((2, 23, 40))),
            lambda: play.pop(chance.choice(("declarer", "tricks", "points")), None),
            lambda: play.update(draw_loser=play["declarer"]),
        ]
    if galdins:
        table = chance.choice(galdins)
        somebody = chance.choice(list(table["tricks"]))
        mistakes += [
            lambda: table.update(draw_loser=chance.choice([*table["tricks"], *NOT_A_NAME])),
            lambda: table.pop("draw_loser", None) or table.update(draw_loser=None),
            lambda: table["tricks"].update({somebody: table["tricks"][somebody] + 1}),
            lambda: table["points"].update({somebody: chance.choice(BAD_POINTS)}),
            lambda: table["tricks"].update({somebody: chance.choice(BAD_TRICKS)}),
            lambda: table["points"].update({somebody: 120}),
            lambda: table["tricks"].pop(somebody),
            lambda: table["points"].update({chance.choice(("Nobody", "")): 0}),
            lambda: table.update(tricks=chance.choice(([3, 3, 2], 8, None))),
            lambda: table.update(points=table["tricks"], declarer=somebody),
            lambda: table["tricks"].update(dict.fromkeys(sheet["players"], 2)),
        ]
    chance.choice(mistakes)()
    return sheet


# Odd shapes and values quoted back in messages (JSON written as Python's json.dumps writes it).
THREE = ["Anna", "Jānis", "Pēteris"]
ODD_SHEETS: list[object] = [
    [],
    "sheet",
    None,
    7,
    {},
    {"players": THREE, "deals": [{"game": "pass"}], "first_dealer": None},
    {"players": THREE, "first_dealer": {"name": ["Anna", 1, None, True]}},
    {"players": THREE, "closed": [1, {"a": "b"}]},
    {"players": ["Anna", 'Jā"nis\\', "Pēteris"], "deals": [{"penalty": "x", "player": "Anna"}]},
    {"players": THREE, "deals": [{"penalty": "personal_pule", "player": 'A"\n\t\u0001\\'}]},
    {"players": THREE, "deals": [{"game": "lielais", "declarer": "Anna", "points": 70}]},
    {
        "players": THREE,
        "deals": [{"game": "zole", "declarer": {"Anna": 1}, "points": 7, "tricks": 1}],
    },
    {
        "players": THREE,
        "deals": [{"game": "lielais", "declarer": "Anna", "points": [60, 61], "tricks": 4}],
    },
    {"players": THREE, "deals": [{"game": {"a": []}, "declarer": "Anna"}]},
    {"players": THREE, "deals": [{"penalty": ["personal_pule"], "player": "Anna"}]},
    {"players": THREE, "rules": {"all_pass": {"x": 1}}},
    {"players": THREE, "rules": {"Ūdens": 1}},
    {"players": THREE, "rules": {"small_zole": [], "all_pass": "galdins"}},
    {"players": ["Anna", "Anna", "Jānis"]},
    {"players": ["Anna", "\u2003", "Jānis"]},
    {"players": ["Anna", "\u001c", "Jānis"]},
    {"players": ["Anna", "\ufeff", "Jānis"]},
    {"players": ["Anna", "Jānis"], "rules": "classic"},
    {
        "players": THREE,
        "rules": {"all_pass": "galdins"},
        "deals": [{"game": "galdins", "tricks": [3, 3, 2], "points": {}}],
    },
    {
        "players": THREE,
        "rules": {"all_pass": "galdins", "galdins_scoring": "rondo"},
        "deals": [
            {
                "game": "galdins",
                "tricks": {"Anna": 3, "Jānis": 3, "Pēteris": 2},
                "points": {"Anna": 44, "Jānis": 44, "Pēteris": 32},
                "draw_loser": {"who": "Anna"},
            }
        ],
    },
    {
        "players": THREE,
        "rules": {"all_pass": "galdins", "galdins_scoring": "rondo"},
        "deals": [
            {
                "game": "galdins",
                "tricks": {"Jānis": 3, "Anna": 3, "Pēteris": 2},
                "points": {"Jānis": 44, "Anna": 44, "Pēteris": 32},
            }
        ],
    },
]


def engine_answer(text: str) -> dict[str, Any]:
    """What the engine says of one sheet: the command line's result (`score_json`) and each
    entry's open pules (`ScoredDeal`), or its refusal (the command line's one stderr line)."""
    try:
        result = score_json(json.loads(text))
        scored = score_sheet(sheet_from_json(json.loads(text)))
    except SheetError as error:
        return {"error": str(error), "deal": error.deal, "field": error.field}
    return {
        "result": result,
        "whole": result,
        "pules": [[deal.common_pules, deal.personal_pules] for deal in scored.deals],
        # the rest of the engine's ScoredDeal and ScoredSheet, which the page shows too
        "rows": [
            [deal.number, deal.totals, deal.pule_event, deal.pule_owner, deal.common_written]
            for deal in scored.deals
        ],
        "next": [scored.deals_played, scored.next_dealer],
    }


def test_the_phone_scores_and_refuses_every_sheet_as_the_engine_does(live_server, phone):
    chance = random.Random(23)
    sheets = [valid_sheet(chance) for _ in range(VALID_SHEETS)]
    # Broken sheets name players by name: a JavaScript object puts keys that look like whole
    # numbers first, so a refusal naming two tied galdiņš players by registration id may name
    # them in another order (README, "The same scoring in the browser"); their scores never
    # differ.
    named = [sheet for sheet in sheets if not sheet["players"][-1].isdigit()]
    sheets += [broken(chance.choice(named), chance) for _ in range(600)]
    texts = [json.dumps(sheet, ensure_ascii=False) for sheet in [*sheets, *ODD_SHEETS]]
    expected = [engine_answer(text) for text in texts]
    refused = sum("error" in answer for answer in expected)
    assert sum("result" in answer for answer in expected[:VALID_SHEETS]) == VALID_SHEETS
    assert refused >= 400, f"only {refused} broken sheets are refused"
    # The twin's coverage: every option and game of the contract came up.
    for option, values in {
        "all_pass": {"pule", "galdins", "galdins_pule"},
        "galdins_scoring": {"tricks", "rondo"},
        "small_zole": {True, False},
        "small_zole_loss": {6, 7},
        "personal_pule_payment": {"N-1", "N"},
        "four_table_pass_pules": {1, 2},
    }.items():
        assert {sheet["rules"][option] for sheet in sheets[:VALID_SHEETS]} == values, option
    deals = [deal for sheet in sheets[:VALID_SHEETS] for deal in sheet["deals"]]
    games = {deal.get("game", "penalty") for deal in deals}
    assert games == {"lielais", "zole", "maza_zole", "pass", "galdins", "penalty"}
    assert any("draw_loser" in deal for deal in deals)

    phone.goto(f"{live_server.url}{TWIN}")
    answers = json.loads(phone.evaluate(SCORE_ALL, [f"{live_server.url}{TWIN}", json.dumps(texts)]))

    for number, (text, want, got) in enumerate(zip(texts, expected, answers, strict=True)):
        assert got == want, f"sheet {number}: {text}\nengine: {want}\ntwin:   {got}"
