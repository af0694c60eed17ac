"""Benchmark of the pages that must not slow down with the size of the event.

It builds a simulated 600-player, 10-round, 24-deal tournament (48,000 deals; written with
`simulate_tournament --fast`, which checks every sheet with the engine) in a throwaway SQLite
database, then times the public standings page, a round page (with and without a player search)
and a table's entry sheet, each as a ratio to a trivial page (/healthz) timed in the same run:
the first request ("cold": empty connection, nothing warmed), the median of repeats served
from the public page cache ("cached"), and the median of repeats with the page cache emptied
before each ("miss": the page really built, on a warm database: what the first viewer after a
confirmation waits for; the target for the standings is < 150 ms; the round page's tables kept
in memory once rendered are kept, and a row "no table kept" empties that memory too). It also
prints each page's query count and the CPU time of each miss.

    .venv/bin/python bench/pages.py [--players 600 --rounds 10 --deals 24] [--repeat 15]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from simulated import LOOP_STEPS, bare_loop, measured_get, simulated_tournament


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--deals", type=int, default=24)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--database",
        help="a SQLite file, or a database URL (postgres://... on loopback): the tournament "
        "built there if it does not exist, reused (not rebuilt) if it does",
    )
    args = parser.parse_args()

    built = simulated_tournament(
        "pages",
        players=args.players,
        rounds=args.rounds,
        deals=args.deals,
        seed=args.seed,
        database=args.database,
    )
    from django.db import connection
    from django.test import Client

    from public.templatetags import round_sections
    from tournaments.models import Round, TableToken, Tournament

    tournament = Tournament.objects.get(slug="bench")
    last_round = Round.objects.filter(tournament=tournament).order_by("-number").first()
    table = last_round.tables.order_by("number").first()
    token = TableToken.objects.filter(table=table).first()
    some_player = table.seats.select_related("registration__player").first().registration.player
    surname = some_player.full_name.split()[-1]
    pages = [
        ("trivial page (/healthz)", "/healthz"),
        ("standings", "/t/bench/standings/"),
        ("standings, htmx poll", "/t/bench/standings/"),
        ("standings, provisional", "/t/bench/standings/?provisional=1"),
        ("hall display", "/t/bench/display/"),
        ("hall display's clock", "/t/bench/display/clock/"),
        # Before the plain round page, which then finds every table kept (in a worker, the
        # previous build of the page left them).
        (f"round {last_round.number}, no table kept", f"/t/bench/rounds/{last_round.number}/"),
        (f"round {last_round.number}", f"/t/bench/rounds/{last_round.number}/"),
        (f"round {last_round.number}, search", f"/t/bench/rounds/{last_round.number}/?q={surname}"),
        ("tournament list (/)", "/"),
        ("player page", f"/players/{some_player.pk}/"),
    ]
    if token is not None:
        pages.append(("table sheet (/r/<token>/)", f"/r/{token.token}/"))
    # What the standings page's htmx poll asks every 30 s: the live part alone.
    htmx = {"standings, htmx poll"}
    # The round page keeps each table's section once rendered (round_sections.py): its "miss"
    # row is the page after a confirmation (one table new); this one renders every table, as
    # the first request of a new worker does.
    forgetting = {f"round {last_round.number}, no table kept"}

    def get(url: str, name: str, **kwargs):
        headers = {"HTTP_HX_REQUEST": "true"} if name in htmx else None
        if name in forgetting and kwargs.get("without_cache"):
            round_sections.section_html.cache_clear()
        return measured_get(client, url, headers=headers, **kwargs)

    client = Client()
    cold: dict[str, tuple[float, float, int, int]] = {}
    connection.close()  # cold: a new connection, nothing warmed
    for name, url in pages:
        cold[name] = get(url, name)
    warm: dict[str, list[float]] = {name: [] for name, _ in pages}
    missed: dict[str, list[float]] = {name: [] for name, _ in pages}
    missed_cpu: dict[str, list[float]] = {name: [] for name, _ in pages}
    queries: dict[str, int] = {}
    loops: list[float] = []
    for _ in range(args.repeat):
        loops.append(bare_loop())
        for name, url in pages:  # interleaved, so a noisy moment hits every page alike
            seconds, cpu, status, count = get(url, name, without_cache=True)
            if status != 200:
                print(f"FAILED: {url} answered {status}", file=sys.stderr)
                return 1
            missed[name].append(seconds)
            missed_cpu[name].append(cpu)
            queries[name] = count
            seconds, _cpu, status, _count = get(url, name)
            warm[name].append(seconds)

    baseline_cold = cold[pages[0][0]][0]
    baseline_warm = statistics.median(warm[pages[0][0]])
    baseline_miss = statistics.median(missed[pages[0][0]])
    baseline_cpu = statistics.median(missed_cpu[pages[0][0]])
    deals = args.rounds * args.deals * (args.players // 3)
    print(
        f"Pages benchmark: {args.players} players, {args.rounds} rounds, {args.deals} deals "
        f"(about {deals:,} deals), {connection.vendor}, built in {built:.1f} s; "
        f"median of {args.repeat}"
    )
    print(
        "wall clock: cold (the first request), cached (from the page cache), miss (the page "
        "built, cache emptied first); CPU: the miss's CPU time in this process"
    )
    header = ("page", "queries", "cold ms", "x", "cached ms", "x", "miss ms", "x", "CPU ms", "x")
    print("{:27} {:>7} {:>8} {:>5} {:>9} {:>5} {:>8} {:>5} {:>7} {:>5}".format(*header))
    for name, _url in pages:
        cold_seconds = cold[name][0]
        warm_seconds = statistics.median(warm[name])
        miss_seconds = statistics.median(missed[name])
        cpu_seconds = statistics.median(missed_cpu[name])
        print(
            f"{name[:27]:27} {queries[name]:>7} {cold_seconds * 1000:>8.1f} "
            f"{cold_seconds / baseline_cold:>5.1f} {warm_seconds * 1000:>9.1f} "
            f"{warm_seconds / baseline_warm:>5.1f} {miss_seconds * 1000:>8.1f} "
            f"{miss_seconds / baseline_miss:>5.1f} {cpu_seconds * 1000:>7.1f} "
            f"{cpu_seconds / baseline_cpu:>5.1f}"
        )
    print('"x": the ratio to the trivial page\'s figure in the same column, measured in this run')
    loop = statistics.median(loops)
    print(
        f"bare loop ({LOOP_STEPS:,} multiply-adds in Python), measured between the pages: "
        f"median {loop * 1000:.1f} ms, best {min(loops) * 1000:.1f} ms"
    )
    for name in ("standings", "standings, htmx poll"):
        print(
            f"{name}, cache miss: median {statistics.median(missed[name]) * 1000:.1f} ms "
            f"= {statistics.median(missed[name]) / loop:.2f} bare loops, best "
            f"{min(missed[name]) * 1000:.1f} ms = {min(missed[name]) / min(loops):.2f} best loops "
            "(target < 150 ms)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
