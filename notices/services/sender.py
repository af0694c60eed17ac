"""Who sends the notices, off the request path: settings.NOTICES_SENDER.

- "thread": a thread of the web process, woken when a notice commits; it sends what is due
  and waits for the next retry while deliveries are pending, then ends. What a stopped process
  left pending is sent by the next one woken, or by `manage.py send_notices`.
- "worker": only `manage.py send_notices` (a process of its own, polling every second).
- "inline": at the commit, in the request's process (the tests: one thread, one database
  connection).

The notices and deliveries are rows: a restart of whoever sends loses none."""

from __future__ import annotations

import datetime
import logging
import threading

from django.conf import settings
from django.db import close_old_connections, connections
from django.db.models import Min
from django.utils import timezone

from notices.models import Delivery, DeliveryState, Notice
from notices.services.expansion import notices_expand
from notices.services.sending import deliveries_send_due

logger = logging.getLogger(__name__)

# The longest the thread or the worker sleeps between looks (a notice from another process
# wakes nobody here).
POLL = datetime.timedelta(seconds=30)

_wake = threading.Event()
_thread_lock = threading.Lock()
_thread: threading.Thread | None = None


def notices_work() -> bool:
    """Expand the waiting notices and send the due deliveries, until none is left now; whether
    anything was done."""
    done = False
    while True:
        expanded = notices_expand()
        report = deliveries_send_due()
        if not expanded and not report.tried:
            return done
        done = True


def next_due() -> datetime.datetime | None:
    """When the next pending delivery is due (None: none waits, nor any notice)."""
    if Notice.objects.filter(expanded_at__isnull=True).exists():
        return timezone.now()
    return Delivery.objects.filter(state=DeliveryState.PENDING).aggregate(
        due=Min("next_attempt_at")
    )["due"]


def run_sender(
    *, stop: threading.Event, poll: datetime.timedelta = POLL, exit_idle: bool = False
) -> None:
    """Send until `stop` is set (or, with `exit_idle`, until nothing is pending, or the database
    fails: what waits is then left to the next wake or to `manage.py send_notices`)."""
    while not stop.is_set():
        try:
            close_old_connections()
            notices_work()
            due = next_due()
        except Exception:  # a database gone for a moment: try again after the poll
            logger.exception("sending the notices failed: tried again shortly")
            if exit_idle:
                return
            due = timezone.now() + poll
        if due is None and exit_idle:
            return
        wait = poll if due is None else min(max(due - timezone.now(), datetime.timedelta(0)), poll)
        if _wake.wait(timeout=wait.total_seconds()):
            _wake.clear()


def _thread_main() -> None:
    global _thread
    try:
        while True:
            run_sender(stop=threading.Event(), exit_idle=True)
            with _thread_lock:  # a wake now either finds this thread going on or none
                if not _wake.is_set():
                    _thread = None
                    return
                _wake.clear()
    finally:
        connections.close_all()
        with _thread_lock:
            if _thread is threading.current_thread():
                _thread = None


def wake_sender() -> None:
    """A notice committed: have it sent (by settings.NOTICES_SENDER)."""
    mode = settings.NOTICES_SENDER
    if mode == "inline":
        notices_work()
    elif mode == "thread":
        global _thread
        with _thread_lock:
            _wake.set()
            if _thread is None:
                _thread = threading.Thread(target=_thread_main, name="notices", daemon=True)
                _thread.start()
