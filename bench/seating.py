"""Benchmark of the seating engine (issue 3, item 4): quality and speed, against a baseline.

The baseline, measured in the same run on the same players, is a plain seeded shuffle cut into
tables (N mod 3 tables of 4 first), round after round: what a draw without any care gives.

1. mix, whole schedules of 12 rounds (``rounds=12``) for N from 30 to 600: repeated pairs (target
   0), against the baseline's.
2. mix for 9, 12, 15, 18 and 21 players: rounds planned before the first repeated pair (targets 4,
   4, 7, 8 and 10, the best known designs), against the baseline's.
3. swiss over 10 rounds with random results (place points 6/4/2 and 6/4/2/0, game points as the
   tie-break): repeated pairs (target 0) and the mean extra rank spread per table, that is top
   rank minus bottom rank at a table minus (table size - 1), averaged over every table of every
   round (targets: at most 3 at N=100, at most 1 at N=300); the baseline is the plain cut of the
   standings (no spread, but repeats).
4. one round for 600 players in each mode, with 9 earlier rounds as history: seconds, best of
   ``--repeat`` (target under 1 second), and the ratio to the baseline shuffle-and-cut.

Every plan is checked outside the timed parts: each round seats every player exactly once at
tables of 3 and 4 with N mod 3 tables of 4. A failed check exits with status 1; a missed target
does not (it is reported).

Run from the repository root, after ``make install``::

    .venv/bin/python bench/seating.py            # everything
    .venv/bin/python bench/seating.py --quick    # smaller fields, fewer rounds
    .venv/bin/python bench/seating.py --json     # the figures also as one JSON line
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

import argparse  # noqa: E402
import itertools  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from typing import Any  # noqa: E402

from engine.seating import SeatingPlayer, seat_players, table_sizes  # noqa: E402

MIX_FIELDS = (30, 31, 32, 45, 60, 99, 100, 150, 301, 600)
MIX_ROUNDS = 12
DESIGN_TARGETS = {9: 4, 12: 4, 15: 7, 18: 8, 21: 10}
SWISS_FIELDS = (30, 31, 45, 100, 150, 300, 301, 600)
SWISS_ROUNDS = 10
SWISS_SPREAD_TARGETS = {100: 3.0, 300: 1.0}
SPEED_FIELD = 600
SPEED_TARGET_SECONDS = 1.0
QUICK_MIX_FIELDS = (30, 31, 60)
QUICK_SWISS_FIELDS = (45, 100)

Rounds = list[list[list[str]]]


def players_for(count: int) -> list[SeatingPlayer]:
    return [SeatingPlayer(id=f"p{number:03d}") for number in range(1, count + 1)]


def shuffle_and_cut(ids: Sequence[str], rng: random.Random) -> list[list[str]]:
    """The baseline: a plain shuffle cut into tables (tables of 4 first)."""
    order = list(ids)
    rng.shuffle(order)
    tables, start = [], 0
    for size in table_sizes(len(order)):
        tables.append(order[start : start + size])
        start += size
    return tables


def check_round(tables: Sequence[Sequence[str]], ids: Sequence[str]) -> None:
    seated = [player for table in tables for player in table]
    if sorted(seated) != sorted(ids):
        raise SystemExit("check failed: a round does not seat every player exactly once")
    sizes = sorted((len(table) for table in tables), reverse=True)
    if sizes != sorted(table_sizes(len(ids)), reverse=True):
        raise SystemExit(f"check failed: table sizes {sizes}")


def repeated_pairs(rounds: Sequence[Sequence[Sequence[str]]]) -> int:
    seen: set[frozenset[str]] = set()
    repeats = 0
    for tables in rounds:
        for table in tables:
            for pair in itertools.combinations(table, 2):
                key = frozenset(pair)
                repeats += key in seen
                seen.add(key)
    return repeats


def rounds_before_repeat(rounds: Sequence[Sequence[Sequence[str]]]) -> int:
    for count in range(1, len(rounds) + 1):
        if repeated_pairs(rounds[:count]):
            return count - 1
    return len(rounds)


def plan_rounds(plan: Any) -> Rounds:
    return [[list(table.players) for table in tables] for tables in plan.rounds]


def timed(action: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = action()
        best = min(best, time.perf_counter() - start)
    return best, result


def bench_mix(fields: Sequence[int], rounds: int) -> list[dict[str, Any]]:
    rows = []
    for count in fields:
        players = players_for(count)
        ids = [player.id for player in players]
        seconds, plan = timed(
            lambda players=players: seat_players(players, mode="mix", seed=1, rounds=rounds), 1
        )
        planned = plan_rounds(plan)
        for tables in planned:
            check_round(tables, ids)
        rng = random.Random(1)
        baseline = [shuffle_and_cut(ids, rng) for _ in range(rounds)]
        rows.append(
            {
                "players": count,
                "rounds": rounds,
                "repeated_pairs": repeated_pairs(planned),
                "baseline_repeated_pairs": repeated_pairs(baseline),
                "seconds": round(seconds, 3),
            }
        )
    return rows


def bench_designs() -> list[dict[str, Any]]:
    rows = []
    for count, target in DESIGN_TARGETS.items():
        players = players_for(count)
        ids = [player.id for player in players]
        seconds, plan = timed(
            lambda players=players, target=target: seat_players(
                players, mode="mix", seed=1, rounds=target + 1
            ),
            1,
        )
        planned = plan_rounds(plan)
        for tables in planned:
            check_round(tables, ids)
        rng = random.Random(1)
        baseline = [shuffle_and_cut(ids, rng) for _ in range(target + 1)]
        rows.append(
            {
                "players": count,
                "target": target,
                "rounds_without_repeat": rounds_before_repeat(planned),
                "baseline_rounds_without_repeat": rounds_before_repeat(baseline),
                "seconds": round(seconds, 3),
            }
        )
    return rows


def extra_spread(tables: Sequence[Sequence[str]], position: dict[str, int]) -> list[int]:
    return [
        max(position[p] for p in table) - min(position[p] for p in table) - (len(table) - 1)
        for table in tables
    ]


def play_round(tables: Sequence[Sequence[str]], score: dict[str, float], rng: random.Random):
    """Random results: place points by a random finishing order, game points as tie-break."""
    for table in tables:
        order = list(table)
        rng.shuffle(order)
        points = (6, 4, 2) if len(order) == 3 else (6, 4, 2, 0)
        for place, player in enumerate(order):
            score[player] += points[place] + rng.random() / 100


def bench_swiss(fields: Sequence[int], rounds: int) -> list[dict[str, Any]]:
    rows = []
    for count in fields:
        players = players_for(count)
        ids = [player.id for player in players]
        rng = random.Random(count)
        score = dict.fromkeys(ids, 0.0)
        history: Rounds = []
        baseline_history: Rounds = []
        spreads: list[int] = []
        seconds = 0.0
        for round_number in range(rounds):
            standing = [SeatingPlayer(id=p, score=score[p]) for p in ids]
            ranked = sorted(ids, key=lambda p: -score[p])
            position = {player: place for place, player in enumerate(ranked)}
            start = time.perf_counter()
            plan = seat_players(standing, mode="swiss", seed=round_number, history=history)
            seconds = max(seconds, time.perf_counter() - start)
            tables = plan_rounds(plan)[0]
            check_round(tables, ids)
            if round_number:  # round 1: everyone on 0 points, the order is a draw
                spreads += extra_spread(tables, position)
            history.append(tables)
            cut, at = [], 0
            for size in table_sizes(count):
                cut.append(ranked[at : at + size])
                at += size
            baseline_history.append(cut)
            play_round(tables, score, rng)
        rows.append(
            {
                "players": count,
                "rounds": rounds,
                "repeated_pairs": repeated_pairs(history),
                "baseline_repeated_pairs": repeated_pairs(baseline_history),
                "mean_extra_rank_spread": round(sum(spreads) / len(spreads), 3),
                "slowest_round_seconds": round(seconds, 3),
            }
        )
    return rows


def bench_speed(count: int, repeat: int) -> list[dict[str, Any]]:
    players = players_for(count)
    ids = [player.id for player in players]
    rng = random.Random(9)
    history = [shuffle_and_cut(ids, rng) for _ in range(9)]
    scored = [SeatingPlayer(id=p, score=rng.random() * 100) for p in ids]
    baseline_seconds, _ = timed(lambda: shuffle_and_cut(ids, random.Random(1)), repeat)
    rows = []
    for mode in ("random", "swiss", "mix"):
        seconds, plan = timed(
            lambda mode=mode: seat_players(scored, mode=mode, seed=1, history=history), repeat
        )
        check_round(plan_rounds(plan)[0], ids)
        rows.append(
            {
                "mode": mode,
                "players": count,
                "history_rounds": len(history),
                "seconds": round(seconds, 4),
                "ratio_to_shuffle_and_cut": round(seconds / baseline_seconds),
                "repeated_pairs_with_history": repeated_pairs([*history, plan_rounds(plan)[0]])
                - repeated_pairs(history),
            }
        )
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller fields, fewer rounds")
    parser.add_argument("--repeat", type=int, default=3, help="timing: best of this many runs")
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    args = parser.parse_args(argv)

    print(f"seating benchmark, Python {platform.python_version()} on {platform.machine()}")
    mix_fields = QUICK_MIX_FIELDS if args.quick else MIX_FIELDS
    mix = bench_mix(mix_fields, 6 if args.quick else MIX_ROUNDS)
    print(f"\nmix, whole schedules (target: no repeated pair for N >= 30 over {MIX_ROUNDS} rounds)")
    print(f"{'N':>5} {'rounds':>6} {'repeats':>8} {'baseline':>9} {'seconds':>8}")
    for row in mix:
        print(
            f"{row['players']:>5} {row['rounds']:>6} {row['repeated_pairs']:>8} "
            f"{row['baseline_repeated_pairs']:>9} {row['seconds']:>8.2f}"
        )

    designs = bench_designs()
    print("\nmix, small fields: rounds before the first repeated pair (best known designs)")
    print(f"{'N':>5} {'target':>6} {'planned':>8} {'baseline':>9} {'seconds':>8}")
    for row in designs:
        print(
            f"{row['players']:>5} {row['target']:>6} {row['rounds_without_repeat']:>8} "
            f"{row['baseline_rounds_without_repeat']:>9} {row['seconds']:>8.2f}"
        )

    swiss_fields = QUICK_SWISS_FIELDS if args.quick else SWISS_FIELDS
    swiss = bench_swiss(swiss_fields, 5 if args.quick else SWISS_ROUNDS)
    print(
        f"\nswiss, {SWISS_ROUNDS} rounds with random results (targets: no repeat; mean extra "
        "rank spread <= 3 at N=100, <= 1 at N=300)"
    )
    print(f"{'N':>5} {'repeats':>8} {'baseline':>9} {'spread':>7} {'slowest round s':>16}")
    for row in swiss:
        print(
            f"{row['players']:>5} {row['repeated_pairs']:>8} {row['baseline_repeated_pairs']:>9} "
            f"{row['mean_extra_rank_spread']:>7.2f} {row['slowest_round_seconds']:>16.3f}"
        )

    speed = bench_speed(SPEED_FIELD, args.repeat)
    print(
        f"\none round for {SPEED_FIELD} players, 9 rounds of history (target: under "
        f"{SPEED_TARGET_SECONDS:g} s), best of {args.repeat}"
    )
    print(f"{'mode':>7} {'seconds':>8} {'x shuffle-and-cut':>18} {'new repeats':>12}")
    for row in speed:
        print(
            f"{row['mode']:>7} {row['seconds']:>8.3f} {row['ratio_to_shuffle_and_cut']:>18} "
            f"{row['repeated_pairs_with_history']:>12}"
        )

    targets = {
        "mix_no_repeat": all(row["repeated_pairs"] == 0 for row in mix),
        "designs": all(row["rounds_without_repeat"] >= row["target"] for row in designs),
        "swiss_no_repeat": all(row["repeated_pairs"] == 0 for row in swiss),
        "swiss_spread": all(
            row["mean_extra_rank_spread"] <= SWISS_SPREAD_TARGETS[row["players"]]
            for row in swiss
            if row["players"] in SWISS_SPREAD_TARGETS
        ),
        "speed": all(row["seconds"] < SPEED_TARGET_SECONDS for row in speed),
    }
    print(
        "\ntargets met: "
        + ", ".join(f"{name} {'yes' if ok else 'NO'}" for name, ok in targets.items())
    )
    if args.json:
        print(
            json.dumps(
                {"mix": mix, "designs": designs, "swiss": swiss, "speed": speed, "targets": targets}
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
