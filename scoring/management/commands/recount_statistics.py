"""Count every confirmed table's deals again into the players' statistics."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from scoring.services.confirmation import seat_tallies_recount


class Command(BaseCommand):
    help = (
        "Count every confirmed table's deals again into its players' statistics (after an "
        "upgrade from a version that did not count them)."
    )

    def handle(self, *args, **options) -> None:
        start = time.perf_counter()
        tables = seat_tallies_recount()
        self.stdout.write(
            self.style.SUCCESS(
                f"{tables} confirmed tables counted in {time.perf_counter() - start:.1f} s"
            )
        )
