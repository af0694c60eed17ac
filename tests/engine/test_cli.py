"""The command line `python -m engine score` and its JSON contract (README, "The engine's command
line")."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.json_contract import sheet_from_json, sheet_to_json

REPO_ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ["Anna", "Jānis", "Pēteris"]

# The README's example sheet (with pules), the same deals with a galdiņš where everyone passes, and
# a sheet mixing "pass" and "galdins" (which one rule set cannot both allow) that plays mazā zole
# while it is off (its default).
EXAMPLE_PLAYS = [
    {"game": "lielais", "declarer": "Jānis", "points": 75, "tricks": 5},
    {"game": "zole", "declarer": "Pēteris", "points": 40, "tricks": 3},
    {"game": "maza_zole", "declarer": "Anna", "tricks": 0},
]
EXAMPLE_GALDINS = {
    "game": "galdins",
    "tricks": {"Anna": 4, "Jānis": 2, "Pēteris": 2},
    "points": {"Anna": 60, "Jānis": 30, "Pēteris": 30},
}
EXAMPLE_PENALTY = {"penalty": "personal_pule", "player": "Anna"}


def readme_sheet() -> dict[str, Any]:
    return {
        "rules": {"all_pass": "pule", "small_zole": True, "personal_pule_payment": "N-1"},
        "players": PLAYERS,
        "first_dealer": "Anna",
        "deals": [*EXAMPLE_PLAYS, {"game": "pass"}, EXAMPLE_PENALTY],
        "closed": True,
    }


def readme_sheet_with_galdins() -> dict[str, Any]:
    return {
        "rules": {"all_pass": "galdins", "small_zole": True},
        "players": PLAYERS,
        "first_dealer": "Anna",
        "deals": [*EXAMPLE_PLAYS, EXAMPLE_GALDINS],
    }


def sheet_mixing_pass_and_galdins() -> dict[str, Any]:
    return {
        "rules": {"all_pass": "pule", "small_zole": False, "personal_pule_payment": "N-1"},
        "players": PLAYERS,
        "first_dealer": "Anna",
        "deals": [*EXAMPLE_PLAYS, {"game": "pass"}, EXAMPLE_GALDINS, EXAMPLE_PENALTY],
        "closed": True,
    }


def lielais_sheet(points: int = 75, tricks: int = 5) -> dict[str, Any]:
    return {
        "players": PLAYERS,
        "deals": [{"game": "lielais", "declarer": "Jānis", "points": points, "tricks": tricks}],
    }


def run_cli(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "score", *args],
        input=stdin,
        capture_output=True,
        cwd=REPO_ROOT,
        timeout=60,
        check=False,
    )


def run_main(
    monkeypatch: pytest.MonkeyPatch,
    capsysbinary: pytest.CaptureFixture[bytes],
    *args: str,
    stdin=b"",
) -> tuple[int, bytes, bytes]:
    """`engine.cli.main` in-process: exit status, stdout and stderr bytes."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    status = main(["score", *args])
    captured = capsysbinary.readouterr()
    return status, captured.out, captured.err


def encoded(sheet: object) -> bytes:
    return json.dumps(sheet, ensure_ascii=False).encode()


# --- Reading the sheet: a file, "-", or nothing ------------------------------------------------


def test_score_reads_the_sheet_from_a_file_argument(tmp_path):
    sheet_file = tmp_path / "galds-1.json"
    sheet_file.write_bytes(encoded(lielais_sheet()))

    done = run_cli(str(sheet_file))

    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    assert json.loads(done.stdout)["totals"] == {"Anna": -1, "Jānis": 2, "Pēteris": -1}


@pytest.mark.parametrize("args", [("-",), ()], ids=["dash", "no-argument"])
def test_score_reads_the_sheet_from_stdin_given_a_dash_or_no_argument(args):
    done = run_cli(*args, stdin=encoded(lielais_sheet()))

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["totals"] == {"Anna": -1, "Jānis": 2, "Pēteris": -1}


def test_the_result_is_one_json_line_on_stdout():
    done = run_cli(stdin=encoded(lielais_sheet()))

    assert done.stdout.endswith(b"\n")
    assert done.stdout.count(b"\n") == 1


# --- The result's shape ------------------------------------------------------------------------


