"""The command line `python -m engine places [FILE|-]`: one table's places and place points."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main

REPO_ROOT = Path(__file__).resolve().parents[2]

README_REQUEST = {
    "points": {"3": [6, 4, 2], "4": [6, 4, 2, 0]},
    "shared": {"4": {"1-4": 2}},
    "results": {"Anna": 12, "Jānis": -3, "Pēteris": -3, "Līga": -6},
}


def encoded(request: object) -> bytes:
    return json.dumps(request, ensure_ascii=False).encode()


def run_main(
    monkeypatch: pytest.MonkeyPatch,
    capsysbinary: pytest.CaptureFixture[bytes],
    request: object,
    *args: str,
) -> tuple[int, bytes, bytes]:
    """`engine.cli.main` in-process: exit status, stdout and stderr bytes."""
    raw = request if isinstance(request, bytes) else encoded(request)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))
    status = main(["places", *args])
    captured = capsysbinary.readouterr()
    return status, captured.out, captured.err


def answer(monkeypatch, capsysbinary, request: object) -> dict[str, Any]:
    status, out, err = run_main(monkeypatch, capsysbinary, request)
    assert status == 0, err
    assert err == b""
    return json.loads(out)


def test_the_readme_request_gives_places_and_exact_place_points_as_text():
    done = subprocess.run(
        [sys.executable, "-m", "engine", "places"],
        input=encoded(README_REQUEST),
        capture_output=True,
        cwd=REPO_ROOT,
        timeout=60,
        check=False,
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout.count(b"\n") == 1
    assert json.loads(done.stdout) == {
        "places": {"Anna": "1", "Jānis": "2-3", "Pēteris": "2-3", "Līga": "4"},
        "place_points": {"Anna": "6", "Jānis": "3", "Pēteris": "3", "Līga": "0"},
    }
    assert "Jānis".encode() in done.stdout  # letters, not \\u escapes


def test_all_four_tied_get_the_shared_value(monkeypatch, capsysbinary):
    request = {**README_REQUEST, "results": dict.fromkeys("ABCD", 0)}

    result = answer(monkeypatch, capsysbinary, request)

    assert result["places"] == dict.fromkeys("ABCD", "1-4")
    assert result["place_points"] == dict.fromkeys("ABCD", "2")


def test_points_and_shared_default_to_6_4_2_and_6_4_2_0_and_the_means(monkeypatch, capsysbinary):
    three = answer(monkeypatch, capsysbinary, {"results": {"A": 5, "B": 5, "C": -10}})
    four = answer(monkeypatch, capsysbinary, {"results": dict.fromkeys("ABCD", 0)})

    assert three == {
        "places": {"A": "1-2", "B": "1-2", "C": "3"},
        "place_points": {"A": "5", "B": "5", "C": "2"},
    }
    assert four["place_points"] == dict.fromkeys("ABCD", "3")  # the mean, no shared value


def test_a_share_that_is_not_whole_is_written_as_a_fraction(monkeypatch, capsysbinary):
    request = {"points": {"4": [3, 2, 1, 1]}, "results": {"A": 9, "B": -3, "C": -3, "D": -3}}

    result = answer(monkeypatch, capsysbinary, request)

    assert result["place_points"] == {"A": "3", "B": "4/3", "C": "4/3", "D": "4/3"}
    assert result["places"] == {"A": "1", "B": "2-4", "C": "2-4", "D": "2-4"}


def test_the_file_argument_is_read(tmp_path, monkeypatch, capsysbinary):
    request_file = tmp_path / "galds-3.json"
    request_file.write_bytes(encoded(README_REQUEST))

    status, out, _ = run_main(monkeypatch, capsysbinary, b"", str(request_file))

    assert status == 0
    assert json.loads(out)["place_points"]["Anna"] == "6"


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        (b"{oops", "not valid JSON"),
        ([1, 2], "a places request must be a JSON object, got [1, 2]"),
        ({}, "results is missing"),
        ({"results": {"A": 1}, "extra": 1}, 'unknown field "extra"'),
        ({"results": {"A": 1, "B": 2}}, "results must be an object of 3 or 4 players' game points"),
        ({"results": [1, 2, 3]}, "results must be an object of 3 or 4 players' game points"),
        ({"results": {"A": 1, "B": 2.5, "C": 0}}, "results.B must be a whole number, got 2.5"),
        ({"results": {"A": 1, "B": True, "C": 0}}, "results.B must be a whole number, got true"),
        (
            {"results": {"A": 1, "B": 2, "C": 0}, "points": [6, 4, 2]},
            'points must be an object keyed by "3" and "4"',
        ),
        (
            {"results": {"A": 1, "B": 2, "C": 0}, "points": {"5": [1, 1, 1, 1, 1]}},
            'points: a table has 3 or 4 players ("3" or "4"), got "5"',
        ),
        (
            {"results": {"A": 1, "B": 2, "C": 0}, "points": {"3": "6,4,2"}},
            'points.3 must be a list of 3 whole numbers, got "6,4,2"',
        ),
        (
            {"results": {"A": 1, "B": 2, "C": 0}, "points": {"3": [6, 4]}},
            "place points for a table of 3 must be 3 whole numbers, got [6, 4]",
        ),
        (
            {"results": {"A": 1, "B": 2, "C": 0}, "shared": {"4": [2]}},
            'shared.4 must be an object like {"1-4": 2}, got [2]',
        ),
        (
            {"results": {"A": 1, "B": 2, "C": 0}, "shared": {"4": {"1to4": 2}}},
            'shared place points for a table of 4 must be written like 1-4=2, got "1to4"',
        ),
        (
            {"results": {"A": 1, "B": 2, "C": 0}, "shared": {"3": {"1-4": 2}}},
            "shared place points for a table of 3: places 1-4 must lie within 1-3",
        ),
        (
            {"results": {"A": 1, "B": 2, "C": 0}, "shared": {"4": {"1-4": 2.5}}},
            "shared place points for a table of 4: places 1-4 must get a whole number, got 2.5",
        ),
    ],
    ids=[
        "invalid JSON",
        "not an object",
        "no results",
        "unknown field",
        "two players",
        "results a list",
        "a fraction of a game point",
        "a boolean game point",
        "points a list",
        "points for a table of 5",
        "points as text",
        "too few points",
        "shared a list",
        "a span that is not one",
        "a span outside the table",
        "a shared value that is not whole",
    ],
)
def test_bad_input_exits_2_with_one_line_naming_the_field_and_nothing_on_stdout(
    monkeypatch, capsysbinary, request_, message
):
    status, out, err = run_main(monkeypatch, capsysbinary, request_)

    assert status == 2
    assert out == b""
    assert err.decode().count("\n") == 1
    assert message in err.decode()
