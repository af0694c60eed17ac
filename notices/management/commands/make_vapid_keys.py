"""`manage.py make_vapid_keys`: a new VAPID key pair for Web Push, printed as the environment's
lines (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY) to put in the site's settings file. Keep the
pair: a new one makes every phone's subscription useless (their players subscribe again)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from notices.push import vapid_keys_make


class Command(BaseCommand):
    help = "Make a VAPID key pair for Web Push and print it as environment lines."

    def handle(self, *args: Any, **options: Any) -> None:
        private, public = vapid_keys_make()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}\n")
