"""Recompute the season ranking's placings and every rating from the stored results."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from ranking.services import ranking_recompute


class Command(BaseCommand):
    help = (
        "Rebuild everything the ranking pages show from the confirmed results: the placings of "
        "every finished tournament and every player's rating, replayed table by table in the "
        "rating order. The same results always give the same ranking and ratings."
    )

    def handle(self, *args, **options) -> None:
        start = time.perf_counter()
        done = ranking_recompute()
        self.stdout.write(
            self.style.SUCCESS(
                f"{done.tournaments} finished tournaments ({done.placings} placings), "
                f"{done.tables} tables rated for {done.players} players "
                f"in {time.perf_counter() - start:.1f} s"
            )
        )
