"""`manage.py import_tournament FILE [--slug NEW_SLUG] [--grant-roles]`: read the archive of
`export_tournament` (archive) into this database.

The whole archive is checked before anything is written (every sheet re-scored by the engine
and compared with its confirmed totals), then written in one transaction: on any error nothing
is imported. The tables of published rounds get new entry links (the archive has none). The new
tournament's slug is printed as the last line on standard output, so scripts can pick it up.

The roles the archive names (organisers, chief referees, table referees) are listed on standard
error and given to this database's accounts of those usernames only with --grant-roles: an
account here may belong to someone else than the one of that name where the archive was made."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from archive.plan import NamedRole
from archive.reading import ArchiveError, read_archive
from archive.writing import tournament_import
from scoring.models import DealResult
from tournaments.models import Table, TableToken

ROLE_NAMES = {
    "organisers": "organiser",
    "chief_referees": "chief referee",
    "referees": "table referee",
}


def roles_by_account(roles: list[NamedRole]) -> list[str]:
    """One line per account: its username and the roles named for it, in the archive's order."""
    named: dict[str, list[str]] = {}
    for role in roles:
        text = ROLE_NAMES.get(role.relation, role.relation)
        if role.table is not None:
            text += " at round {} table {}".format(*role.table)
        named.setdefault(role.username, []).append(text)
    return [f"  {name}: {', '.join(texts)}" for name, texts in named.items()]


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
        parser.add_argument(
            "--grant-roles",
            action="store_true",
            help="give the roles the archive names (organisers, chief referees, table referees) "
            "to this database's accounts of those usernames; without it they are listed only",
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
        roles: list[NamedRole] = []
        try:
            tournament = tournament_import(
                read_archive(raw),
                slug=options["slug"],
                on_account_created=created.append,
                grant_roles=options["grant_roles"],
                on_role=roles.append,
            )
        except ArchiveError as error:
            raise CommandError(f"{path}: {error}") from None
        if options["verbosity"] > 0:
            rounds = tournament.rounds.count()
            tables = Table.objects.filter(round__tournament=tournament).count()
            deals = DealResult.objects.filter(table__round__tournament=tournament).count()
            self.stdout.write(
                self.style.SUCCESS(
                    f"Imported {tournament.name}: {tournament.registrations.count()} players, "
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
        if roles:
            # Said whatever the verbosity: who may confirm or unlock tables is at stake.
            heading = (
                "Roles granted as the archive names them:"
                if options["grant_roles"]
                else "Roles the archive names, not granted (import with --grant-roles to "
                "grant them to these accounts of this database):"
            )
            self.stderr.write("\n".join([heading, *roles_by_account(roles)]))
        self.stdout.write(tournament.slug)