def test_the_result_has_exactly_the_shape_the_readme_gives(monkeypatch, capsysbinary):
    sheet = readme_sheet()
    seats = ["Pēteris", "Anna", "Jānis"]  # not alphabetical: rows follow the seats
    sheet["players"] = seats

    status, out, _ = run_main(monkeypatch, capsysbinary, stdin=encoded(sheet))
    result = json.loads(out)

    assert status == 0
    assert set(result) == {"players", "deals", "settlement", "totals", "open_pules"}
    assert result["players"] == seats
    assert len(result["deals"]) == len(sheet["deals"])
    for deal in result["deals"]:
        assert set(deal) == {"dealer", "scores"}
        assert deal["dealer"] is None or deal["dealer"] in seats
        assert list(deal["scores"]) == seats
        assert all(type(score) is int for score in deal["scores"].values())
    for row in (result["settlement"], result["totals"], result["open_pules"]["personal"]):
        assert list(row) == seats
        assert all(type(value) is int for value in row.values())
    assert set(result["open_pules"]) == {"common", "personal"}
    assert type(result["open_pules"]["common"]) is int


def test_a_penalty_has_a_null_dealer_and_zero_scores_in_the_result(monkeypatch, capsysbinary):
    _, out, _ = run_main(monkeypatch, capsysbinary, stdin=encoded(readme_sheet()))

    penalty = json.loads(out)["deals"][-1]
    assert penalty == {"dealer": None, "scores": {"Anna": 0, "Jānis": 0, "Pēteris": 0}}
    assert b'"dealer": null' in out


def test_latvian_letters_are_printed_as_letters_not_escapes():
    done = run_cli(stdin=encoded(lielais_sheet()))

    assert "Jānis".encode() in done.stdout
    assert "Pēteris".encode() in done.stdout
    assert b"\\u" not in done.stdout


def test_a_sheet_in_utf8_with_a_byte_order_mark_is_read(monkeypatch, capsysbinary):
    status, out, _ = run_main(
        monkeypatch, capsysbinary, stdin=b"\xef\xbb\xbf" + encoded(lielais_sheet())
    )

    assert status == 0
    assert json.loads(out)["totals"]["Jānis"] == 2


# --- Bad input: exit status 2, nothing on stdout, one line naming the deal and field -----------


def test_a_bad_seventh_deal_is_refused_naming_deal_7_and_its_points():
    sheet = lielais_sheet()
    sheet["deals"] = [{"game": "zole", "declarer": "Anna", "points": 70, "tricks": 5}] * 6 + [
        {"game": "lielais", "declarer": "Anna", "points": 130, "tricks": 5}
    ]

    done = run_cli(stdin=encoded(sheet))

    assert done.returncode == 2
    assert done.stdout == b""
    assert done.stderr == b"deal 7: points must be 0-120, got 130\n"


def test_a_refused_deal_is_numbered_by_its_place_in_the_deals_list(monkeypatch, capsysbinary):
    # A penalty is an element of "deals" too, so the message points at the element to fix.
    sheet = lielais_sheet()
    sheet["deals"] = [
        {"penalty": "personal_pule", "player": "Anna"},
        {"game": "lielais", "declarer": "Jānis", "points": 119, "tricks": 7},
    ]

    status, out, err = run_main(monkeypatch, capsysbinary, stdin=encoded(sheet))

    assert status == 2
    assert out == b""
    assert err.decode().startswith("deal 2: points cannot be 119")


def test_a_sheet_mixing_pass_and_galdins_is_refused_at_its_first_game_the_rules_turn_off():
    done = run_cli(stdin=encoded(sheet_mixing_pass_and_galdins()))

    assert done.returncode == 2
    assert done.stdout == b""
    assert done.stderr.decode() == "deal 3: maza_zole is not played under this table's rules\n"


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        (encoded(lielais_sheet())[:-1], "not valid JSON"),
        (b"", "not valid JSON"),
        (encoded(PLAYERS), "must be a JSON object"),
        (b'"a sheet"', "must be a JSON object"),
        (encoded({"players": ["Anna", "Jānis"]}), "3 or 4 players, got 2"),
        (encoded({"players": ["A", "B", "C", "D", "E"]}), "3 or 4 players, got 5"),
        (encoded({"deals": []}), "players is missing"),
        (b"\xff\xfe not utf-8", "not UTF-8"),
    ],
    ids=[
        "invalid-json",
        "empty-input",
        "a-list",
        "a-string",
        "two-players",
        "five-players",
        "no-players",
        "not-utf8",
    ],
)
def test_bad_input_exits_2_with_one_clear_line_and_nothing_on_stdout(
    monkeypatch, capsysbinary, raw, says
):
    status, out, err = run_main(monkeypatch, capsysbinary, stdin=raw)

    assert status == 2
    assert out == b""
    message = err.decode()
    assert message.endswith("\n")
    assert message.count("\n") == 1
    assert says in message


