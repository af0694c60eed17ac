"""Scoring writes: deals entered at the table, corrections, penalties, confirmation, unlock.

Every write runs in one transaction with the table's row locked, is checked by the engine
against the whole sheet before anything is stored, and lands in the audit log."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction

from engine import PenaltyPule, ScoredSheet, SheetError, score_sheet
from engine.deals import Entry as SheetEntry
from engine.standings import round_results
from scoring.cache import tournament_changed
from scoring.models import TWELFTHS, DealResult, EntryKind, SeatResult, TableResult
from scoring.sheets import (
    current_results,
    place_scheme,
    result_fields,
    sheet_entry,
    table_sheet,
    tournament_rules,
)
from tournaments.models import AuditEntry, Entry, Round, RoundStatus, Seat, Table, TableToken
from tournaments.services import ServiceError, audit


class ConflictError(ServiceError):
    """Another device wrote this entry first: reload the sheet and look again."""


class LockedError(ServiceError):
    """The table is confirmed and locked; only the chief referee can unlock it."""


@dataclass(frozen=True)
class Writer:
    """Who writes: a signed-in user, or a table's link (token), and from where."""

    user: AbstractBaseUser | AnonymousUser | None = None
    token: TableToken | None = None
    ip_address: str | None = None

    @property
    def account(self) -> AbstractBaseUser | None:
        user = self.user
        return user if user is not None and user.is_authenticated else None

    @property
    def via(self) -> str:
        return "link" if self.token is not None else "account"


@dataclass(frozen=True)
class TableState:
    """A table and its sheet, read under the table's row lock."""

    table: Table
    round: Round
    seats: list[Seat]
    results: list[DealResult]  # every version, in order
    current: list[DealResult]  # the newest version of each entry, removed ones left out

    @property
    def next_position(self) -> int:
        # Only the last entry can be removed, so current positions always run 1..k.
        return len(self.current) + 1

    @property
    def deals_played(self) -> int:
        """Entries that used a deal: penalties use none."""
        return sum(result.kind != EntryKind.PENALTY for result in self.current)

    @property
    def deals_per_round(self) -> int:
        return self.round.tournament.deals_per_round

    def entries(self) -> list[SheetEntry]:
        return [sheet_entry(result) for result in self.current]


def _lock_table(table: Table) -> TableState:
    table = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    seats = list(table.seats.order_by("position"))
    results = list(table.deal_results.order_by("position", "version"))
    return TableState(table, table.round, seats, results, current_results(results))


def _require_open(state: TableState) -> None:
    if state.round.status not in (RoundStatus.PUBLISHED, RoundStatus.IN_PLAY):
        raise ServiceError(
            f"round {state.round.number} is {state.round.get_status_display()}: "
            "deals are entered while it is published or in play"
        )
    if TableResult.objects.filter(table=state.table).exists():
        raise LockedError(
            f"table {state.table.number} is confirmed and locked; "
            "only the chief referee can unlock it"
        )


def _require_client_key(client_key: str) -> None:
    if not client_key or len(client_key) > 64:
        raise ServiceError("every submission needs a client key of 1-64 characters")


def _check(state: TableState, entries: list[SheetEntry]) -> ScoredSheet:
    """Score the sheet as it would be; the engine's message names the deal and the field."""
    sheet = table_sheet(
        state.table,
        seats=state.seats,
        results=(),
        rules=tournament_rules(state.round.tournament),
        extra=entries,
    )
    try:
        return score_sheet(sheet)
    except SheetError as error:
        raise ServiceError(str(error)) from None


def _store(
    state: TableState,
    *,
    position: int,
    entry: SheetEntry | None,
    client_key: str,
    writer: Writer,
    reason: str = "",
) -> DealResult:
    version = 1 + max(
        (result.version for result in state.results if result.position == position), default=0
    )
    try:
        with transaction.atomic():
            return DealResult.objects.create(
                table=state.table,
                position=position,
                version=version,
                client_key=client_key,
                reason=reason,
                entered_by=writer.account,
                entered_via_token=writer.token,
                ip_address=writer.ip_address,
                **_describe(entry),
            )
    except IntegrityError:
        # The unique (table, position, version) guard: another writer got there first.
        raise ConflictError(
            f"entry {position} of table {state.table.number} was just written from another "
            "device: reload the sheet"
        ) from None


