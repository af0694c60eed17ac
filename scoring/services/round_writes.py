"""The round's writes that scoring's results decide: closing it once every table is confirmed,
seating it by the standings before it, and resetting its clock, which a table confirmed short
refuses."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.page_cache import tournament_changed
from scoring import reactions
from scoring.selectors.progress import tables_confirmed_short
from scoring.selectors.standings_before import standings_before
from scoring.services.deal_entries import Writer
from tournaments import services as tournament_services
from tournaments.models import AuditRecord, Registration, Round, RoundStatus
from tournaments.services import ServiceError, audit


@transaction.atomic
def round_close(*, round_: Round, writer: Writer) -> Round:
    """Close a round once every table is confirmed: its results are final."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status not in (RoundStatus.PUBLISHED, RoundStatus.IN_PLAY):
        raise ServiceError(
            _("round %(number)d is %(status)s")
            % {"number": round_.number, "status": round_.get_status_display()}
        )
    open_tables = round_.tables.filter(result__isnull=True).values_list("number", flat=True)
    if open_tables:
        numbers = ", ".join(str(number) for number in open_tables)
        raise ServiceError(
            ngettext(
                "table %(numbers)s is not confirmed yet",
                "tables %(numbers)s are not confirmed yet",
                len(open_tables),
            )
            % {"numbers": numbers}
        )
    round_.status = RoundStatus.CLOSED
    round_.save(update_fields=["status"])
    # A finished tournament's placings for the ranking.
    reactions.round_closed.send(Round, round_=round_)
    tournament_changed(round_.tournament_id)
    audit(
        action=AuditRecord.Action.ROUND_CLOSED,
        by=writer.account,
        tournament=round_.tournament,
        ip_address=writer.ip_address,
        round=round_.number,
    )
    return round_


@transaction.atomic
def round_generate_seating(
    *,
    round_: Round,
    mode: str | None = None,
    seed: int | None = None,
    by: User | None,
    confirmation: str = "",
    ip_address: str | None = None,
    present: Iterable[Registration] | None = None,
    shown_until: int | None = None,
) -> Round:
    """Seat a round (tournaments.services.round_generate_seating) by the standings before it,
    read here from the confirmed results: the seating, below scoring, is handed them."""
    return tournament_services.round_generate_seating(
        round_=round_,
        standings=standings_before(tournament=round_.tournament, before_round=round_.number),
        mode=mode,
        seed=seed,
        by=by,
        confirmation=confirmation,
        ip_address=ip_address,
        present=present,
        shown_until=shown_until,
    )


@transaction.atomic
def round_clock_reset(*, round_: Round, by: User | None, ip_address: str | None = None) -> Round:
    """Stop a clock started by mistake (tournaments.services.round_clock_reset), handed the
    tables confirmed short, which refuse it. They are read under the round's lock, on which a
    short confirmation queues."""
    locked = Round.objects.select_for_update(of=("self",)).get(pk=round_.pk)
    return tournament_services.round_clock_reset(
        round_=locked,
        by=by,
        tables_confirmed_short=tables_confirmed_short(round_=locked),
        ip_address=ip_address,
    )