def test_a_missing_file_exits_2_naming_the_file(tmp_path):
    missing = tmp_path / "no-such-sheet.json"

    done = run_cli(str(missing))

    assert done.returncode == 2
    assert done.stdout == b""
    message = done.stderr.decode()
    assert message.count("\n") == 1
    assert message.startswith(f"cannot read {missing}")


def test_invalid_json_exits_2_with_one_line_from_a_subprocess():
    done = run_cli(stdin=b"{not json")

    assert done.returncode == 2
    assert done.stdout == b""
    assert done.stderr.decode().startswith("not valid JSON")
    assert done.stderr.count(b"\n") == 1


# --- --jsonl: one result line per sheet line -----------------------------------------------------


def jsonl_input() -> tuple[bytes, list[str]]:
    good = lielais_sheet()
    bad = lielais_sheet(points=130)
    other_good = readme_sheet_with_galdins()
    lines = [encoded(good), encoded(bad), b"", b"{oops", b"   ", encoded(other_good)]
    return b"\n".join(lines) + b"\n", ["good", "bad", "invalid", "good"]


def test_jsonl_answers_every_non_blank_line_in_order_and_good_sheets_still_score():
    raw, kinds = jsonl_input()

    done = run_cli("--jsonl", stdin=raw)

    assert done.returncode == 0
    lines = done.stdout.decode().splitlines()
    assert len(lines) == len(kinds)
    results = [json.loads(line) for line in lines]
    assert results[0]["totals"] == {"Anna": -1, "Jānis": 2, "Pēteris": -1}
    assert results[1] == {"error": "deal 1: points must be 0-120, got 130"}
    assert set(results[2]) == {"error"}
    assert results[2]["error"].startswith("not valid JSON")
    assert results[3]["totals"] == {"Anna": 13, "Jānis": 4, "Pēteris": -17}


def test_jsonl_results_equal_the_single_sheet_results(monkeypatch, capsysbinary, tmp_path):
    raw, _ = jsonl_input()
    sheet_file = tmp_path / "sheets.jsonl"
    sheet_file.write_bytes(raw)

    status, out, _ = run_main(monkeypatch, capsysbinary, str(sheet_file), "--jsonl")
    jsonl_results = out.decode().splitlines()
    _, single_good, _ = run_main(monkeypatch, capsysbinary, stdin=encoded(lielais_sheet()))

    assert status == 0
    assert jsonl_results[0] == single_good.decode().rstrip("\n")


def test_jsonl_error_lines_keep_latvian_letters(monkeypatch, capsysbinary):
    sheet = lielais_sheet()
    sheet["deals"] = [{"game": "lielais", "declarer": "Žanis", "points": 70, "tricks": 5}]

    status, out, _ = run_main(monkeypatch, capsysbinary, "--jsonl", stdin=encoded(sheet))

    assert status == 0
    assert "Žanis".encode() in out
    assert json.loads(out)["error"].startswith("deal 1: declarer")


# --- The README's example sheet, scored as docs/rules.md says -----------------------------------


def test_the_readme_example_scores_as_the_rules_say(monkeypatch, capsysbinary):
    status, out, _ = run_main(monkeypatch, capsysbinary, stdin=encoded(readme_sheet()))

    assert status == 0
    assert json.loads(out) == {
        "players": PLAYERS,
        "deals": [
            # Anna deals; Jānis wins Lielais with 75 (61-90): u = 1
            {"dealer": "Anna", "scores": {"Anna": -1, "Jānis": 2, "Pēteris": -1}},
            # Jānis deals; Pēteris loses zole with 40 (31-60): u = -6
            {"dealer": "Jānis", "scores": {"Anna": 6, "Jānis": 6, "Pēteris": -12}},
            # Pēteris deals; Anna wins mazā zole taking no trick: u = 6
            {"dealer": "Pēteris", "scores": {"Anna": 12, "Jānis": -6, "Pēteris": -6}},
            # Anna deals again; all pass: a common pule, no points
            {"dealer": "Anna", "scores": {"Anna": 0, "Jānis": 0, "Pēteris": 0}},
            # the referee gives Anna a personal pule: no deal, no points
            {"dealer": None, "scores": {"Anna": 0, "Jānis": 0, "Pēteris": 0}},
        ],
        # Anna's open personal pule costs her 1 to each of the two others; the common pule lapses
        "settlement": {"Anna": -2, "Jānis": 1, "Pēteris": 1},
        "totals": {"Anna": 15, "Jānis": 3, "Pēteris": -18},
        "open_pules": {"common": 1, "personal": {"Anna": 1, "Jānis": 0, "Pēteris": 0}},
    }


