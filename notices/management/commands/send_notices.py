"""`manage.py send_notices`: the process that sends the players' messages (Web Push, mail)
off the web server, retrying what failed; `--once` sends what is due now and stops (a timer's
job, or what a stopped process left)."""

from __future__ import annotations

import datetime
import signal
import threading
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from notices.services.sender import notices_work, run_sender


class Command(BaseCommand):
    help = "Send the notices to players (Web Push, mail): until stopped, or --once."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true", help="send what is due now, and stop")
        parser.add_argument(
            "--poll", type=float, default=1.0, help="seconds between looks (default 1)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["once"]:
            notices_work()
            return
        stop = threading.Event()
        for number in (signal.SIGTERM, signal.SIGINT):
            signal.signal(number, lambda *_: stop.set())
        run_sender(stop=stop, poll=datetime.timedelta(seconds=options["poll"]))
