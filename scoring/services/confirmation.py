"""A table's confirmation, which locks it and gives its players' seat results (`seat_results`,
the one place a round result becomes the row the standings read), and the chief referee's
writes on a table's end: unlocking a confirmed table, allowing a table more deals once the
round's time is up."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, replace

from django.db import transaction
from django.utils.translation import gettext as _

from core.page_cache import tournament_changed
from engine import score_sheet
from engine.standings import RoundResult, round_results
from engine.statistics import TALLY_FIELDS, SeatTally, seat_tallies
from scoring import reactions
from scoring.models import (
    TWELFTHS,
    SeatResult,
    TableResult,
)
from scoring.services.deal_entries import ConflictError, Writer, _require_open
from scoring.sheet.lines import engine_sheet
from scoring.sheet.reader import locked_sheet, table_sheet
from scoring.sheet.shape import TableSheet
from tournaments import permissions
from tournaments.models import AuditRecord, Registration, RoundStatus, Table
from tournaments.round_clock import time_is_up
from tournaments.services import ServiceError, audit


@dataclass(frozen=True)
class ConfirmedTable:
    """A table confirmed by `table_confirm_on_sheet`, and its sheet just after: the sheet read
    under the table's lock, with the confirmation."""

    result: TableResult
    sheet: TableSheet


def table_confirm(
    *,
    table: Table,
    writer: Writer,
    deals_seen: int,
    confirmer: Registration | None = None,
) -> TableResult:
    """`table_confirm_on_sheet`'s confirmation."""
    return table_confirm_on_sheet(
        table=table, writer=writer, deals_seen=deals_seen, confirmer=confirmer
    ).result


@transaction.atomic
def table_confirm_on_sheet(
    *,
    table: Table,
    writer: Writer,
    deals_seen: int,
    confirmer: Registration | None = None,
) -> ConfirmedTable:
    """A second person confirms the table's round: another player at the table (through the
    table's link) or the chief referee. The confirmed table is locked; the standings read it.

    A table confirms once every planned deal is in; in a timed round whose time is up
    (`tournaments.round_clock`), also with the deals it has played (at least one): the result is
    then marked `time_called` and its sheet is closed and settled as usual. `deals_seen` is the
    number of deals the confirmer checked: a sheet changed meanwhile is a conflict."""
    state = locked_sheet(table)
    _require_open(state)
    tournament = state.round.tournament
    is_chief = writer.account is not None and permissions.is_chief_referee(
        writer.account, tournament
    )
    seated = {seat.registration_id for seat in state.frame.seats}
    if not is_chief and (confirmer is None or confirmer.pk not in seated):
        raise ServiceError(_("a player at this table, or the chief referee, confirms the table"))
    if deals_seen != state.deals_played:
        raise ConflictError(
            _(
                "table %(number)d has %(played)d deals now, not the %(seen)d you checked: "
                "look at the sheet again before confirming"
            )
            % {"number": state.table.number, "played": state.deals_played, "seen": deals_seen}
        )
    time_called = state.deals_played < state.deals_per_round
    if time_called:
        _require_time_up(state)
    closed = score_sheet(
        engine_sheet(
            state.table,
            seats=state.frame.seats,
            results=state.results,
            rules=state.rule_set.rules,
            closed=True,
        )
    )
    result = TableResult.objects.create(
        table=state.table,
        confirmed_by=writer.account,
        confirmed_by_registration=confirmer,
        last_position=len(state.entries),
        time_called=time_called,
        last_version_id=max(result.pk for result in state.results),
    )
    SeatResult.objects.bulk_create(
        seat_results(
            result,
            round_results(state.round.number, closed.totals, state.rule_set.place_scheme),
            tallies=seat_tallies(closed),
        )
    )
    # The players' ratings, in this transaction.
    reactions.table_confirmed.send(TableResult, table_result=result)
    tournament_changed(tournament.pk)
    audit(
        action=AuditRecord.Action.TABLE_CONFIRMED,
        by=writer.account,
        tournament=tournament,
        table=state.table,
        ip_address=writer.ip_address,
        round=state.round.number,
        confirmed_by=confirmer.player.full_name if confirmer else None,
        totals=closed.totals,
        via=writer.via,
        **({"time_called": True, "deals": state.deals_played} if time_called else {}),
    )
    return ConfirmedTable(result, replace(state, frame=replace(state.frame, confirmation=result)))


def seat_results(
    table_result: TableResult,
    rows: Iterable[RoundResult],
    entry_of: Callable[[str], Registration] | None = None,
    *,
    tallies: Mapping[str, SeatTally],
) -> list[SeatResult]:
    """A confirmed table's `SeatResult` rows, unsaved, from the engine's round results and each
    player's tally of the closed sheet (`engine.statistics.seat_tallies`): the one place that
    turns a round result into the row the standings and the statistics read (a confirmation,
    an imported archive, a simulated round, the ranking's synthetic tournaments). A row's
    player is the registration's id unless `entry_of` says which registration he is."""
    return [
        SeatResult(
            table_result=table_result,
            registration_id=int(row.player) if entry_of is None else entry_of(row.player).pk,
            round_number=row.round_number,
            game_points=row.game_points,
            place_points_twelfths=int(row.place_points * TWELFTHS),
            place=row.place,
            **asdict(tallies[row.player]),
        )
        for row in rows
    ]