def test_the_readme_example_with_galdins_scores_as_the_rules_say(monkeypatch, capsysbinary):
    status, out, _ = run_main(monkeypatch, capsysbinary, stdin=encoded(readme_sheet_with_galdins()))

    assert status == 0
    result = json.loads(out)
    # Anna deals the 4th deal; everyone passes and galdiņš is played: Anna has the most tricks,
    # loses, and pays 2 to each other player.
    assert result["deals"][3] == {
        "dealer": "Anna",
        "scores": {"Anna": -4, "Jānis": 2, "Pēteris": 2},
    }
    assert result["settlement"] == {"Anna": 0, "Jānis": 0, "Pēteris": 0}
    assert result["totals"] == {"Anna": 13, "Jānis": 4, "Pēteris": -17}
    assert result["open_pules"] == {
        "common": 0,
        "personal": {"Anna": 0, "Jānis": 0, "Pēteris": 0},
    }


def test_an_open_sheet_is_printed_without_settlement(monkeypatch, capsysbinary):
    sheet = readme_sheet()
    sheet["closed"] = False

    _, out, _ = run_main(monkeypatch, capsysbinary, stdin=encoded(sheet))
    result = json.loads(out)

    assert result["settlement"] == {"Anna": 0, "Jānis": 0, "Pēteris": 0}
    assert result["totals"] == {"Anna": 17, "Jānis": 2, "Pēteris": -19}
    assert result["open_pules"]["personal"]["Anna"] == 1


def test_rules_and_first_dealer_default_as_the_readme_says(monkeypatch, capsysbinary):
    # No rules (pule, no mazā zole, N-1) and no first_dealer (the first player deals).
    sheet = {
        "players": PLAYERS,
        "deals": [
            {"game": "pass"},
            {"game": "lielais", "declarer": "Anna", "points": 40, "tricks": 3},
            {"game": "lielais", "declarer": "Jānis", "points": 95, "tricks": 6},
            {"game": "lielais", "declarer": "Jānis", "points": 70, "tricks": 5},
        ],
    }

    _, out, _ = run_main(monkeypatch, capsysbinary, stdin=encoded(sheet))
    result = json.loads(out)

    assert [deal["dealer"] for deal in result["deals"]] == ["Anna", "Jānis", "Pēteris", "Anna"]
    assert result["deals"][2]["scores"] == {"Anna": -3, "Jānis": 6, "Pēteris": -3}
    # Anna's personal pule (lost Lielais while the common pule was open) is the only one left:
    # Jānis collects it and Anna alone pays N-1 = 2.
    assert result["deals"][3]["scores"] == {"Anna": -3, "Jānis": 4, "Pēteris": -1}
    assert result["settlement"] == {"Anna": 0, "Jānis": 0, "Pēteris": 0}


# --- The rule-set options of the contract --------------------------------------------------------


def rondo_sheet(**rules: object) -> dict[str, Any]:
    """docs/rules.md example 7 (second half) and example 9 in the JSON: a rondo galdiņš whose tied
    losers draw a card, under galdins_pule, then a won Lielais that collects the pule."""
    return {
        "rules": {"all_pass": "galdins_pule", "galdins_scoring": "rondo", **rules},
        "players": ["A", "B", "C"],
        "deals": [
            {
                "game": "galdins",
                "tricks": {"A": 3, "B": 3, "C": 2},
                "points": {"A": 44, "B": 44, "C": 32},
                "draw_loser": "B",
            },
            {"game": "lielais", "declarer": "A", "points": 75, "tricks": 5},
        ],
    }


