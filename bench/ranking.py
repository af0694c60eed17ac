"""Benchmark of the ranking pages: 2,000 players over 40 tournaments.

It writes synthetic finished tournaments (`demo.synthetic`: players, entries, closed rounds,
confirmed tables and their seat results, in bulk) to a throwaway SQLite database, computes the
placings and ratings with `recompute_ranking`, then times /ranking/ and /ranking/rating/ (and
their CSV exports, and a player's page) rendered without the cache, each as a ratio to a trivial
page (/healthz) timed in the same run: the first request ("cold") and the median of repeats.
It prints each page's query count, and the cost of a rating update after one confirmed table
(the incremental path) against the whole replay: for the first table of the season, what the
confirming request does (it leaves the re-rating to a job), the job itself, and the re-rating
done inside the request (RATING_INLINE_TABLES raised), each also as a
ratio to a bare loop and to the trivial page timed in the same run.

    .venv/bin/python bench/ranking.py [--players 2000 --tournaments 40 --per-tournament 150]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from simulated import LOOP_STEPS, bare_loop, setup_django, timed_get


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--tournaments", type=int, default=40)
    parser.add_argument("--per-tournament", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    setup_django("ranking")
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.test import Client

    from demo.synthetic import build_played_tournaments
    from ranking import services
    from ranking.models import Placing, PlayerRating, RatingChange
    from scoring.models import TableResult

    start = time.perf_counter()
    call_command("migrate", verbosity=0)
    built = build_played_tournaments(
        players=args.players,
        tournaments=args.tournaments,
        per_tournament=args.per_tournament,
        rounds=args.rounds,
        seed=args.seed,
    )
    build_seconds = time.perf_counter() - start
    start = time.perf_counter()
    recomputed = services.ranking_recompute()
    recompute_seconds = time.perf_counter() - start

    # One rating update after a confirmed table: the last table in the rating order (the usual
    # case, a live tournament's latest table) and the first one (everything after it re-rated).
    ordered = TableResult.objects.order_by(
        "table__round__tournament__starts_on",
        "table__round__tournament__slug",
        "table__round__number",
        "table__number",
    ).select_related("table__round__tournament")
    from django.conf import settings

    loops = [bare_loop()]
    updates = {}
    cases = (
        ("last table", ordered.last(), None),
        ("first table", ordered.first(), None),
        ("first table, in the request as before", ordered.first(), 10**9),
    )
    inline_tables = settings.RATING_INLINE_TABLES
    for name, table_result, inline in cases:
        settings.RATING_INLINE_TABLES = inline or inline_tables
        with transaction.atomic():  # rolled back: each case starts from the same ratings
            begin = time.perf_counter()
            rerated = services.rating_apply_table(table_result=table_result)
            request_seconds = time.perf_counter() - begin
            job = None
            if rerated.deferred:
                begin = time.perf_counter()
                done = services.rating_updates_run()
                job = (time.perf_counter() - begin, done.tables)
            updates[name] = (request_seconds, rerated.tables, job)
            transaction.set_rollback(True)
        loops.append(bare_loop())
    settings.RATING_INLINE_TABLES = inline_tables

    some_player = PlayerRating.objects.order_by("-ordinal").first().player
    pages = [
        ("trivial page (/healthz)", "/healthz"),
        ("season ranking", "/ranking/"),
        ("season ranking, one club", f"/ranking/?club={some_player.club_id}"),
        ("season ranking, CSV", "/ranking/?_export=csv"),
        ("rating list", "/ranking/rating/"),
        ("rating list, CSV", "/ranking/rating/?_export=csv"),
        ("player page", f"/players/{some_player.pk}/"),
    ]
    client = Client()
    cold: dict[str, tuple[float, int, int]] = {}
    connection.close()
    for name, url in pages:
        cold[name] = timed_get(client, url, without_cache=True)
    warm: dict[str, list[float]] = {name: [] for name, _ in pages}
    queries: dict[str, int] = {}
    for _ in range(args.repeat):
        for name, url in pages:
            seconds, status, count = timed_get(client, url, without_cache=True)
            if status != 200:
                print(f"FAILED: {url} answered {status}", file=sys.stderr)
                return 1
            warm[name].append(seconds)
            queries[name] = count

    baseline_cold = cold[pages[0][0]][0]
    baseline_warm = statistics.median(warm[pages[0][0]])
    print(
        f"Ranking benchmark: {built.players:,} players, {built.tournaments} tournaments of "
        f"{args.per_tournament} players and {args.rounds} rounds ({built.tables:,} tables, "
        f"{built.seat_results:,} seat results), SQLite; built in {build_seconds:.1f} s"
    )
    print(
        f"recompute_ranking: {recomputed.placings:,} placings, {RatingChange.objects.count():,} "
        f"rating changes in {recompute_seconds:.2f} s; "
        f"{Placing.objects.values('player').distinct().count():,} players ranked"
    )
    loop = statistics.median(loops)
    trivial = statistics.median(warm[pages[0][0]])
    print(
        f"baselines in this run: bare loop ({LOOP_STEPS:,} multiply-adds) {loop * 1000:.1f} ms, "
        f"trivial page {trivial * 1000:.2f} ms"
    )
    for name, (seconds, tables, job) in updates.items():
        what = "left to a job" if job else f"{tables:,} tables rated"
        print(
            f"rating update after a confirmed table ({name}), in the request: {what} in "
            f"{seconds * 1000:.1f} ms = {seconds / loop:.2f} bare loops = "
            f"{seconds / trivial:.0f} x the trivial page = "
            f"{seconds / recompute_seconds:.3f} x the whole recompute"
        )
        if job:
            job_seconds, job_tables = job
            print(
                f"  the job after the commit: {job_tables:,} tables rated again in "
                f"{job_seconds * 1000:.1f} ms = {job_seconds / loop:.2f} bare loops"
            )
    print(f"pages rendered without the cache; median of {args.repeat}")
    header = ("page", "queries", "cold ms", "x trivial", "warm ms", "x trivial")
    print("{:28} {:>7} {:>9} {:>9} {:>9} {:>9}".format(*header))
    for name, _url in pages:
        cold_seconds = cold[name][0]
        warm_seconds = statistics.median(warm[name])
        print(
            f"{name:28} {queries[name]:>7} {cold_seconds * 1000:>9.1f} "
            f"{cold_seconds / baseline_cold:>9.1f} {warm_seconds * 1000:>9.1f} "
            f"{warm_seconds / baseline_warm:>9.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
