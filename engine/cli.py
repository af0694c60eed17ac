"""The engine's command line, JSON in, JSON out:

- `python -m engine score [FILE|-] [--jsonl]`: score a table sheet;
- `python -m engine places [FILE|-]`: one table's places and place points from its results;
- `python -m engine seat [FILE|-]`: seat the players of the next round(s) (engine.seating);
- `python -m engine prizes [FILE|-]`: split a prize fund by the final places (engine.prizes)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, BinaryIO

from engine.errors import SheetError
from engine.json_contract import places_json, score_json
from engine.prizes import prize_json
from engine.seating import seat_json

EXIT_BAD_INPUT = 2


def _dump(value: object) -> bytes:
    """One line of UTF-8 JSON; Latvian letters stay letters: names are printed as people wrote
    them. Raises `SheetError` for text that UTF-8 cannot carry (a lone surrogate from a \\ud800
    escape in the input, echoed back as a name)."""
    try:
        return (json.dumps(value, ensure_ascii=False) + "\n").encode()
    except UnicodeEncodeError:
        raise SheetError(
            "not valid text: a \\ud800-\\udfff escape that is not half of a pair"
        ) from None


def _message(error: SheetError) -> bytes:
    """The one stderr line of a refusal; a message quoting a lone surrogate still prints."""
    return f"{error}\n".encode(errors="backslashreplace")


def _parse(text: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise SheetError(
            f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        ) from None
    except RecursionError:
        raise SheetError("not a sheet: the JSON is nested too deeply") from None
    except ValueError:  # Python refuses to read a whole number of more than 4300 digits
        raise SheetError("not a sheet: a number has too many digits") from None


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise SheetError(f"not UTF-8 text: byte {error.start} cannot be read") from None


def _answer_one(compute: Callable[[object], Any], raw: bytes, out: BinaryIO, err: BinaryIO) -> int:
    """One request in, one JSON line out; bad input: status 2, one line on stderr and nothing on
    stdout."""
    try:
        line = _dump(compute(_parse(_decode(raw))))
    except SheetError as error:
        err.write(_message(error))
        return EXIT_BAD_INPUT
    out.write(line)
    return 0


def score_one(raw: bytes, out: BinaryIO, err: BinaryIO) -> int:
    return _answer_one(score_json, raw, out, err)


def score_lines(raw: bytes, out: BinaryIO, err: BinaryIO) -> int:
    """One sheet per line, one result per line; a bad line answers {"error": ...} in its place.
    Blank lines are skipped."""
    bad = 0
    for line in raw.splitlines():
        if not line.strip():
            continue
        try:
            answer = _dump(score_json(_parse(_decode(line))))
        except SheetError as error:
            answer = _dump({"error": _message(error).decode().rstrip("\n")})
            bad += 1
        out.write(answer)
    if bad:
        err.write(f"{bad} sheet(s) refused, each answered with an error line\n".encode())
    return 0


def seat_one(raw: bytes, out: BinaryIO, err: BinaryIO) -> int:
    """One seating request in, the planned rounds and warnings out."""
    return _answer_one(seat_json, raw, out, err)


def places_one(raw: bytes, out: BinaryIO, err: BinaryIO) -> int:
    """One table's results in, its places and place points out."""
    return _answer_one(places_json, raw, out, err)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine", description="Zole scoring engine: JSON in, JSON out."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    score = commands.add_parser(
        "score",
        help="score a table sheet",
        description='Score a table sheet: {"rules": {...}, "players": [NAME, ...], '
        '"first_dealer": NAME, "deals": [...], "closed": true}. The rules keys, all optional: '
        'all_pass "pule" (default), "galdins" or "galdins_pule"; small_zole false (default) or '
        'true; personal_pule_payment "N-1" (default) or "N"; four_table_pass_pules 1 (default) '
        'or 2; galdins_scoring "tricks" (default) or "rondo"; small_zole_loss 7 (default) or 6. '
        'A rondo galdins deal carries "draw_loser": NAME when its two tied losers drew a card. '
        "README shows the sheet and the result; docs/rules.md the rules.",
    )
    score.add_argument("file", nargs="?", default="-", help="a sheet in JSON; - or none: stdin")
    score.add_argument(
        "--jsonl", action="store_true", help="one sheet per line, one result per line"
    )
    places = commands.add_parser(
        "places",
        help="one table's places and place points from its round results",
        description='One table\'s places and place points: {"results": {NAME: game points, ...}, '
        '"points": {"3": [6, 4, 2], "4": [6, 4, 2, 0]}, "shared": {"4": {"1-4": 2}}}; "points" '
        'and "shared" are optional (defaults shown; no shared values). Answers {"places": '
        '{NAME: "2-3", ...}, "place_points": {NAME: "5/2", ...}} with exact values.',
    )
    places.add_argument(
        "file", nargs="?", default="-", help="a table's results in JSON; - or none: stdin"
    )
    seat = commands.add_parser(
        "seat",
        help="seat the players of the next round(s): modes random, swiss, mix and ranked, "
        "tables of 3 or 4 (table_size)",
    )
    seat.add_argument(
        "file", nargs="?", default="-", help="a seating request in JSON; - or none: stdin"
    )
    prizes = commands.add_parser(
        "prizes",
        help="split a prize fund: costs, then places 1..N, tied players sharing",
        description='{"fund_cents": 30000, "costs_percent": "20", "shares": "40 25 15 10 5 5", '
        '"places": [[NAME, rank], ...]} in the standings order → {"costs_cents": ..., '
        '"prizes": {NAME: cents}, "unpaid_cents": ...}.',
    )
    prizes.add_argument("file", nargs="?", default="-", help="a prize request; - or none: stdin")
    args = parser.parse_args(argv)

    if args.file == "-":
        raw = sys.stdin.buffer.read()
    else:
        try:
            with open(args.file, "rb") as handle:
                raw = handle.read()
        except OSError as error:
            sys.stderr.write(f"cannot read {args.file}: {error.strerror}\n")
            return EXIT_BAD_INPUT
    if args.command == "seat":
        status = seat_one(raw, sys.stdout.buffer, sys.stderr.buffer)
    elif args.command == "prizes":
        status = _answer_one(prize_json, raw, sys.stdout.buffer, sys.stderr.buffer)
    elif args.command == "places":
        status = places_one(raw, sys.stdout.buffer, sys.stderr.buffer)
    else:
        score_input = score_lines if args.jsonl else score_one
        status = score_input(raw, sys.stdout.buffer, sys.stderr.buffer)
    sys.stdout.flush()
    return status