def test_the_new_rule_keys_and_draw_loser_are_read(monkeypatch, capsysbinary):
    status, out, err = run_main(monkeypatch, capsysbinary, stdin=encoded(rondo_sheet()))

    assert status == 0, err
    result = json.loads(out)
    assert result["deals"][0]["scores"] == {"A": 0, "B": -1, "C": 1}
    assert result["deals"][1]["scores"] == {"A": 4, "B": -2, "C": -2}  # collects the pule
    assert result["open_pules"]["common"] == 0


def test_every_rule_key_of_the_contract_is_accepted(monkeypatch, capsysbinary):
    sheet = {
        "rules": {
            "all_pass": "pule",
            "small_zole": True,
            "personal_pule_payment": "N",
            "four_table_pass_pules": 2,
            "galdins_scoring": "tricks",
            "small_zole_loss": 6,
        },
        "players": ["A", "B", "C", "D"],
        "first_dealer": "D",
        "deals": [{"game": "pass"}, {"game": "maza_zole", "declarer": "B", "tricks": 1}],
    }

    status, out, err = run_main(monkeypatch, capsysbinary, stdin=encoded(sheet))

    assert status == 0, err
    result = json.loads(out)
    assert result["deals"][1]["scores"] == {"A": 6, "B": -18, "C": 6, "D": 6}
    assert result["open_pules"]["common"] == 2


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"galdins_scoring": "x"}, 'rules.galdins_scoring must be "tricks" or "rondo", got "x"'),
        ({"four_table_pass_pules": 3}, "rules.four_table_pass_pules must be 1 or 2, got 3"),
        ({"four_table_pass_pules": "2"}, 'rules.four_table_pass_pules must be 1 or 2, got "2"'),
        ({"small_zole_loss": 5}, "rules.small_zole_loss must be 7 or 6, got 5"),
        (
            {"all_pass": "galdinš"},
            'rules.all_pass must be "pule", "galdins" or "galdins_pule", got "galdinš"',
        ),
        ({"rondo": True}, 'rules: unknown option "rondo"'),
    ],
)
def test_an_unknown_option_or_option_value_exits_2_naming_the_option(
    monkeypatch, capsysbinary, rules, message
):
    sheet = lielais_sheet()
    sheet["rules"] = rules

    status, out, err = run_main(monkeypatch, capsysbinary, stdin=encoded(sheet))

    assert status == 2
    assert out == b""
    assert err.decode() == message + "\n"


def test_a_pass_entry_is_refused_under_galdins_pule(monkeypatch, capsysbinary):
    sheet = rondo_sheet()
    sheet["deals"] = [{"game": "pass"}]

    status, out, err = run_main(monkeypatch, capsysbinary, stdin=encoded(sheet))

    assert (status, out) == (2, b"")
    assert err.decode() == "deal 1: pass is not played under this table's rules\n"


def test_a_draw_loser_the_galdins_does_not_need_exits_2(monkeypatch, capsysbinary):
    sheet = rondo_sheet(galdins_scoring="tricks")

    status, out, err = run_main(monkeypatch, capsysbinary, stdin=encoded(sheet))

    assert (status, out) == (2, b"")
    assert err.decode() == 'deal 1: draw_loser "B" is given, but this galdiņš needs no card draw\n'


def test_draw_loser_is_a_field_of_galdins_only(monkeypatch, capsysbinary):
    sheet = lielais_sheet()
    sheet["deals"][0]["draw_loser"] = "Anna"

    status, _, err = run_main(monkeypatch, capsysbinary, stdin=encoded(sheet))

    assert status == 2
    assert err.decode() == 'deal 1: unknown field "draw_loser"\n'


def test_a_sheet_with_every_option_and_a_draw_loser_survives_its_json_form():
    sheet = sheet_from_json(rondo_sheet(four_table_pass_pules=2, small_zole_loss=6))
    data = sheet_to_json(sheet)

    assert data["rules"] == {
        "all_pass": "galdins_pule",
        "small_zole": False,
        "personal_pule_payment": "N-1",
        "four_table_pass_pules": 2,
        "galdins_scoring": "rondo",
        "small_zole_loss": 6,
    }
    assert data["deals"][0]["draw_loser"] == "B"
    assert (
        "draw_loser" not in sheet_to_json(sheet_from_json(readme_sheet_with_galdins()))["deals"][3]
    )
    assert sheet_from_json(data) == sheet
    renamed = sheet_to_json(sheet, names={"A": "Anna", "B": "Jānis", "C": "Pēteris"})
    assert renamed["deals"][0]["draw_loser"] == "Jānis"
