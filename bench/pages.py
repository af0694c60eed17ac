"""Benchmark of the pages that must not slow down with the size of the event (issue 4, item 7).

It builds a simulated 600-player, 10-round, 24-deal tournament (48,000 deals; written with
`simulate_tournament --fast`, which checks every sheet with the engine) in a throwaway SQLite
database, then times the public standings page, a round page (with and without a player search)
and a table's entry sheet, each as a ratio to a trivial page (/healthz) timed in the same run:
the first request ("cold": empty connection, nothing warmed) and the median of repeats
("cached": the database pages and Python objects warm). It also prints each page's query count.

    .venv/bin/python bench/pages.py [--players 600 --rounds 10 --deals 24] [--repeat 15]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from simulated import simulated_tournament, timed_get


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--deals", type=int, default=24)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    built = simulated_tournament(
        "pages", players=args.players, rounds=args.rounds, deals=args.deals, seed=args.seed
    )
    from django.db import connection
    from django.test import Client

    from tournaments.models import Round, TableToken, Tournament

    tournament = Tournament.objects.get(slug="bench")
    last_round = Round.objects.filter(tournament=tournament).order_by("-number").first()
    table = last_round.tables.order_by("number").first()
    token = TableToken.objects.filter(table=table).first()
    some_player = table.seats.select_related("entry__player").first().entry.player
    surname = some_player.full_name.split()[-1]
    pages = [
        ("trivial page (/healthz)", "/healthz"),
        ("standings", "/t/bench/standings/"),
        ("standings, provisional", "/t/bench/standings/?provisional=1"),
        ("hall display", "/t/bench/display/"),
        ("hall display's clock", "/t/bench/display/clock/"),
        (f"round {last_round.number}", f"/t/bench/rounds/{last_round.number}/"),
        (f"round {last_round.number}, search", f"/t/bench/rounds/{last_round.number}/?q={surname}"),
        ("tournament list (/)", "/"),
        ("player page", f"/players/{some_player.pk}/"),
    ]
    if token is not None:
        pages.append(("table sheet (/r/<token>/)", f"/r/{token.token}/"))

    client = Client()
    cold: dict[str, tuple[float, int, int]] = {}
    connection.close()  # cold: a new connection, nothing warmed
    for name, url in pages:
        cold[name] = timed_get(client, url)
    warm: dict[str, list[float]] = {name: [] for name, _ in pages}
    queries: dict[str, int] = {}
    for _ in range(args.repeat):
        for name, url in pages:  # interleaved, so a noisy moment hits every page alike
            seconds, status, count = timed_get(client, url)
            if status != 200:
                print(f"FAILED: {url} answered {status}", file=sys.stderr)
                return 1
            warm[name].append(seconds)
            queries[name] = count

    baseline_cold = cold[pages[0][0]][0]
    baseline_warm = statistics.median(warm[pages[0][0]])
    deals = args.rounds * args.deals * (args.players // 3)
    print(
        f"Pages benchmark: {args.players} players, {args.rounds} rounds, {args.deals} deals "
        f"(about {deals:,} deals), SQLite, built in {built:.1f} s; median of {args.repeat}"
    )
    header = ("page", "queries", "cold ms", "x trivial", "cached ms", "x trivial")
    print("{:34} {:>7} {:>9} {:>9} {:>10} {:>9}".format(*header))
    for name, _url in pages:
        cold_seconds = cold[name][0]
        warm_seconds = statistics.median(warm[name])
        print(
            f"{name:34} {queries[name]:>7} {cold_seconds * 1000:>9.1f} "
            f"{cold_seconds / baseline_cold:>9.1f} {warm_seconds * 1000:>10.1f} "
            f"{warm_seconds / baseline_warm:>9.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
