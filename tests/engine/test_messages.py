"""Messages people see are translatable: every `SheetError` that reaches a page and every seating
flag carries a template with named placeholders and the params that fill it; the English text
(`message`, `detail`) is that template filled in, so the command line prints what it did."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import PlaceScheme, Rules, SheetError
from engine.deals import Galdins, Pass, PenaltyPule, Play, validate_entry
from engine.errors import gettext_noop
from engine.rules import Game
from engine.seating import SeatingPlayer, TableFlag, explain_table, flag_detail, seat_players
from engine.sheet import Sheet, score_sheet

ENGINE = Path(__file__).resolve().parents[2] / "engine"
# Files whose errors reach web pages: every SheetError there is raised from a template.
TRANSLATED_FILES = ("deals.py", "sheet.py", "rules.py", "standings.py")
# The seating modules whose refusals and flags are templates.
SEATING_TEMPLATE_FILES = ("seating/sizes.py", "seating/checks.py", "seating/flags.py")
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
ANY_PERCENT = re.compile(r"%(?!\(\w+\)s)")

FOUR = ("A", "B", "C", "D")


def placeholders(template: str) -> set[str]:
    return set(PLACEHOLDER.findall(template))


def assert_well_formed(error: SheetError) -> None:
    assert placeholders(error.template) == set(error.params), error.template
    assert error.template % error.params == error.message if error.params else True
    assert str(error).endswith(error.message)


def refused(entry, *, players=FOUR, dealer="A", rules=None) -> SheetError:
    with pytest.raises(SheetError) as caught:
        validate_entry(entry, players=players, dealer=dealer, rules=rules or Rules())
    return caught.value


# One bad entry for every refusal in engine/deals.py (at a 4-player table dealt by A).
GALDINS_RULES = Rules(all_pass="galdins")
RONDO_RULES = Rules(all_pass="galdins_pule", galdins_scoring="rondo")
SMALL_ZOLE = Rules(small_zole=True)
BAD_ENTRIES = {
    "declarer not at the table": (Play(Game.LIELAIS, "Z", tricks=5, points=70), None),
    "declarer sits out": (Play(Game.LIELAIS, "A", tricks=5, points=70), None),
    "tricks not a number": (Play(Game.LIELAIS, "B", tricks="5", points=70), None),
    "tricks out of range": (Play(Game.LIELAIS, "B", tricks=9, points=70), None),
    "points not a number": (Play(Game.ZOLE, "B", tricks=5, points=None), None),
    "points out of range": (Play(Game.LIELAIS, "B", tricks=5, points=130), None),
    "points impossible": (Play(Game.LIELAIS, "B", tricks=5, points=119), None),
    "points a text": (Play(Game.LIELAIS, "B", tricks=5, points="x"), None),
    "mazā zole with points and no trick": (
        Play(Game.MAZA_ZOLE, "B", tricks=0, points=10),
        SMALL_ZOLE,
    ),
    "mazā zole not played": (Play(Game.MAZA_ZOLE, "B", tricks=0), None),
    "lielais all tricks": (Play(Game.LIELAIS, "B", tricks=8, points=100), None),
    "lielais no trick": (Play(Game.LIELAIS, "B", tricks=0, points=30), None),
    "zole no trick": (Play(Game.ZOLE, "B", tricks=0, points=10), None),
    "zole all tricks": (Play(Game.ZOLE, "B", tricks=8, points=90), None),
    "pass not played": (Pass(), GALDINS_RULES),
    "galdiņš not played": (Galdins(tricks={}, points={}), None),
    "galdiņš tricks not a mapping": (Galdins(tricks=[3, 3, 2], points={}), GALDINS_RULES),
    "galdiņš points not a mapping": (
        Galdins(tricks={"B": 3, "C": 3, "D": 2}, points=7),
        GALDINS_RULES,
    ),
    "galdiņš player not at the table": (
        Galdins(tricks={"B": 3, "C": 3, "Z": 2}, points={}),
        GALDINS_RULES,
    ),
    "galdiņš dealer plays": (
        Galdins(tricks={"A": 2, "B": 3, "C": 3}, points={}),
        GALDINS_RULES,
    ),
    "galdiņš tricks missing": (Galdins(tricks={"B": 3, "C": 5}, points={}), GALDINS_RULES),
    "galdiņš tricks of a player": (
        Galdins(tricks={"B": 3, "C": 3, "D": -2}, points={}),
        GALDINS_RULES,
    ),
    "galdiņš points of a player": (
        Galdins(tricks={"B": 3, "C": 3, "D": 2}, points={"B": 1, "C": 3, "D": 2}),
        GALDINS_RULES,
    ),
    "galdiņš points missing": (
        Galdins(tricks={"B": 3, "C": 3, "D": 2}, points={"B": 1}),
        GALDINS_RULES,
    ),
    "galdiņš tricks sum": (
        Galdins(tricks={"B": 3, "C": 3, "D": 3}, points={"B": 40, "C": 40, "D": 40}),
        GALDINS_RULES,
    ),
    "galdiņš points sum": (
        Galdins(tricks={"B": 3, "C": 3, "D": 2}, points={"B": 60, "C": 60, "D": 60}),
        GALDINS_RULES,
    ),
    "galdiņš draw_loser missing": (
        Galdins(tricks={"B": 3, "C": 3, "D": 2}, points={"B": 44, "C": 44, "D": 32}),
        RONDO_RULES,
    ),
    "galdiņš draw_loser not tied": (
        Galdins(
            tricks={"B": 3, "C": 3, "D": 2}, points={"B": 44, "C": 44, "D": 32}, draw_loser="D"
        ),
        RONDO_RULES,
    ),
    "galdiņš draw_loser not needed": (
        Galdins(
            tricks={"B": 3, "C": 3, "D": 2}, points={"B": 50, "C": 50, "D": 20}, draw_loser="B"
        ),
        RONDO_RULES,
    ),
    "penalty without pules": (PenaltyPule("B"), GALDINS_RULES),
    "penalty for a stranger": (PenaltyPule("Z"), None),
    "unknown entry": ("lielais", None),
}


@pytest.mark.parametrize("case", BAD_ENTRIES)
def test_every_refusal_of_a_deal_is_its_template_filled_in(case):
    entry, rules = BAD_ENTRIES[case]
    error = refused(entry, rules=rules)
    assert error.template, case
    assert_well_formed(error)


def test_the_refusals_of_deals_use_distinct_templates():
    templates = [refused(entry, rules=rules).template for entry, rules in BAD_ENTRIES.values()]
    assert len(set(templates)) >= len(templates) - 4  # a few refusals share one on purpose


def test_a_bad_game_is_refused_from_a_template():
    for game in ("bridge", Game.PASS):
        with pytest.raises(SheetError) as caught:
            Play(game, "B", tricks=5, points=70)
        assert_well_formed(caught.value)


def test_an_error_placed_at_a_deal_keeps_its_template_and_params():
    sheet = Sheet(FOUR, (Pass(), Play(Game.LIELAIS, "C", tricks=5, points=130)))
    with pytest.raises(SheetError) as caught:
        score_sheet(sheet)
    error = caught.value
    assert str(error) == "deal 2: points must be 0-120, got 130"
    assert error.template == "points must be %(low)s-%(high)s, got %(value)s"
    assert error.params == {"low": 0, "high": 120, "value": 130}
    assert (error.deal, error.field) == (2, "points")


def test_a_plain_message_without_params_still_works():
    error = SheetError("something is wrong with 100% of it", field="x")
    assert (error.template, error.params, error.message) == (
        "something is wrong with 100% of it",
        {},
        "something is wrong with 100% of it",
    )
    assert str(error.at_deal(3)) == "deal 3: something is wrong with 100% of it"
    assert gettext_noop("as is") == "as is"


@pytest.mark.parametrize(
    "make",
    [
        lambda: Sheet(("A", "B")),
        lambda: Sheet(("A", "B", " ")),
        lambda: Sheet(("A", "B", "A")),
        lambda: Sheet(FOUR, first_dealer="Z"),
        lambda: Rules(all_pass="nobody"),
        lambda: Rules(personal_pule_payment="N+1"),
        lambda: Rules(small_zole="yes"),
        lambda: Rules(four_table_pass_pules=3),
        lambda: Rules(galdins_scoring="x"),
        lambda: Rules(small_zole_loss=5),
        lambda: score_sheet(Sheet(FOUR, (PenaltyPule("B"),) * 4)),
        lambda: PlaceScheme(three=(6, 4), four=(6, 4, 2, 0)),
        lambda: PlaceScheme(three=(2, 4, 6)),
        lambda: PlaceScheme.from_text("6,4,2", "6;4;2;0"),
        lambda: PlaceScheme().for_table(5),
        lambda: seat_players([SeatingPlayer(id=f"p{n}") for n in range(2)]),
        lambda: seat_players([SeatingPlayer(id=f"p{n}") for n in range(5)]),
        lambda: seat_players([SeatingPlayer(id=f"p{n}", fixed_table=3) for n in range(6)]),
        lambda: seat_players([SeatingPlayer(id=f"p{n}", fixed_table=1) for n in range(10)]),
        lambda: seat_players(
            [SeatingPlayer(id=f"p{n}", fixed_table=2 if n < 4 else None) for n in range(9)]
        ),
        lambda: seat_players(
            [
                SeatingPlayer(id=f"p{n}", fixed_table=1 + n // 4 if n < 8 else None)
                for n in range(10)
            ]
        ),
    ],
)
def test_errors_shown_on_organiser_and_referee_pages_are_templates(make):
    with pytest.raises(SheetError) as caught:
        make()
    assert caught.value.params or "%" not in caught.value.template
    assert_well_formed(caught.value)


def test_the_place_points_errors_say_which_table_size():
    with pytest.raises(SheetError) as caught:
        PlaceScheme.from_text("6,4,2", "6;4;2;0")
    assert caught.value.params["size"] == 4


def gettext_noop_literals(path: Path) -> list[ast.expr]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.args[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "gettext_noop"
    ]


@pytest.mark.parametrize("name", [*TRANSLATED_FILES, *SEATING_TEMPLATE_FILES])
def test_marked_templates_are_literals_with_named_placeholders_only(name):
    literals = gettext_noop_literals(ENGINE / name)
    assert literals
    for literal in literals:
        # xgettext extracts only a literal (adjacent literals are one), never an f-string.
        assert isinstance(literal, ast.Constant) and isinstance(literal.value, str), name
        rest = PLACEHOLDER.sub("", literal.value)
        assert not ANY_PERCENT.search(rest), f"{name}: {literal.value!r}"


@pytest.mark.parametrize("name", TRANSLATED_FILES)
def test_no_error_shown_on_pages_is_built_with_an_f_string(name):
    tree = ast.parse((ENGINE / name).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "SheetError"
        ):
            message = node.args[0]
            assert not isinstance(message, ast.JoinedStr), f"{name}, line {node.lineno}"
            assert not (isinstance(message, ast.Constant) and "%" in message.value), node.lineno


@given(
    game=st.sampled_from([Game.LIELAIS, Game.ZOLE, Game.MAZA_ZOLE]),
    declarer=st.sampled_from([*FOUR, "Z", ""]),
    tricks=st.one_of(st.integers(-3, 12), st.text(max_size=2), st.none()),
    points=st.one_of(st.integers(-5, 130), st.text(max_size=2), st.none(), st.booleans()),
    small_zole=st.booleans(),
)
def test_any_refusal_of_a_played_game_is_its_template_filled_in(
    game, declarer, tricks, points, small_zole
):
    try:
        validate_entry(
            Play(game, declarer, tricks=tricks, points=points),
            players=FOUR,
            dealer="A",
            rules=Rules(small_zole=small_zole),
        )
    except SheetError as error:
        assert error.template
        assert_well_formed(error)


@given(
    tricks=st.dictionaries(st.sampled_from([*FOUR, "Z"]), st.integers(-1, 9), max_size=4),
    points=st.dictionaries(st.sampled_from([*FOUR, "Z"]), st.integers(-1, 121), max_size=4),
)
def test_any_refusal_of_a_galdins_is_its_template_filled_in(tricks, points):
    try:
        validate_entry(
            Galdins(tricks=tricks, points=points), players=FOUR, dealer="A", rules=GALDINS_RULES
        )
    except SheetError as error:
        assert_well_formed(error)


def test_every_flag_is_its_template_filled_in():
    flags = explain_table(
        ["p1", "p2", "p5", "p9"],
        number=2,
        history=[
            [["p1", "p2", "p3", "p9"], ["p4", "p5", "p6"]],
            [["p1", "p2", "p4"], ["p3", "p5", "p6", "p7"]],
        ],
        clubs={"p1": "Rīga", "p9": "Rīga", "p2": "Ogre"},
        fixed_tables={"p5": 2, "p2": 1},
        avoid_same_club=True,
        names={"p1": "Anna"},
    )
    assert {flag.code for flag in flags} == {
        "repeat_meeting",
        "same_club",
        "fixed_table",
        "four_table",
    }
    for flag in flags:
        assert flag.template
        assert placeholders(flag.template) == set(flag.params)
        assert flag_detail(flag.template, flag.params) == flag.detail
    repeat = next(flag for flag in flags if flag.code == "repeat_meeting")
    four = next(flag for flag in flags if flag.code == "four_table")
    assert repeat.params == {"first": "Anna", "second": "p2", "count": 3}
    assert four.params["turns"] == [
        {
            "template": "turn %(turn)s for %(players)s",
            "params": {"turn": 2, "players": "Anna, p2, p5, p9"},
        }
    ]
    assert four.detail == "table of 4: turn 2 for Anna, p2, p5, p9"
    # A flag compares by code and detail, as stored rows (without a template) do.
    assert TableFlag("same_club", "same club: Rīga (Anna, p9)") in flags
