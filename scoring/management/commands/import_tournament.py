"""`manage.py import_tournament FILE [--slug NEW_SLUG]`: read the archive of `export_tournament`
(scoring.archive) into this database.

The whole archive is checked before anything is written (every sheet re-scored by the engine
and compared with its confirmed totals), then written in one transaction: on any error nothing
is imported. The tables of published rounds get new entry links (the archive has none). The new
tournament's slug is printed as the last line on standard output, so scripts can pick it up."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.archive import ArchiveError, read_archive, tournament_import
from scoring.models import DealResult
from tournaments.models import Table, TableToken


class Command(BaseCommand):
    help = (
        "Import a tournament archive written by export_tournament: settings, clubs, players, "
        "entries, rounds, tables, every deal version, confirmed results and the audit log."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE", help="the archive (JSON); - reads stdin")
        parser.add_argument(
            "--slug",
            metavar="NEW_SLUG",
            help="import under this slug instead of the archive's (e.g. when that one is taken)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            if path == "-":
                raw = sys.stdin.buffer.read()
            else:
                with open(path, "rb") as file:
                    raw = file.read()
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}") from None
        created: list[str] = []
        try:
            tournament = tournament_import(
                read_archive(raw), slug=options["slug"], on_account_created=created.append
            )
        except ArchiveError as error:
            raise CommandError(f"{path}: {error}") from None
        if options["verbosity"] > 0:
            rounds = tournament.rounds.count()
            tables = Table.objects.filter(round__tournament=tournament).count()
            deals = DealResult.objects.filter(table__round__tournament=tournament).count()
            self.stdout.write(
                self.style.SUCCESS(
                    f"Imported {tournament.name}: {tournament.entries.count()} players, "
                    f"{rounds} rounds, {tables} tables, {deals} deal versions."
                )
            )
            links = TableToken.objects.filter(table__round__tournament=tournament).count()
            if links:
                self.stdout.write(
                    f"{links} tables have new entry links: reprint the score sheets of the "
                    "rounds still being played (the QR codes printed before do not open here)."
                )
            if created:
                self.stderr.write(
                    "Accounts named in the archive were missing and are created inactive, "
                    f"without a password: {', '.join(created)}."
                )
        self.stdout.write(tournament.slug)
