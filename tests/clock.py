"""A fixed clock for the tests of timed rounds: `django.utils.timezone.now` patched, so the round
clock (tournaments/round_clock.py), the services and every auto_now_add field read the same moment,
moved on by hand."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils import timezone

START = datetime.datetime(2026, 12, 5, 10, 0, tzinfo=datetime.UTC)


@dataclass
class FixedClock:
    now: datetime.datetime = START

    def __call__(self) -> datetime.datetime:
        return self.now

    def advance(self, **delta: float) -> datetime.datetime:
        self.now += datetime.timedelta(**delta)
        return self.now


def fix_the_clock(monkeypatch) -> FixedClock:
    clock = FixedClock()
    monkeypatch.setattr(timezone, "now", clock)
    return clock
