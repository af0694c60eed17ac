"""`manage.py export_tournament <slug>`: the tournament archive (archive) as one JSON
document, to standard output or to a file.

Any table's sheet re-scores with the engine alone, e.g.
    python -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["rounds"][0]["tables"][0]
    ["sheet"]))' < archive.json | python -m engine score
and gives the table's "totals"."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from archive.export import tournament_archive
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Write a tournament's archive as JSON: its settings, clubs, players, entries and, for "
        "every round and table, the sheet in the engine's format with the confirmed totals."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the tournament's slug (as in /t/<slug>/)")
        parser.add_argument("--output", metavar="FILE", help="write to FILE, not to the output")

    def handle(self, *args: Any, **options: Any) -> None:
        slug = options["slug"]
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f'there is no tournament with the slug "{slug}"')
        # Latvian letters stay letters: names are written as people wrote them.
        document = json.dumps(tournament_archive(tournament), ensure_ascii=False, indent=2)
        output = options["output"]
        if output is None:
            self.stdout.write(document)
            return
        try:
            with open(output, "w", encoding="utf-8") as file:
                file.write(document + "\n")
        except OSError as error:
            raise CommandError(f"cannot write {output}: {error.strerror}") from None
        if options["verbosity"] > 0:
            self.stderr.write(f"Archive of {tournament.name} written to {output}.")