def _replay(table: Table, client_key: str) -> DealResult | None:
    """A resent request or a double tap: the entry it already recorded."""
    return DealResult.objects.filter(table=table, client_key=client_key).order_by().first()


def _describe(entry: SheetEntry | None) -> dict[str, object]:
    return result_fields(entry) if entry is not None else {"kind": EntryKind.VOID}


def _audit_detail(entry: SheetEntry | None) -> dict[str, object]:
    return {key: value for key, value in _describe(entry).items() if value is not None}


@transaction.atomic
def deal_record(
    *, table: Table, entry: SheetEntry, position: int, client_key: str, writer: Writer
) -> DealResult:
    """Add the next entry of the sheet: a deal, or a penalty pule.

    `position` is the entry the writer saw as next: if another device wrote it meanwhile, the
    writer gets a conflict, never a silent overwrite. The same `client_key` records once."""
    _require_client_key(client_key)
    state = _lock_table(table)
    replay = _replay(state.table, client_key)
    if replay is not None:
        return replay
    _require_open(state)
    if position != state.next_position:
        raise ConflictError(
            f"table {state.table.number} already has entry {position}: another device wrote it. "
            "Reload the sheet to see it."
        )
    is_deal = not isinstance(entry, PenaltyPule)
    if is_deal and state.deals_played >= state.deals_per_round:
        raise ServiceError(f"all {state.deals_per_round} deals of the round are already entered")
    _check(state, [*state.entries(), entry])
    result = _store(state, position=position, entry=entry, client_key=client_key, writer=writer)
    if state.round.status == RoundStatus.PUBLISHED:
        Round.objects.filter(pk=state.round.pk).update(status=RoundStatus.IN_PLAY)
        tournament_changed(state.round.tournament_id)  # the public pages say "in play"
    audit(
        action=AuditEntry.Action.DEAL_ENTERED if is_deal else AuditEntry.Action.PENALTY_GIVEN,
        by=writer.account,
        tournament=state.round.tournament,
        table=state.table,
        ip_address=writer.ip_address,
        round=state.round.number,
        position=position,
        after=_audit_detail(entry),
        via=writer.via,
    )
    return result


@transaction.atomic
def deal_correct(
    *,
    table: Table,
    position: int,
    entry: SheetEntry | None,
    base_version: int,
    client_key: str,
    reason: str,
    writer: Writer,
) -> DealResult:
    """A new version of an entry; `entry` None removes the last entry. `base_version` is the
    version the writer saw: if it is no longer the newest, the writer gets a conflict."""
    _require_client_key(client_key)
    state = _lock_table(table)
    replay = _replay(state.table, client_key)
    if replay is not None:
        return replay
    _require_open(state)
    by_position = {result.position: result for result in state.current}
    if position not in by_position:
        raise ServiceError(f"table {state.table.number} has no entry {position} to correct")
    previous = by_position[position]
    if previous.version != base_version:
        raise ConflictError(
            f"entry {position} was corrected from another device meanwhile: reload the sheet"
        )
    if entry is None and position != state.current[-1].position:
        raise ServiceError("only the last entry can be removed; correct the others instead")
    if entry is not None and (previous.kind == EntryKind.PENALTY) != isinstance(entry, PenaltyPule):
        raise ServiceError("a deal and a penalty pule cannot replace each other")
    entries = [
        entry if result.position == position else sheet_entry(result) for result in state.current
    ]
    _check(state, [item for item in entries if item is not None])
    result = _store(
        state, position=position, entry=entry, client_key=client_key, writer=writer, reason=reason
    )
    tournament_changed(state.round.tournament_id)
    audit(
        action=AuditEntry.Action.DEAL_REMOVED
        if entry is None
        else AuditEntry.Action.DEAL_CORRECTED,
        by=writer.account,
        tournament=state.round.tournament,
        table=state.table,
        ip_address=writer.ip_address,
        round=state.round.number,
        position=position,
        reason=reason,
        before=_audit_detail(sheet_entry(previous)),
        after=_audit_detail(entry),
        via=writer.via,
    )
    return result