def _require_time_up(state: TableSheet) -> None:
    """A table short of its planned deals confirms only once the round's time is up, and after
    one deal at least. The round row is locked (`locked_sheet`): a clock reset waits for this
    confirmation and then sees it, or this one sees the reset."""
    if not time_is_up(state.round):
        raise ServiceError(
            _(
                "table %(number)d has %(played)d of %(total)d deals: enter them all before "
                "confirming"
            )
            % {
                "number": state.table.number,
                "played": state.deals_played,
                "total": state.deals_per_round,
            }
        )
    if state.deals_played < 1:
        raise ServiceError(
            _(
                "time is up, but table %(number)d has no deal yet: a table is confirmed after "
                "one deal at least"
            )
            % {"number": state.table.number}
        )


@transaction.atomic
def table_unlock(*, table: Table, writer: Writer, reason: str) -> None:
    """The chief referee reopens a confirmed table, with the reason recorded."""
    state = locked_sheet(table)
    tournament = state.round.tournament
    if writer.account is None or not permissions.is_chief_referee(writer.account, tournament):
        raise ServiceError(_("only the chief referee can unlock a confirmed table"))
    if not reason.strip():
        raise ServiceError(_("say why the table is unlocked"))
    if state.round.status == RoundStatus.CLOSED:
        raise ServiceError(_("round %(number)d is closed") % {"number": state.round.number})
    result = TableResult.objects.filter(table=state.table).first()
    if result is None:
        raise ServiceError(_("table %(number)d is not confirmed") % {"number": state.table.number})
    before = {str(seat.registration_id): seat.game_points for seat in result.seats.all()}
    # Ratings as if it had never been confirmed.
    reactions.table_unlocked.send(TableResult, table_result=result)
    result.delete()
    tournament_changed(tournament.pk)
    audit(
        action=AuditRecord.Action.TABLE_UNLOCKED,
        by=writer.account,
        tournament=tournament,
        table=state.table,
        ip_address=writer.ip_address,
        round=state.round.number,
        reason=reason.strip(),
        before=before,
    )


@transaction.atomic
def table_deals_allow(*, table: Table, writer: Writer, more: int, reason: str) -> Table:
    """The chief referee lets a table play `more` deals after the round's time is up (a deal
    dealt before the signal, a table held up by a dispute), with the reason recorded."""
    state = locked_sheet(table)
    _require_open(state)
    tournament = state.round.tournament
    if writer.account is None or not permissions.is_chief_referee(writer.account, tournament):
        raise ServiceError(_("only the chief referee can allow a table more deals after time"))
    if not reason.strip():
        raise ServiceError(_("say why the table may play more deals"))
    if not state.clock.is_up:
        raise ServiceError(
            _("time is not up in round %(number)d: every table plays its deals")
            % {"number": state.round.number}
        )
    left = state.deals_per_round - state.deal_limit
    if left < 1:
        raise ServiceError(
            _("table %(number)d may already play all %(count)d deals of the round")
            % {"number": state.table.number, "count": state.deals_per_round}
        )
    if not 1 <= more <= left:
        raise ServiceError(
            _("table %(number)d may be allowed 1 to %(left)d more deals, not %(more)d")
            % {"number": state.table.number, "left": left, "more": more}
        )
    before = state.table.deals_allowed_after_time
    Table.objects.filter(pk=state.table.pk).update(deals_allowed_after_time=before + more)
    state.table.deals_allowed_after_time = before + more
    tournament_changed(tournament.pk)
    audit(
        action=AuditRecord.Action.DEALS_ALLOWED,
        by=writer.account,
        tournament=tournament,
        table=state.table,
        ip_address=writer.ip_address,
        round=state.round.number,
        reason=reason.strip(),
        more=more,
        before=state.deal_limit,
        after=state.deal_limit + more,  # no more than the round's deals: `left` above
    )
    return state.table


def seat_tallies_recount() -> int:
    """Count every confirmed table's sheet again into its seat results' tallies (a database
    from before the tallies were stored, or one to check): each table re-scored by the engine
    from its stored entries, its rows updated in one transaction. Returns the tables counted."""
    table_ids = list(TableResult.objects.order_by("pk").values_list("table_id", flat=True))
    for table_id in table_ids:
        with transaction.atomic():
            tallies = seat_tallies(
                score_sheet(table_sheet(table_id=table_id).engine_sheet(closed=True))
            )
            rows = list(SeatResult.objects.filter(table_result__table_id=table_id))
            for row in rows:
                for name, value in asdict(tallies[str(row.registration_id)]).items():
                    setattr(row, name, value)
            SeatResult.objects.bulk_update(rows, TALLY_FIELDS)
    return len(table_ids)
