"""Benchmark of the seating engine: quality and speed, against a baseline.

The baseline, measured in the same run on the same players, is a plain seeded shuffle cut into
tables (`table_sizes`: N mod 3 tables of 4 first, or with tables of 4 the fewest tables of 3
last), round after round: what a draw without any care gives.

Tables of 3 (the default, ``table_size=3``):

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

Tables of 4 (``table_size=4``, the federation's rating events):

5. mix, whole schedules of 7 rounds for N from 20 to 100: repeated pairs. Each player meets 3
   new people a round, so 7 rounds without a repeat need N >= 22 (20 players: at least 20
   repeated pairs); 24 players have 6 rounds of a stored design before any repeat, 28 players 9
   (the unital), from 32 players on the search finds schedules without one.
6. mix for 16, 20, 24 and 28 players: rounds before the first repeated pair (targets 5, 5, 6
   and 9, the stored designs; 16: the affine plane of order 4).
7. swiss over 10 rounds with random results, N = 100, 300 and 600: repeated pairs and the mean
   extra rank spread.
8. one round for 600 players in each mode (random, swiss, mix, ranked), with 9 earlier rounds as
   history: seconds (target under 1 second) and the ratio to the baseline shuffle-and-cut.

Every plan is checked outside the timed parts: each round seats every player exactly once at
tables of the sizes `table_sizes` gives. A failed check exits with status 1; a missed target
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
SPEED_MODES = ("random", "swiss", "mix", "ranked")
FOURS_MIX_FIELDS = (20, 24, 28, 32, 40, 100)
FOURS_MIX_ROUNDS = 7
FOURS_DESIGN_TARGETS = {16: 5, 20: 5, 24: 6, 28: 9}  # 16: the affine plane of order 4
FOURS_SWISS_FIELDS = (100, 300, 600)
QUICK_FOURS_MIX_FIELDS = (28, 40)
QUICK_FOURS_SWISS_FIELDS = (100,)

Rounds = list[list[list[str]]]


def players_for(count: int) -> list[SeatingPlayer]:
    return [SeatingPlayer(id=f"p{number:03d}") for number in range(1, count + 1)]


def cut(order: Sequence[str], table_size: int) -> list[list[str]]:
    """`order` cut into consecutive tables of the sizes `table_sizes` gives (tables of 4 first)."""
    tables, start = [], 0
    for size in table_sizes(len(order), table_size):
        tables.append(list(order[start : start + size]))
        start += size
    return tables


def shuffle_and_cut(ids: Sequence[str], rng: random.Random, table_size: int = 3) -> list[list[str]]:
    """The baseline: a plain shuffle cut into tables."""
    order = list(ids)
    rng.shuffle(order)
    return cut(order, table_size)


def check_round(tables: Sequence[Sequence[str]], ids: Sequence[str], table_size: int = 3) -> None:
    seated = [player for table in tables for player in table]
    if sorted(seated) != sorted(ids):
        raise SystemExit("check failed: a round does not seat every player exactly once")
    sizes = sorted((len(table) for table in tables), reverse=True)
    if sizes != sorted(table_sizes(len(ids), table_size), reverse=True):
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


def bench_mix(fields: Sequence[int], rounds: int, table_size: int = 3) -> list[dict[str, Any]]:
    rows = []
    for count in fields:
        players = players_for(count)
        ids = [player.id for player in players]
        seconds, plan = timed(
            lambda players=players: seat_players(
                players, mode="mix", seed=1, rounds=rounds, table_size=table_size
            ),
            1,
        )
        planned = plan_rounds(plan)
        for tables in planned:
            check_round(tables, ids, table_size)
        rng = random.Random(1)
        baseline = [shuffle_and_cut(ids, rng, table_size) for _ in range(rounds)]
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


def bench_designs(targets: dict[int, int], table_size: int = 3) -> list[dict[str, Any]]:
    rows = []
    for count, target in targets.items():
        players = players_for(count)
        ids = [player.id for player in players]
        seconds, plan = timed(
            lambda players=players, target=target: seat_players(
                players, mode="mix", seed=1, rounds=target + 1, table_size=table_size
            ),
            1,
        )
        planned = plan_rounds(plan)
        for tables in planned:
            check_round(tables, ids, table_size)
        rng = random.Random(1)
        baseline = [shuffle_and_cut(ids, rng, table_size) for _ in range(target + 1)]
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


def bench_swiss(fields: Sequence[int], rounds: int, table_size: int = 3) -> list[dict[str, Any]]:
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
            plan = seat_players(
                standing, mode="swiss", seed=round_number, history=history, table_size=table_size
            )
            seconds = max(seconds, time.perf_counter() - start)
            tables = plan_rounds(plan)[0]
            check_round(tables, ids, table_size)
            if round_number:  # round 1: everyone on 0 points, the order is a draw
                spreads += extra_spread(tables, position)
            history.append(tables)
            baseline_history.append(cut(ranked, table_size))
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


def bench_speed(count: int, repeat: int, table_size: int = 3) -> list[dict[str, Any]]:
    players = players_for(count)
    ids = [player.id for player in players]
    rng = random.Random(9)
    history = [shuffle_and_cut(ids, rng, table_size) for _ in range(9)]
    scored = [SeatingPlayer(id=p, score=rng.random() * 100) for p in ids]
    baseline_seconds, _ = timed(lambda: shuffle_and_cut(ids, random.Random(1), table_size), repeat)
    rows = []
    for mode in SPEED_MODES:
        seconds, plan = timed(
            lambda mode=mode: seat_players(
                scored, mode=mode, seed=1, history=history, table_size=table_size
            ),
            repeat,
        )
        check_round(plan_rounds(plan)[0], ids, table_size)
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


def print_mix(rows: Sequence[dict[str, Any]]) -> None:
    print(f"{'N':>5} {'rounds':>6} {'repeats':>8} {'baseline':>9} {'seconds':>8}")
    for row in rows:
        print(
            f"{row['players']:>5} {row['rounds']:>6} {row['repeated_pairs']:>8} "
            f"{row['baseline_repeated_pairs']:>9} {row['seconds']:>8.2f}"
        )


def print_designs(rows: Sequence[dict[str, Any]]) -> None:
    print(f"{'N':>5} {'target':>6} {'planned':>8} {'baseline':>9} {'seconds':>8}")
    for row in rows:
        print(
            f"{row['players']:>5} {row['target']:>6} {row['rounds_without_repeat']:>8} "
            f"{row['baseline_rounds_without_repeat']:>9} {row['seconds']:>8.2f}"
        )


def print_swiss(rows: Sequence[dict[str, Any]]) -> None:
    print(f"{'N':>5} {'repeats':>8} {'baseline':>9} {'spread':>7} {'slowest round s':>16}")
    for row in rows:
        print(
            f"{row['players']:>5} {row['repeated_pairs']:>8} {row['baseline_repeated_pairs']:>9} "
            f"{row['mean_extra_rank_spread']:>7.2f} {row['slowest_round_seconds']:>16.3f}"
        )


def print_speed(rows: Sequence[dict[str, Any]]) -> None:
    print(f"{'mode':>7} {'seconds':>8} {'x shuffle-and-cut':>18} {'new repeats':>12}")
    for row in rows:
        print(
            f"{row['mode']:>7} {row['seconds']:>8.3f} {row['ratio_to_shuffle_and_cut']:>18} "
            f"{row['repeated_pairs_with_history']:>12}"
        )


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
    print_mix(mix)

    designs = bench_designs(DESIGN_TARGETS)
    print("\nmix, small fields: rounds before the first repeated pair (best known designs)")
    print_designs(designs)

    swiss_fields = QUICK_SWISS_FIELDS if args.quick else SWISS_FIELDS
    swiss = bench_swiss(swiss_fields, 5 if args.quick else SWISS_ROUNDS)
    print(
        f"\nswiss, {SWISS_ROUNDS} rounds with random results (targets: no repeat; mean extra "
        "rank spread <= 3 at N=100, <= 1 at N=300)"
    )
    print_swiss(swiss)

    speed = bench_speed(SPEED_FIELD, args.repeat)
    print(
        f"\none round for {SPEED_FIELD} players, 9 rounds of history (target: under "
        f"{SPEED_TARGET_SECONDS:g} s), best of {args.repeat}"
    )
    print_speed(speed)

    print("\n--- tables of 4 (table_size=4) ---")
    fours_mix_fields = QUICK_FOURS_MIX_FIELDS if args.quick else FOURS_MIX_FIELDS
    fours_mix = bench_mix(fours_mix_fields, FOURS_MIX_ROUNDS, table_size=4)
    print(
        f"\nmix, whole schedules of {FOURS_MIX_ROUNDS} rounds (7 rounds without a repeat need "
        "N >= 22; 20 players: at least 20 repeated pairs)"
    )
    print_mix(fours_mix)

    fours_designs = bench_designs(FOURS_DESIGN_TARGETS, table_size=4)
    print("\nmix, small fields: rounds before the first repeated pair (the stored designs)")
    print_designs(fours_designs)

    fours_swiss_fields = QUICK_FOURS_SWISS_FIELDS if args.quick else FOURS_SWISS_FIELDS
    fours_swiss = bench_swiss(fours_swiss_fields, 5 if args.quick else SWISS_ROUNDS, table_size=4)
    print(f"\nswiss, {SWISS_ROUNDS} rounds with random results")
    print_swiss(fours_swiss)

    fours_speed = bench_speed(SPEED_FIELD, args.repeat, table_size=4)
    print(
        f"\none round for {SPEED_FIELD} players, 9 rounds of history (target: under "
        f"{SPEED_TARGET_SECONDS:g} s), best of {args.repeat}"
    )
    print_speed(fours_speed)

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
        "fours_design": all(row["rounds_without_repeat"] >= row["target"] for row in fours_designs),
        "fours_speed": all(row["seconds"] < SPEED_TARGET_SECONDS for row in fours_speed),
    }
    print(
        "\ntargets met: "
        + ", ".join(f"{name} {'yes' if ok else 'NO'}" for name, ok in targets.items())
    )
    if args.json:
        print(
            json.dumps(
                {
                    "mix": mix,
                    "designs": designs,
                    "swiss": swiss,
                    "speed": speed,
                    "fours_mix": fours_mix,
                    "fours_designs": fours_designs,
                    "fours_swiss": fours_swiss,
                    "fours_speed": fours_speed,
                    "targets": targets,
                }
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
