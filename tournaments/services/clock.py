"""The round clock of a timed round: started, stopped and reset, time called."""

import datetime
from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.page_cache import tournament_changed
from tournaments import permissions, round_reactions
from tournaments.models import AuditRecord, Round
from tournaments.round_clock import CLOCK_STATUSES, round_clock
from tournaments.services.audit import audit
from tournaments.services.refusal import ServiceError


def _lock_clock_round(round_: Round, by: User | None) -> Round:
    """The round row locked (every clock write and a short confirmation queue on it), after
    checking that `by` keeps the tournament's clock and that the round is being played."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    if not permissions.can_run_clock(by, round_.tournament):
        raise ServiceError(_("only the organisers and the chief referee keep the round clock"))
    if round_.status not in CLOCK_STATUSES:
        raise ServiceError(
            _(
                "round %(number)d is %(status)s: the clock runs while a round is published "
                "or in play"
            )
            % {"number": round_.number, "status": round_.get_status_display()}
        )
    return round_


def _moment(value: datetime.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


@transaction.atomic
def round_clock_start(*, round_: Round, by: User | None, ip_address: str | None = None) -> Round:
    """Start the round's clock with the tournament's round time limit (copied to the round: a
    later change of the option applies to the next clock)."""
    round_ = _lock_clock_round(round_, by)
    clock = round_clock(round_)
    if clock.is_started:
        raise ServiceError(
            _("the clock of round %(number)d was already started at %(time)s")
            % {
                "number": round_.number,
                "time": formats.time_format(timezone.localtime(clock.started_at), "TIME_FORMAT"),
            }
        )
    if not clock.is_timed:
        raise ServiceError(
            _("the tournament has no round time limit: set one in its settings to time the rounds")
        )
    round_.clock_started_at = clock.now
    round_.time_limit = clock.limit_minutes
    round_.time_called_at = None
    round_.save(update_fields=["clock_started_at", "time_limit", "time_called_at"])
    tournament_changed(round_.tournament_id)
    round_reactions.round_clock_started.send(Round, round_=round_)
    started = round_clock(round_, now=clock.now)
    audit(
        action=AuditRecord.Action.CLOCK_STARTED,
        by=by,
        tournament=round_.tournament,
        ip_address=ip_address,
        round=round_.number,
        time_limit=round_.time_limit,
        started_at=_moment(started.started_at),
        ends_at=_moment(started.deadline),
    )
    return round_


@transaction.atomic
def round_clock_reset(
    *,
    round_: Round,
    by: User | None,
    tables_confirmed_short: Sequence[int],
    ip_address: str | None = None,
) -> Round:
    """Stop a clock started by mistake: back to not started. Refused once time was called or a
    table was confirmed short (its result depends on the clock): `tables_confirmed_short`, the
    numbers of those tables, which scoring reads (scoring.services.round_clock_reset)."""
    round_ = _lock_clock_round(round_, by)
    clock = round_clock(round_)
    if not clock.is_started:
        raise ServiceError(
            _("the clock of round %(number)d has not started") % {"number": round_.number}
        )
    if clock.was_called:
        raise ServiceError(
            _("time was called in round %(number)d: its clock can no longer be reset")
            % {"number": round_.number}
        )
    if tables_confirmed_short:
        raise ServiceError(
            ngettext(
                "table %(numbers)s was confirmed when time was up: the clock can no longer be "
                "reset",
                "tables %(numbers)s were confirmed when time was up: the clock can no longer be "
                "reset",
                len(tables_confirmed_short),
            )
            % {"numbers": ", ".join(str(number) for number in tables_confirmed_short)}
        )
    audit(
        action=AuditRecord.Action.CLOCK_RESET,
        by=by,
        tournament=round_.tournament,
        ip_address=ip_address,
        round=round_.number,
        time_limit=round_.time_limit,
        started_at=_moment(clock.started_at),
        ends_at=_moment(clock.deadline),
        time_was_up=clock.is_up,
    )
    round_.clock_started_at = None
    round_.time_limit = None
    round_.time_called_at = None
    round_.save(update_fields=["clock_started_at", "time_limit", "time_called_at"])
    tournament_changed(round_.tournament_id)
    return round_


@transaction.atomic
def round_time_call(*, round_: Round, by: User | None, ip_address: str | None = None) -> Round:
    """The chief referee calls time before the clock runs out: every table finishes the deal
    under way and may then be confirmed with the deals it has played."""
    round_ = _lock_clock_round(round_, by)
    clock = round_clock(round_)
    if not clock.is_started:
        raise ServiceError(
            _("the clock of round %(number)d has not started: start it before calling time")
            % {"number": round_.number}
        )
    if clock.is_up:
        raise ServiceError(
            _("time is already up in round %(number)d (%(time)s)")
            % {
                "number": round_.number,
                "time": formats.time_format(timezone.localtime(clock.ended_at), "TIME_FORMAT"),
            }
        )
    round_.time_called_at = clock.now
    round_.save(update_fields=["time_called_at"])
    tournament_changed(round_.tournament_id)
    round_reactions.round_time_called.send(Round, round_=round_)
    audit(
        action=AuditRecord.Action.TIME_CALLED,
        by=by,
        tournament=round_.tournament,
        ip_address=ip_address,
        round=round_.number,
        time_limit=round_.time_limit,
        started_at=_moment(clock.started_at),
        ends_at=_moment(clock.deadline),
        time_called_at=_moment(clock.now),
        seconds_left=clock.remaining_seconds,
    )
    return round_
