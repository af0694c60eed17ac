"""Run the re-ratings a stopped process left waiting (ranking.models.RatingUpdate)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from ranking.services import rating_updates_run


class Command(BaseCommand):
    help = (
        "Rate again the tables a correction reached, if a re-rating is still waiting (its "
        "process was stopped before it ran): the same as the job a confirmation starts."
    )

    def handle(self, *args, **options) -> None:
        done = rating_updates_run()
        if done is None:
            self.stdout.write("No rating update was waiting.")
        else:
            self.stdout.write(
                self.style.SUCCESS(f"{done.tables} tables rated again for {done.players} players")
            )
