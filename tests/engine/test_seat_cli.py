"""The command line contract of `python -m engine seat [FILE|-]` (README, "The engine's command
line")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]


def seat(payload: object, *args: str) -> subprocess.CompletedProcess[bytes]:
    raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return subprocess.run(
        [sys.executable, "-m", "engine", "seat", *args],
        cwd=REPO_ROOT,
        input=raw,
        capture_output=True,
        timeout=120,
        check=False,
    )


def request(count: int, **options: object) -> dict[str, object]:
    return {"players": [{"id": f"p{number}"} for number in range(1, count + 1)], **options}


def test_a_full_request_gives_the_rounds_and_warnings():
    payload = {
        "mode": "mix",
        "seed": 7,
        "avoid_same_club": True,
        "rounds": 2,
        "players": [
            {"id": "p1", "club": "Rīga", "score": 12.5, "fixed_table": None},
            {"id": "p2", "club": "Rīga", "score": 3, "fixed_table": 2},
            *({"id": f"p{number}"} for number in range(3, 11)),
        ],
        "history": [[["p1", "p2", "p3"], ["p4", "p5", "p6", "p7"], ["p8", "p9", "p10"]]],
    }
    completed = seat(payload)
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == b""
    result = json.loads(completed.stdout)
    assert set(result) == {"rounds", "warnings"}
    assert len(result["rounds"]) == 2
    for tables in result["rounds"]:
        seated = sorted(player for table in tables for player in table)
        assert seated == sorted(f"p{number}" for number in range(1, 11))
        assert sorted(len(table) for table in tables) == [3, 3, 4]
        assert "p2" in tables[1]
    assert all(isinstance(warning, str) for warning in result["warnings"])


def test_optional_keys_default_to_one_random_round():
    completed = seat(request(7))
    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout)
    assert [len(table) for table in result["rounds"][0]] == [4, 3]
    assert result["warnings"] == []
    assert seat(request(7, seed=0, mode="random")).stdout == completed.stdout


def test_ranked_at_tables_of_4_cuts_the_standings_in_table_number_order():
    payload = {
        "mode": "ranked",
        "seed": 7,
        "table_size": 4,
        "players": [{"id": f"p{n}", "score": 30 - n} for n in range(1, 12)],
        "history": [[["p1", "p2", "p3", "p4"], ["p5", "p6", "p7", "p8"], ["p9", "p10", "p11"]]],
    }
    completed = seat(payload)
    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout)
    (tables,) = result["rounds"]
    assert [sorted(table, key=lambda p: int(p[1:])) for table in tables] == [
        ["p1", "p2", "p3", "p4"],
        ["p5", "p6", "p7", "p8"],
        ["p9", "p10", "p11"],
    ]
    # The rule repairs nothing: each pair meets again, and each repeat is warned about.
    assert len(result["warnings"]) == 6 + 6 + 3
    assert all("meet again" in warning for warning in result["warnings"])


@pytest.mark.parametrize("mode", ["random", "swiss", "mix"])
def test_every_mode_seats_tables_of_4_with_the_tables_of_3_listed_last(mode):
    completed = seat(request(14, mode=mode, table_size=4, seed=3))
    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout)
    (tables,) = result["rounds"]
    assert sorted(player for table in tables for player in table) == sorted(
        f"p{number}" for number in range(1, 15)
    )
    if mode == "swiss":  # numbered from the top of the standings: sizes in any order
        assert sorted(len(table) for table in tables) == [3, 3, 4, 4]
    else:
        assert [len(table) for table in tables] == [4, 4, 3, 3]
    assert result["warnings"] == []


def test_latvian_letters_stay_letters_in_the_output(tmp_path):
    names = ["Jānis", "Pēteris", "Ģirts", "Ņikita", "Žanis", "Čaklais"]
    payload = {"players": [{"id": name, "club": "Rīga"} for name in names], "avoid_same_club": True}
    path = tmp_path / "sēdvietas.json"
    path.write_text(json.dumps(payload, ensure_ascii=False), encoding="utf-8")
    completed = seat(b"", str(path))
    assert completed.returncode == 0, completed.stderr
    text = completed.stdout.decode("utf-8")
    for name in names:
        assert name in text
    assert "\\u" not in text
    assert "same club: Rīga" in text


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (request(5), "players: 5 players cannot be seated at tables of 3 and 4"),
        (request(2), "players: too few players to seat (2): a table needs 3 or 4 players"),
        ({**request(6), "colour": "red"}, 'unknown field "colour"'),
        (
            {"players": [{"id": "p1", "klubs": "Rīga"}]},
            'players: entry 1: unknown field "klubs"',
        ),
        ({"mode": "mix"}, "players is missing"),
        ({"players": [{"club": "Rīga"}]}, "players: entry 1: id is missing"),
        (request(6, mode="swiss", rounds=3), "rounds: only mode mix plans more than one round"),
        (request(6, mode="best"), 'mode must be one of random, swiss, mix, ranked, got "best"'),
        (request(8, table_size=5), "table_size must be 3 or 4, got 5"),
        (request(8, table_size="4"), 'table_size must be 3 or 4, got "4"'),
        (request(8, table_size=None), "table_size must be 3 or 4, got null"),
        (request(5, table_size=4), "players: 5 players cannot be seated at tables of 3 and 4"),
        (
            {"players": [{"id": f"p{n}", "fixed_table": 9 if n == 1 else None} for n in range(6)]},
            'players: "p1" has fixed_table 9, but the tables are numbered 1-2',
        ),
        (request(6, history=[[["p1", "p2", "p1"]]]), 'history: round 1 seats "p1" twice'),
        (b"{not json", "not valid JSON"),
        (b"[1, 2]", "the input must be a JSON object"),
    ],
)
def test_bad_input_exits_2_with_one_line_on_stderr_and_nothing_on_stdout(payload, message):
    completed = seat(payload)
    assert completed.returncode == 2
    assert completed.stdout == b""
    lines = completed.stderr.decode("utf-8").splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(message)


def test_a_missing_file_is_refused_with_status_2():
    completed = seat(b"", "no/such/file.json")
    assert completed.returncode == 2
    assert completed.stdout == b""
    assert completed.stderr.decode().startswith("cannot read no/such/file.json")
