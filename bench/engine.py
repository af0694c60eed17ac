"""Benchmark of the pure-Python Zole scoring engine: deals scored per second on one core.

What it measures, over one seeded batch of random valid 24-deal sheets (3- and 4-player tables,
every rule set: pule or galdiņš when all pass, mazā zole on or off, personal pule paid N-1 or N;
players with Latvian letters in their names), built first and not timed:

1. floor: a plain loop that only adds up every deal's pre-computed score row (and the settlement)
   into running totals per sheet. The rows come from an untimed scoring run of the same deals.
2. API: ``engine.score_sheet(sheet)`` for every prebuilt ``Sheet``.
3. API from JSON dicts: ``engine.json_contract.score_json(data)`` for every sheet's parsed JSON
   dict, i.e. JSON shapes to dataclasses, validation, scoring and back to JSON shapes, without I/O.
4. ``--jsonl``: ``python -m engine score --jsonl FILE`` as a subprocess on the whole batch, stdout
   to a file, timed end to end; interpreter start-up is timed apart (the same command on an empty
   file) and subtracted for a second figure.

Each measurement times the whole batch with ``time.perf_counter`` and the best of ``--repeat``
runs is reported (the machines are noisy), as deals per second and as the ratio to the floor
(how many times slower than only adding the payouts up). Absolute figures do not compare across
runs or machines; the ratios are the figures to compare.

Outside the timed parts it checks that every scored sheet's totals sum to zero, that all four
paths agree on every sheet's totals, and that the ``--jsonl`` run answered one error-free line per
sheet; it exits with status 1 if any check fails. Missing the speed target does not fail it.

Everything is single-threaded: one core does the work (the subprocess runs while this process
waits).

Run from the repository root, after ``make install``::

    .venv/bin/python bench/engine.py                 # 5000 sheets, best of 3
    .venv/bin/python bench/engine.py --sheets 20000 --repeat 5 --seed 7
    .venv/bin/python bench/engine.py --quick --json  # a small batch; figures also as one JSON line
"""

from __future__ import annotations

import sys
from pathlib import Path

# This file is called engine.py: run as a script, its own directory comes first on sys.path and
# `import engine` would import this file. Put the repository root there instead.
BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != BENCH_DIR]
sys.path.insert(0, str(REPO_ROOT))

import argparse  # noqa: E402
import gc  # noqa: E402
import itertools  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from typing import Any, TypeVar  # noqa: E402

from engine.deals import PenaltyPule  # noqa: E402
from engine.json_contract import score_json, sheet_from_json, sheet_to_json  # noqa: E402
from engine.rules import (  # noqa: E402
    FOUR_TABLE_PASS_PULES,
    AllPass,
    GaldinsScoring,
    Game,
    PersonalPulePayment,
    Rules,
)
from engine.sheet import ScoredSheet, Sheet, score_sheet  # noqa: E402
from engine.simulate import random_sheet  # noqa: E402

DEFAULT_SHEETS = 5000
DEFAULT_REPEAT = 3
QUICK_SHEETS = 50
QUICK_REPEAT = 1
DEALS_PER_SHEET = 24
TARGET_DEALS_PER_SECOND = 100_000

# First names as a Latvian club would write them on the sheet.
PLAYER_NAMES = (
    "Anna",
    "Jānis",
    "Pēteris",
    "Ģirts",
    "Ņikita",
    "Līga",
    "Kārlis",
    "Žanis",
    "Ēriks",
    "Ilze",
    "Māra",
    "Česlavs",
    "Ķēniņš",
    "Ļena",
    "Uldis",
    "Šarlote",
)
T = TypeVar("T")

# Every everyone-passing rule with either galdiņš scoring, mazā zole on and off, each personal
# pule payment, and both four-table pass rules (the federation's presets among them).
RULE_SETS = tuple(
    Rules(
        all_pass=all_pass,
        galdins_scoring=scoring,
        small_zole=small_zole,
        personal_pule_payment=payment,
        four_table_pass_pules=pass_pules,
    )
    for all_pass, scoring, small_zole, payment, pass_pules in itertools.product(
        AllPass, GaldinsScoring, (False, True), PersonalPulePayment, FOUR_TABLE_PASS_PULES
    )
    if scoring is GaldinsScoring.TRICKS or all_pass is not AllPass.PULE
)


