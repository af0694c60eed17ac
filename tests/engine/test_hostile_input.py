"""Hostile input against the engine's command line: malformed JSON, deep nesting, huge numbers,
lone surrogates. Each exits with status 2 and one line on stderr."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Callable

import pytest
from django.conf import settings

from engine.cli import score_lines, score_one, seat_one
from engine.seating import seat_json
from tests.hostile import HUGE

SHEET = {"players": ["Anna", "Jānis", "Pēteris"]}


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


def with_deal(deal: str) -> bytes:
    return ('{"players": ["a", "b", "c"], "deals": [' + deal + "]}").encode()


BAD_SHEETS: dict[str, bytes] = {
    "empty": b"",
    "binary": bytes(range(256)),
    "not JSON": b"{players: [a]}",
    "truncated": b'{"players": ["a", "b", "c"], "deals": [{"game": "pass"}',
    "a list": b"[1, 2, 3]",
    "a string": b'"sheet"',
    "null": b"null",
    "deep nesting": deep(100_000).encode(),
    "deep but parsable": ('{"players": ' + deep(900) + "}").encode(),
    "deep in a deal": with_deal('{"game": ' + deep(900) + "}"),
    "a number of 5000 digits": with_deal(
        '{"game": "zole", "declarer": "a", "points": ' + "9" * 5000 + ', "tricks": 5}'
    ),
    "a huge number": with_deal(
        f'{{"game": "zole", "declarer": "a", "points": {HUGE}, "tricks": 5}}'
    ),
    "NaN": with_deal('{"game": "zole", "declarer": "a", "points": NaN, "tricks": 5}'),
    "Infinity": with_deal('{"game": "zole", "declarer": "a", "points": 60, "tricks": Infinity}'),
    "1e309": with_deal('{"game": "zole", "declarer": "a", "points": 1e309, "tricks": 5}'),
    "negative tricks": with_deal(
        '{"game": "lielais", "declarer": "a", "points": 60, "tricks": -1}'
    ),
    "a fraction": with_deal('{"game": "lielais", "declarer": "a", "points": 60.5, "tricks": 5}'),
    "true as tricks": with_deal(
        '{"game": "lielais", "declarer": "a", "points": 60, "tricks": true}'
    ),
    "an unknown player": with_deal(
        '{"game": "lielais", "declarer": "x", "points": 60, "tricks": 5}'
    ),
    "a list as player": with_deal('{"penalty": "personal_pule", "player": ["a"]}'),
    "a lone surrogate": b'{"players": ["a\\ud800", "b", "c"]}',
    "a lone surrogate in an error": with_deal('{"game": "\\udfff"}'),
    "players an object": b'{"players": {"a": 1}}',
    "unknown field": b'{"players": ["a", "b", "c"], "drop": "table"}',
    "rules wrong": b'{"players": ["a", "b", "c"], "rules": {"all_pass": ["pule"]}}',
}


def seating(players: str = '[{"id": "a"}, {"id": "b"}, {"id": "c"}]', **fields: str) -> bytes:
    """A seating request with these players and fields, both as raw JSON text."""
    extra = "".join(f', "{name}": {value}' for name, value in fields.items())
    return f'{{"players": {players}{extra}}}'.encode()


BAD_SEATINGS: dict[str, bytes] = {
    "empty": b"",
    "binary": bytes(range(256)),
    "deep nesting": deep(100_000).encode(),
    "deep history": seating(history=deep(900)),
    "a number of 5000 digits": seating(seed="9" * 5000),
    "NaN seed": seating(seed="NaN"),
    "huge rounds": seating(mode='"mix"', rounds=str(HUGE)),
    "rounds 1e309": seating(rounds="1e309"),
    "negative rounds": seating(rounds="-1"),
    "score Infinity": seating('[{"id": "a", "score": Infinity}, {"id": "b"}, {"id": "c"}]'),
    "id a list": seating('[{"id": ["a"]}, {"id": "b"}, {"id": "c"}]'),
    "a lone surrogate id": seating('[{"id": "\\ud800"}, {"id": "\\ud800"}, {"id": "c"}]'),
    "fixed table huge": seating(
        f'[{{"id": "a", "fixed_table": {HUGE}}}, {{"id": "b"}}, {{"id": "c"}}]'
    ),
    "two players": seating('[{"id": "a"}, {"id": "b"}]'),
}


def run_cli(command: Callable[..., int], raw: bytes) -> tuple[int, bytes, str]:
    out, err = io.BytesIO(), io.BytesIO()
    status = command(raw, out, err)
    return status, out.getvalue(), err.getvalue().decode("utf-8", errors="replace")


class TestEngineCommandLine:
    @pytest.mark.parametrize("name", BAD_SHEETS)
    def test_score_refuses_with_one_line(self, name):
        status, out, err = run_cli(score_one, BAD_SHEETS[name])
        assert (status, out) == (2, b""), name
        assert err.endswith("\n") and err.count("\n") == 1 and len(err) > 10, err

    @pytest.mark.parametrize("name", BAD_SHEETS)
    def test_score_jsonl_answers_an_error_line(self, name):
        raw = BAD_SHEETS[name].replace(b"\n", b" ") + b"\n" + json.dumps(SHEET).encode()
        status, out, _err = run_cli(score_lines, raw)
        assert status == 0
        lines = [json.loads(line) for line in out.decode().splitlines()]
        if BAD_SHEETS[name].strip():
            assert "error" in lines[0] and "totals" in lines[-1], name
        else:
            assert len(lines) == 1 and "totals" in lines[0]

    @pytest.mark.parametrize("name", BAD_SEATINGS)
    def test_seat_refuses_with_one_line(self, name):
        status, out, err = run_cli(seat_one, BAD_SEATINGS[name])
        assert (status, out) == (2, b""), name
        assert err.endswith("\n") and err.count("\n") == 1 and len(err) > 10, err

    def test_the_plan_of_a_mix_is_bounded(self):
        players = [{"id": f"p{n}"} for n in range(6)]
        with pytest.raises(ValueError, match="rounds"):
            seat_json({"players": players, "mode": "mix", "rounds": 10_000})

    @pytest.mark.parametrize(
        "command, raw",
        [
            (["score"], b"[" * 100_000),
            (["score"], with_deal('{"game": "zole", "points": ' + "9" * 5000 + "}")),
            (["score"], b'{"players": ["a\\ud800", "b", "c"]}'),
            (["score", "--jsonl"], b"\xff\xfe\n{}\n"),
            (["seat"], b'{"players": [{"id": "a"}], "mode": "mix", "rounds": 1e309}'),
        ],
    )
    def test_the_real_command_line(self, command, raw):
        finished = subprocess.run(
            [sys.executable, "-m", "engine", *command, "-"],
            input=raw,
            capture_output=True,
            cwd=settings.BASE_DIR,
            timeout=60,
        )
        stderr = finished.stderr.decode()
        assert "Traceback" not in stderr
        if "--jsonl" in command:
            assert finished.returncode == 0
            assert all("error" in json.loads(line) for line in finished.stdout.splitlines())
        else:
            assert finished.returncode == 2 and finished.stdout == b""
            assert stderr.count("\n") == 1, stderr
