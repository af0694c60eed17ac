"""Benchmark of the statistics at a federation's size: a season of 150 players who play 10
tournaments of 7 rounds of 28 deals (about 75,000 deals, 300,000 players' deals), written with
`simulate_tournament --fast` (every sheet checked and counted by the engine) in a throwaway
SQLite database (or the database URL given), the same 150 players in every tournament, their
placings and ratings recomputed from the results.

It times, as ratios to the standings page's miss in the same run (the page every viewer polls,
built with the page cache emptied first): a player's page with his statistics (his career,
his season, one tournament), the API's statistics, a tournament's statistics page, the calendar
feed and an embed, each on a miss and from the cache; with each one's query count.

    .venv/bin/python bench/statistics_pages.py [--players 150 --tournaments 10 --rounds 7]
    .venv/bin/python bench/statistics_pages.py --quick    # a small season, to try it
"""

from __future__ import annotations

import argparse
import datetime
import io
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from simulated import measured_get, setup_django


def build_season(*, players: int, tournaments: int, rounds: int, deals: int) -> float:
    """The season's tournaments, its players the same in each; returns the seconds it took."""
    from django.core.management import call_command
    from django.db import transaction

    from tournaments.models import Player, Registration, Tournament

    start = time.perf_counter()
    call_command("migrate", verbosity=0)
    if Tournament.objects.filter(slug="sezona-1").exists():
        return 0.0
    for number in range(1, tournaments + 1):
        call_command(
            "simulate_tournament",
            players=players,
            rounds=rounds,
            deals=deals,
            seed=number,
            slug=f"sezona-{number}",
            fast=True,
            verbosity=0,
            stdout=io.StringIO(),
        )
    with transaction.atomic():
        season_players = list(
            Player.objects.filter(registrations__tournament__slug="sezona-1").order_by("pk")
        )
        for number in range(1, tournaments + 1):
            tournament = Tournament.objects.get(slug=f"sezona-{number}")
            Tournament.objects.filter(pk=tournament.pk).update(
                starts_on=datetime.date(2026, 2, 1) + datetime.timedelta(weeks=3 * number)
            )
            entries = Registration.objects.filter(tournament=tournament).order_by("pk")
            for entry, player in zip(entries, season_players, strict=True):
                if entry.player_id != player.pk:
                    Registration.objects.filter(pk=entry.pk).update(player=player)
        Player.objects.filter(registrations__isnull=True).delete()
    call_command("recompute_ranking", verbosity=0, stdout=io.StringIO())
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=150)
    parser.add_argument("--tournaments", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--deals", type=int, default=28)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--quick", action="store_true", help="a small season, to try it")
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    parser.add_argument("--database", help="a SQLite file or a database URL, reused if built")
    args = parser.parse_args()
    if args.quick:
        args.players, args.tournaments, args.rounds, args.deals, args.repeat = 9, 2, 2, 6, 3

    # Messages to players wait for a sender of their own: no thread of this process holds the
    # SQLite file while the season is written.
    os.environ["NOTICES_SENDER"] = "worker"
    setup_django("statistics", args.database)
    built = build_season(
        players=args.players, tournaments=args.tournaments, rounds=args.rounds, deals=args.deals
    )
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from ranking.models import Season
    from scoring.models import DealResult
    from tournaments.models import Player

    last = f"sezona-{args.tournaments}"
    player = Player.objects.filter(registrations__tournament__slug=last).order_by("pk").first()
    season = next(s for s in Season.objects.all() if s.covers(datetime.date(2026, 6, 1)))
    pages = [
        ("standings (baseline)", reverse("public:standings", args=[last])),
        ("player page, career", reverse("public:player", args=[player.pk])),
        (
            "player page, season",
            reverse("public:player", args=[player.pk]) + f"?season={season.pk}",
        ),
        (
            "player page, tournament",
            reverse("public:player", args=[player.pk]) + f"?tournament={last}",
        ),
        ("API player statistics", reverse("api:player_statistics", args=[player.pk])),
    ]
    pages += [
        ("tournament statistics", reverse("public:statistics", args=[last])),
        ("calendar feed", reverse("public:calendar")),
        ("embed: standings", reverse("public:embed_standings", args=[last])),
        ("embed: season ranking", reverse("public:embed_ranking")),
    ]

    client = Client()
    missed: dict[str, list[float]] = {name: [] for name, _ in pages}
    cpu: dict[str, list[float]] = {name: [] for name, _ in pages}
    cached: dict[str, list[float]] = {name: [] for name, _ in pages}
    queries: dict[str, int] = {}
    for _ in range(args.repeat):
        for name, url in pages:  # interleaved, so a noisy moment hits every page alike
            seconds, cpu_seconds, status, count = measured_get(client, url, without_cache=True)
            if status != 200:
                print(f"FAILED: {url} answered {status}", file=sys.stderr)
                return 1
            missed[name].append(seconds)
            cpu[name].append(cpu_seconds)
            queries[name] = count
            seconds, _cpu, _status, _count = measured_get(client, url)
            cached[name].append(seconds)

    deals = DealResult.objects.count()
    baseline = statistics.median(missed[pages[0][0]])
    baseline_cached = statistics.median(cached[pages[0][0]])
    print(
        f"Statistics benchmark: {args.players} players, {args.tournaments} tournaments of "
        f"{args.rounds} rounds of {args.deals} deals ({deals:,} deal entries), "
        f"{connection.vendor}, built in {built:.1f} s; median of {args.repeat}"
    )
    header = ("page", "queries", "miss ms", "x", "CPU ms", "cached ms", "x")
    print("{:26} {:>7} {:>8} {:>6} {:>7} {:>9} {:>6}".format(*header))
    figures = {}
    for name, _url in pages:
        miss = statistics.median(missed[name])
        hit = statistics.median(cached[name])
        figures[name] = {
            "queries": queries[name],
            "miss_ms": round(miss * 1000, 2),
            "miss_ratio": round(miss / baseline, 3),
            "cpu_ms": round(statistics.median(cpu[name]) * 1000, 2),
            "cached_ms": round(hit * 1000, 2),
            "cached_ratio": round(hit / baseline_cached, 3),
        }
        print(
            f"{name[:26]:26} {queries[name]:>7} {miss * 1000:>8.1f} {miss / baseline:>6.2f} "
            f"{statistics.median(cpu[name]) * 1000:>7.1f} {hit * 1000:>9.2f} "
            f"{hit / baseline_cached:>6.2f}"
        )
    print('"x": the ratio to the standings page\'s figure in the same column, in this run')
    if args.json:
        print(json.dumps({"deals": deals, "pages": figures}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