@dataclass(frozen=True, slots=True)
class Batch:
    sheets: tuple[Sheet, ...]
    sheet_dicts: tuple[dict[str, Any], ...]  # each sheet in the JSON contract, as parsed JSON
    jsonl: bytes  # the same sheets, one JSON line each
    deals: int  # entries that use a deal (penalties do not)
    entries: int
    four_player_tables: int
    galdins_tables: int
    penalties: int


@dataclass(frozen=True, slots=True)
class Measurement:
    name: str
    label: str
    deals: int
    seconds: float

    @property
    def deals_per_second(self) -> float:
        return self.deals / self.seconds if self.seconds > 0 else 0.0


class CheckFailed(Exception):
    """A scored result is wrong: the benchmark reports it and exits non-zero."""


# Building the batch (not timed)


def build_batch(sheet_count: int, seed: int) -> Batch:
    """`sheet_count` random valid sheets, the same ones for the same seed."""
    rng = random.Random(seed)
    sheets = []
    for _ in range(sheet_count):
        players = rng.sample(PLAYER_NAMES, rng.choice((3, 4)))
        first_dealer = rng.choice([None, *players])
        sheets.append(
            random_sheet(
                rng,
                players=players,
                deals=DEALS_PER_SHEET,
                rules=rng.choice(RULE_SETS),
                first_dealer=first_dealer,
            )
        )
    lines = [json.dumps(sheet_to_json(sheet), ensure_ascii=False) for sheet in sheets]
    # The dicts are parsed back from the text, as the command line would see them.
    sheet_dicts = tuple(json.loads(line) for line in lines)
    for sheet, data in zip(sheets, sheet_dicts, strict=True):
        if sheet_from_json(data) != sheet:
            raise CheckFailed("a sheet does not survive the trip through its JSON form")
    entries = sum(len(sheet.entries) for sheet in sheets)
    penalties = sum(isinstance(entry, PenaltyPule) for sheet in sheets for entry in sheet.entries)
    return Batch(
        sheets=tuple(sheets),
        sheet_dicts=sheet_dicts,
        jsonl=("\n".join(lines) + "\n").encode(),
        deals=entries - penalties,
        entries=entries,
        four_player_tables=sum(len(sheet.players) == 4 for sheet in sheets),
        galdins_tables=sum(sheet.rules.allows(Game.GALDINS) for sheet in sheets),
        penalties=penalties,
    )


def floor_rows(scored: Sequence[ScoredSheet]) -> list[tuple[int, list[tuple[int, ...]]]]:
    """Per sheet: its table size and every entry's score row, then the settlement row."""
    return [
        (
            len(sheet.players),
            [deal.score_row for deal in sheet.deals]
            + [tuple(sheet.settlement[name] for name in sheet.players)],
        )
        for sheet in scored
    ]


# The timed parts: each runs over the whole batch and returns what it computed.


def add_up(rows: Sequence[tuple[int, list[tuple[int, ...]]]]) -> list[list[int]]:
    """The floor: only add pre-computed payouts into running totals, as `score_sheet` does."""
    all_totals = []
    for size, sheet_rows in rows:
        totals = [0] * size
        for row in sheet_rows:
            for seat in range(size):
                totals[seat] += row[seat]
        all_totals.append(totals)
    return all_totals


def score_all(sheets: Sequence[Sheet]) -> list[ScoredSheet]:
    return [score_sheet(sheet) for sheet in sheets]


