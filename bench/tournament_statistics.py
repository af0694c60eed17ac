"""Benchmark of a tournament's statistics page, against its standings page in the same run.

It builds a simulated tournament (150 players, 7 rounds of 28 deals: about 9,800 deals; written
with `simulate_tournament --fast`, which checks every sheet with the engine and stores each seat
result's counts) in a throwaway SQLite database, then times the statistics page and the
standings page on a cache miss (the page cache emptied before each request: the page really
built, on a warm database), interleaved, and prints the medians, the query counts and the
statistics page's miss as a ratio to the standings page's. The target: a tournament's
statistics < 300 ms on a cache miss.

    .venv/bin/python bench/tournament_statistics.py [--players 150 --rounds 7 --deals 28]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from simulated import measured_get, simulated_tournament


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--deals", type=int, default=28)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--database",
        help="a SQLite file, or a database URL (postgres://... on loopback): the tournament "
        "built there if it does not exist, reused (not rebuilt) if it does",
    )
    args = parser.parse_args()

    built = simulated_tournament(
        "statistics",
        players=args.players,
        rounds=args.rounds,
        deals=args.deals,
        seed=args.seed,
        database=args.database,
    )
    from django.db import connection
    from django.test import Client

    pages = [("standings", "/t/bench/standings/"), ("statistics", "/t/bench/statistics/")]
    client = Client()
    for _name, url in pages:  # warm the connection and the templates
        measured_get(client, url, without_cache=True)
    missed: dict[str, list[float]] = {name: [] for name, _ in pages}
    missed_cpu: dict[str, list[float]] = {name: [] for name, _ in pages}
    queries: dict[str, int] = {}
    for _ in range(args.repeat):
        for name, url in pages:  # interleaved, so a noisy moment hits both pages alike
            seconds, cpu, status, count = measured_get(client, url, without_cache=True)
            if status != 200:
                print(f"FAILED: {url} answered {status}", file=sys.stderr)
                return 1
            missed[name].append(seconds)
            missed_cpu[name].append(cpu)
            queries[name] = count

    standings_miss = statistics.median(missed["standings"])
    standings_cpu = statistics.median(missed_cpu["standings"])
    print(
        f"Statistics benchmark: {args.players} players, {args.rounds} rounds, {args.deals} deals "
        f"({connection.vendor}, built in {built:.1f} s); median of {args.repeat} cache misses"
    )
    print(
        "{:12} {:>7} {:>8} {:>6} {:>7} {:>6}".format(
            "page", "queries", "miss ms", "x", "CPU ms", "x"
        )
    )
    for name, _url in pages:
        miss = statistics.median(missed[name])
        cpu = statistics.median(missed_cpu[name])
        print(
            f"{name:12} {queries[name]:>7} {miss * 1000:>8.1f} {miss / standings_miss:>6.2f} "
            f"{cpu * 1000:>7.1f} {cpu / standings_cpu:>6.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
