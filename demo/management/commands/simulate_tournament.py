"""`manage.py simulate_tournament`: a complete, realistic tournament for demos, benchmarks and load
tests, made through the same services as real use (demo.simulation). The slug is printed as
the last line on standard output, so scripts can pick it up."""

from __future__ import annotations

import secrets
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from demo.simulation import Progress, simulate_tournament
from engine.presets import PRESETS
from tournaments.models import AllPass, Table, Tournament
from tournaments.services import ServiceError

PROGRESS_INTERVAL_SECONDS = 2.0


class Command(BaseCommand):
    help = (
        "Create a complete simulated tournament (players, clubs, seated rounds, random valid "
        "deals, corrections, confirmations) and print its slug as the last line."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True, help="number of players")
        parser.add_argument("--rounds", type=int, required=True, help="number of rounds")
        parser.add_argument(
            "--preset",
            choices=list(PRESETS),
            default="classic",
            help="the rule-set preset every option comes from (default classic)",
        )
        parser.add_argument(
            "--deals",
            type=int,
            help="deals per round, 1-60 (default: the preset's, 24 in classic, 28 in lzf)",
        )
        parser.add_argument(
            "--seed", type=int, help="the same seed gives the same tournament (default: random)"
        )
        parser.add_argument("--slug", help="the tournament's slug (default: from its name)")
        parser.add_argument("--name", help="the tournament's name (default: a city's cup)")
        parser.add_argument(
            "--all-pass",
            choices=[choice.value for choice in AllPass],
            help="when everyone passes: a common pule, galdiņš, or both (default: the preset's)",
        )
        parser.add_argument(
            "--small-zole",
            action="store_true",
            default=None,
            help="mazā zole is played (default: as the preset says)",
        )
        parser.add_argument(
            "--skip-existing",
            action="store_true",
            help="if a tournament with --slug exists, leave it as it is and print its slug",
        )
        parser.add_argument(
            "--fast",
            action="store_true",
            help="for huge load tests only: every sheet is checked by the engine, but the deals "
            "and results are written in bulk instead of deal by deal through the services",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        slug = options["slug"]
        if options["skip_existing"]:
            if slug is None:
                raise CommandError("--skip-existing needs --slug")
            if Tournament.objects.filter(slug=slug).exists():
                if options["verbosity"] > 0:
                    self.stdout.write(f"Tournament {slug} exists: left as it is.")
                self.stdout.write(slug)
                return
        seed = options["seed"]
        if seed is None:
            seed = secrets.randbelow(1_000_000)
            self.stderr.write(f"seed {seed}")
        started = time.monotonic()
        try:
            tournament = simulate_tournament(
                players=options["players"],
                rounds=options["rounds"],
                preset=options["preset"],
                deals=options["deals"],
                seed=seed,
                slug=slug,
                name=options["name"],
                all_pass=options["all_pass"],
                small_zole=options["small_zole"],
                fast=options["fast"],
                progress=self._progress_printer(),
            )
        except ServiceError as error:
            raise CommandError(str(error)) from None
        if options["verbosity"] > 0:
            per_round = tournament.deals_per_round
            deals = Table.objects.filter(round__tournament=tournament).count() * per_round
            self.stdout.write(
                self.style.SUCCESS(
                    f"Simulated {tournament.name}: {options['players']} players, "
                    f"{options['rounds']} rounds, {per_round} deals a round ({deals} deals, "
                    f"preset {options['preset']}) in {time.monotonic() - started:.1f} s."
                )
            )
        self.stdout.write(tournament.slug)

    def _progress_printer(self):
        """Progress to standard error, at most every few seconds: short runs print none."""
        last_printed = time.monotonic()
        printed_any = False

        def report(progress: Progress) -> None:
            nonlocal last_printed, printed_any
            now = time.monotonic()
            round_done = progress.tables_done == progress.tables
            if now - last_printed >= PROGRESS_INTERVAL_SECONDS or (round_done and printed_any):
                self.stderr.write(
                    f"round {progress.round_number}/{progress.rounds}: "
                    f"{progress.tables_done}/{progress.tables} tables"
                )
                last_printed = now
                printed_any = True

        return report
