"""The round clock of a timed round: the one place that says how much time is left and whether
time is up (docs/rules.md, "Seats, dealers and who plays": after the signal the deal under way is
finished; a table's round then ends with the deals it has played).

A tournament with a round time limit (`Tournament.round_time_limit`, minutes) times its rounds.
Starting a round's clock copies the limit into `Round.time_limit` (a later change of the
tournament's option applies to the next clock) and sets `Round.clock_started_at`; the chief
referee may call time early (`Round.time_called_at`). Time is up when time was called or the
limit has run out. Every page and service reads these facts from `round_clock`; the writes are
`tournaments.services.round_clock_start`, `round_clock_reset` and `round_time_call`.

Reads only what the round row holds (and its tournament's limit before the clock starts): no
query when the round comes with its tournament.
"""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass

from django.utils import timezone

from tournaments.models import Round, RoundStatus

CLOCK_STATUSES = (RoundStatus.PUBLISHED, RoundStatus.IN_PLAY)


@dataclass(frozen=True)
class RoundClock:
    round_number: int
    round_is_open: bool  # published or in play: the clock can be started, called, reset
    limit_minutes: int | None  # the round's limit once started, else the tournament's
    started_at: datetime.datetime | None
    time_called_at: datetime.datetime | None
    now: datetime.datetime

    @property
    def is_timed(self) -> bool:
        """The round is played against a clock (the tournament has a limit, or the clock of
        this round was started with one)."""
        return self.limit_minutes is not None

    @property
    def is_started(self) -> bool:
        return self.started_at is not None

    @property
    def deadline(self) -> datetime.datetime | None:
        """When the limit runs out (None before the clock starts)."""
        if self.started_at is None or self.limit_minutes is None:
            return None
        return self.started_at + datetime.timedelta(minutes=self.limit_minutes)

    @property
    def was_called(self) -> bool:
        """The chief referee called time before the clock ran out."""
        return self.time_called_at is not None

    @property
    def is_up(self) -> bool:
        deadline = self.deadline
        return self.was_called or (deadline is not None and self.now >= deadline)

    @property
    def ended_at(self) -> datetime.datetime | None:
        """When time was up: called, or run out; None while it is not."""
        if not self.is_up:
            return None
        return self.time_called_at if self.was_called else self.deadline

    @property
    def is_running(self) -> bool:
        return self.is_started and not self.is_up

    @property
    def remaining_seconds(self) -> int:
        """Whole seconds left (rounded up: 0 only when time is up); 0 unless running."""
        deadline = self.deadline
        if not self.is_running or deadline is None:
            return 0
        return max(0, math.ceil((deadline - self.now).total_seconds()))

    @property
    def remaining_text(self) -> str:
        """The time left as a clock shows it: 49:05, or 1:02:09 from an hour up."""
        return clock_text(self.remaining_seconds)

    @property
    def can_start(self) -> bool:
        return self.round_is_open and self.is_timed and not self.is_started

    @property
    def can_call(self) -> bool:
        return self.round_is_open and self.is_running

    @property
    def can_reset(self) -> bool:
        """What the clock alone allows; the service also refuses once a table was confirmed
        short (scoring.services.round_clock_reset)."""
        return self.round_is_open and self.is_started and not self.was_called


def clock_text(seconds: int) -> str:
    minutes, seconds = divmod(max(0, seconds), 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes:02d}:{seconds:02d}"


def round_clock(round_: Round, *, now: datetime.datetime | None = None) -> RoundClock:
    """The round's clock as it stands `now` (default: the present)."""
    started = round_.clock_started_at is not None
    return RoundClock(
        round_number=round_.number,
        round_is_open=round_.status in CLOCK_STATUSES,
        limit_minutes=round_.time_limit if started else round_.tournament.round_time_limit,
        started_at=round_.clock_started_at,
        time_called_at=round_.time_called_at,
        now=now or timezone.now(),
    )


def time_is_up(round_: Round, *, now: datetime.datetime | None = None) -> bool:
    return round_clock(round_, now=now).is_up
