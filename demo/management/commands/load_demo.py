"""`manage.py load_demo`: fill an empty database with demo clubs and players."""

from typing import Any

from django.core.management.base import BaseCommand

from demo.sample_register import demo_load


class Command(BaseCommand):
    help = "Create demo clubs and players (idempotent: existing ones are kept)."

    def handle(self, *args: Any, **options: Any) -> None:
        created = demo_load()
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo data: created {created['clubs']} clubs and {created['players']} players."
            )
        )