def score_all_json(sheet_dicts: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [score_json(data) for data in sheet_dicts]


def timed(work: Callable[[], T]) -> tuple[float, T]:
    gc.collect()  # start each run from the same heap; the collector stays on, as in real use
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def run_cli(jsonl_path: Path, out_path: Path) -> tuple[float, subprocess.CompletedProcess[bytes]]:
    """`python -m engine score --jsonl FILE`, stdout to `out_path`, timed end to end."""
    command = [sys.executable, "-m", "engine", "score", "--jsonl", str(jsonl_path)]
    with out_path.open("wb") as out:
        # cwd: `-m engine` must find the engine package, not this file.
        return timed(
            lambda: subprocess.run(
                command, stdout=out, stderr=subprocess.PIPE, cwd=REPO_ROOT, check=False
            )
        )


# Checks (not timed)


def check_scored(scored: Sequence[ScoredSheet], batch: Batch) -> list[list[int]]:
    """Every sheet sums to zero and uses its 24 deals; gives the totals in seat order."""
    if len(scored) != len(batch.sheets):
        raise CheckFailed(f"API: {len(scored)} results for {len(batch.sheets)} sheets")
    totals = []
    for number, result in enumerate(scored, start=1):
        if not result.zero_sum:
            raise CheckFailed(f"API: sheet {number}: totals {result.totals} do not sum to zero")
        if result.deals_played != DEALS_PER_SHEET:
            raise CheckFailed(f"API: sheet {number}: {result.deals_played} deals played")
        totals.append([result.totals[name] for name in result.players])
    return totals


def check_results(source: str, results: Sequence[object], expected: Sequence[list[int]]) -> None:
    """JSON results (from `score_json` or the command line): one per sheet, no error, totals sum
    to zero and equal the API's."""
    if len(results) != len(expected):
        raise CheckFailed(f"{source}: {len(results)} results for {len(expected)} sheets")
    for number, (result, api_totals) in enumerate(zip(results, expected, strict=True), start=1):
        if not isinstance(result, dict) or "error" in result:
            raise CheckFailed(f"{source}: sheet {number} answered {result!r}")
        totals = [result["totals"][name] for name in result["players"]]
        if sum(totals) != 0:
            raise CheckFailed(f"{source}: sheet {number}: totals {totals} do not sum to zero")
        if totals != api_totals:
            raise CheckFailed(f"{source}: sheet {number}: totals {totals}, API {api_totals}")


def check_cli(
    completed: subprocess.CompletedProcess[bytes], out_path: Path, expected: Sequence[list[int]]
) -> tuple[int, int]:
    """Checks a `--jsonl` run; gives the number of lines it printed and of error lines."""
    if completed.returncode != 0:
        raise CheckFailed(
            f"--jsonl: exit status {completed.returncode}: {completed.stderr.decode()!r}"
        )
    results = [json.loads(line) for line in out_path.read_bytes().decode().splitlines()]
    errors = sum(not isinstance(result, dict) or "error" in result for result in results)
    check_results("--jsonl", results, expected)
    return len(results), errors


# The run


def run(sheet_count: int, seed: int, repeat: int) -> dict[str, Any]:
    batch = build_batch(sheet_count, seed)
    print(
        f"Zole engine benchmark: {sheet_count:,} sheets, {batch.deals:,} deals "
        f"({batch.entries - batch.deals:,} penalty entries besides), seed {seed}, "
        f"best of {repeat}"
    )
    print(
        f"  tables: {sheet_count - batch.four_player_tables:,} of 3 and "
        f"{batch.four_player_tables:,} of 4 players; {batch.galdins_tables:,} play galdins "
        f"when all pass (some also write pules), the rest write pules"
    )
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(
        f"  {platform.python_implementation()} {platform.python_version()}, "
        f"single-threaded: runs on one core ({cores} available)"
    )

    # The floor's rows come from one untimed scoring run of the same deals.
    untimed = score_all(batch.sheets)
    expected_totals = check_scored(untimed, batch)
    rows = floor_rows(untimed)
    del untimed

    best: dict[str, float] = {}

    def keep(name: str, seconds: float) -> None:
        best[name] = min(seconds, best.get(name, seconds))

    with tempfile.TemporaryDirectory(prefix="zole-bench-") as temp:
        jsonl_path = Path(temp, "sheets.jsonl")
        empty_path = Path(temp, "empty.jsonl")
        out_path = Path(temp, "scored.jsonl")
        jsonl_path.write_bytes(batch.jsonl)
        empty_path.write_bytes(b"")

        # Rounds of every measurement in turn, so that a slow spell of the machine spreads over all.
        for _ in range(repeat):
            seconds, floor_totals = timed(lambda: add_up(rows))
            keep("floor", seconds)
            if floor_totals != expected_totals:
                raise CheckFailed("floor: the added-up payouts differ from the API's totals")

            seconds, scored = timed(lambda: score_all(batch.sheets))
            keep("api", seconds)
            check_scored(scored, batch)
            del scored

            seconds, results = timed(lambda: score_all_json(batch.sheet_dicts))
            keep("api_json", seconds)
            check_results("score_json", results, expected_totals)
            del results

            seconds, completed = run_cli(jsonl_path, out_path)
            keep("jsonl", seconds)
            jsonl_lines, jsonl_errors = check_cli(completed, out_path, expected_totals)

            seconds, completed = run_cli(empty_path, out_path)
            keep("startup", seconds)
            check_cli(completed, out_path, [])

    deals = batch.deals
    measurements = [
        Measurement("floor", "floor: add pre-computed payouts", deals, best["floor"]),
        Measurement("api", "API score_sheet(Sheet)", deals, best["api"]),
        Measurement("api_json", "API score_json(dict)", deals, best["api_json"]),
        Measurement("jsonl", "--jsonl subprocess, end to end", deals, best["jsonl"]),
    ]
    net_seconds = best["jsonl"] - best["startup"]
    net = Measurement("jsonl_net", "--jsonl minus start-up", deals, net_seconds)
    floor_seconds = best["floor"]

    def ratio(measurement: Measurement) -> float:
        return measurement.seconds / floor_seconds if floor_seconds > 0 else 0.0

    print()
    print(f"{'measurement':<34}{'deals':>9}{'seconds':>10}{'deals/s':>13}{'x floor':>10}")
    for measurement in [*measurements, net] if net_seconds > 0 else measurements:
        print(
            f"{measurement.label:<34}{measurement.deals:>9,}{measurement.seconds:>10.4f}"
            f"{measurement.deals_per_second:>13,.0f}{ratio(measurement):>10.1f}"
        )
    if net_seconds <= 0:
        print(f"{'--jsonl minus start-up':<34}{'(within start-up noise: not measurable)':>42}")
    print(f"{'python -m engine start-up (empty)':<34}{'':>9}{best['startup']:>10.4f}")
    api_rate = measurements[1].deals_per_second
    met = api_rate >= TARGET_DEALS_PER_SECOND
    print()
    print(
        f"target {TARGET_DEALS_PER_SECOND:,} deals/s through the API: "
        f"{'met' if met else 'NOT met'} ({api_rate:,.0f} deals/s)"
    )
    print(
        f"checks: every sheet's totals sum to zero and agree on all paths; --jsonl printed "
        f"{jsonl_lines:,} lines for {sheet_count:,} sheets, {jsonl_errors} errors"
    )

    def figures(measurement: Measurement) -> dict[str, Any]:
        return {
            "deals": measurement.deals,
            "seconds": measurement.seconds,
            "deals_per_second": measurement.deals_per_second,
            "ratio_to_floor": ratio(measurement),
        }

    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "cores_used": 1,
        "sheets": sheet_count,
        "deals": deals,
        "seed": seed,
        "repeat": repeat,
        "measurements": {measurement.name: figures(measurement) for measurement in measurements},
        "jsonl_startup_seconds": best["startup"],
        "jsonl_net": figures(net) if net_seconds > 0 else None,
        # From the last --jsonl run; every run was checked: one line per sheet, none an error.
        "jsonl_lines": jsonl_lines,
        "jsonl_errors": jsonl_errors,
        "zero_sum": True,
        "target_deals_per_second": TARGET_DEALS_PER_SECOND,
        "target_met": met,
    }


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Benchmark the Zole scoring engine: deals per second through the Python API "
        "and through `python -m engine score --jsonl`, against a floor of only adding payouts."
    )
    parser.add_argument(
        "--sheets",
        type=positive,
        default=None,
        help=f"24-deal sheets in the batch (default {DEFAULT_SHEETS}, {QUICK_SHEETS} with --quick)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the batch (default 1)")
    parser.add_argument(
        "--repeat",
        type=positive,
        default=None,
        help=f"runs of each measurement, the best reported (default {DEFAULT_REPEAT}, "
        f"{QUICK_REPEAT} with --quick)",
    )
    parser.add_argument(
        "--quick", action="store_true", help="a small batch, to check that the script runs"
    )
    parser.add_argument(
        "--json", action="store_true", help="also print the figures as one JSON line at the end"
    )
    args = parser.parse_args(argv)
    sheets = args.sheets or (QUICK_SHEETS if args.quick else DEFAULT_SHEETS)
    repeat = args.repeat or (QUICK_REPEAT if args.quick else DEFAULT_REPEAT)

    try:
        result = run(sheets, args.seed, repeat)
    except CheckFailed as error:
        sys.stdout.flush()
        sys.stderr.write(f"CHECK FAILED: {error}\n")
        return 1
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