@transaction.atomic
def table_confirm(*, table: Table, writer: Writer, confirmer: Entry | None = None) -> TableResult:
    """A second person confirms the table's round: another player at the table (through the
    table's link) or the chief referee. The confirmed table is locked; the standings read it."""
    state = _lock_table(table)
    _require_open(state)
    tournament = state.round.tournament
    is_chief = writer.account is not None and tournament.is_chief_referee(writer.account)
    seated = {seat.entry_id for seat in state.seats}
    if not is_chief and (confirmer is None or confirmer.pk not in seated):
        raise ServiceError("a player at this table, or the chief referee, confirms the table")
    if state.deals_played != state.deals_per_round:
        raise ServiceError(
            f"table {state.table.number} has {state.deals_played} of "
            f"{state.deals_per_round} deals: enter them all before confirming"
        )
    closed = score_sheet(
        table_sheet(
            state.table,
            seats=state.seats,
            results=state.results,
            rules=tournament_rules(tournament),
            closed=True,
        )
    )
    result = TableResult.objects.create(
        table=state.table,
        confirmed_by=writer.account,
        confirmed_by_entry=confirmer,
        last_position=len(state.current),
        last_version_id=max(result.pk for result in state.results),
    )
    SeatResult.objects.bulk_create(
        SeatResult(
            table_result=result,
            entry_id=int(row.player),
            round_number=state.round.number,
            game_points=row.game_points,
            place_points_twelfths=int(row.place_points * TWELFTHS),
            place=row.place,
        )
        for row in round_results(state.round.number, closed.totals, place_scheme(tournament))
    )
    tournament_changed(tournament.pk)
    audit(
        action=AuditEntry.Action.TABLE_CONFIRMED,
        by=writer.account,
        tournament=tournament,
        table=state.table,
        ip_address=writer.ip_address,
        round=state.round.number,
        confirmed_by=confirmer.player.full_name if confirmer else None,
        totals=closed.totals,
        via=writer.via,
    )
    return result


@transaction.atomic
def table_unlock(*, table: Table, writer: Writer, reason: str) -> None:
    """The chief referee reopens a confirmed table, with the reason recorded."""
    state = _lock_table(table)
    tournament = state.round.tournament
    if writer.account is None or not tournament.is_chief_referee(writer.account):
        raise ServiceError("only the chief referee can unlock a confirmed table")
    if not reason.strip():
        raise ServiceError("say why the table is unlocked")
    if state.round.status == RoundStatus.CLOSED:
        raise ServiceError(f"round {state.round.number} is closed")
    result = TableResult.objects.filter(table=state.table).first()
    if result is None:
        raise ServiceError(f"table {state.table.number} is not confirmed")
    before = {str(seat.entry_id): seat.game_points for seat in result.seats.all()}
    result.delete()
    tournament_changed(tournament.pk)
    audit(
        action=AuditEntry.Action.TABLE_UNLOCKED,
        by=writer.account,
        tournament=tournament,
        table=state.table,
        ip_address=writer.ip_address,
        round=state.round.number,
        reason=reason.strip(),
        before=before,
    )


@transaction.atomic
def round_close(*, round_: Round, writer: Writer) -> Round:
    """Close a round once every table is confirmed: its results are final."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status not in (RoundStatus.PUBLISHED, RoundStatus.IN_PLAY):
        raise ServiceError(f"round {round_.number} is {round_.get_status_display()}")
    open_tables = round_.tables.filter(result__isnull=True).values_list("number", flat=True)
    if open_tables:
        numbers = ", ".join(str(number) for number in open_tables)
        raise ServiceError(f"tables {numbers} are not confirmed yet")
    round_.status = RoundStatus.CLOSED
    round_.save(update_fields=["status"])
    tournament_changed(round_.tournament_id)
    audit(
        action=AuditEntry.Action.ROUND_CLOSED,
        by=writer.account,
        tournament=round_.tournament,
        ip_address=writer.ip_address,
        round=round_.number,
    )
    return round_
