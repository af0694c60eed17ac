"""Corrections and removals of a table's entries: a new version of an entry, the earlier ones
kept, checked by the engine against the whole sheet under the table's lock."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from core.page_cache import tournament_changed
from engine import PenaltyPule
from engine.deals import SheetLine
from scoring.models import (
    DealResult,
    EntryKind,
)
from scoring.services.deal_entries import (
    ConflictError,
    RecordedEntry,
    Writer,
    _audit_detail,
    _check,
    _replay,
    _require_client_key,
    _require_open,
    _store,
    _with_version,
)
from scoring.sheet.lines import sheet_line
from scoring.sheet.reader import locked_sheet
from scoring.sheet.shape import SheetFrame
from tournaments.models import AuditRecord, Table
from tournaments.services import ServiceError, audit


def deal_correct(
    *,
    table: Table,
    position: int,
    entry: SheetLine | None,
    base_version: int,
    client_key: str,
    reason: str,
    writer: Writer,
) -> DealResult:
    """A new version of an entry; `entry` None removes the last entry. `base_version` is the
    version the writer saw: if it is no longer the newest, the writer gets a conflict."""
    return deal_correct_on_sheet(
        table=table,
        position=position,
        entry=entry,
        base_version=base_version,
        client_key=client_key,
        reason=reason,
        writer=writer,
    ).result


@transaction.atomic
def deal_correct_on_sheet(
    *,
    table: Table,
    position: int,
    entry: SheetLine | None,
    base_version: int,
    client_key: str,
    reason: str,
    writer: Writer,
    frame: SheetFrame | None = None,
) -> RecordedEntry:
    """`deal_correct`, with the table's sheet as it is after it (`RecordedEntry`)."""
    _require_client_key(client_key)
    state = locked_sheet(table, entry_write=True, frame=frame)
    replay = _replay(state, client_key, position=position, entry=entry, reason=reason)
    if replay is not None:
        return RecordedEntry(replay, state)
    _require_open(state)
    by_position = {result.position: result for result in state.entries}
    if position not in by_position:
        raise ServiceError(
            _("table %(number)d has no entry %(position)d to correct")
            % {"number": state.table.number, "position": position}
        )
    previous = by_position[position]
    if previous.version != base_version:
        raise ConflictError(
            _("entry %(position)d was corrected from another device meanwhile: reload the sheet")
            % {"position": position}
        )
    if entry is None and position != state.entries[-1].position:
        raise ServiceError(_("only the last entry can be removed; correct the others instead"))
    if entry is not None and (previous.kind == EntryKind.PENALTY) != isinstance(entry, PenaltyPule):
        raise ServiceError(_("a deal and a penalty pule cannot replace each other"))
    entries = [
        entry if result.position == position else sheet_line(result) for result in state.entries
    ]
    scored = _check(state, [item for item in entries if item is not None])
    result = _store(
        state, position=position, entry=entry, client_key=client_key, writer=writer, reason=reason
    )
    tournament_changed(state.round.tournament_id)
    audit(
        action=AuditRecord.Action.DEAL_REMOVED
        if entry is None
        else AuditRecord.Action.DEAL_CORRECTED,
        by=writer.account,
        tournament=state.round.tournament,
        table=state.table,
        ip_address=writer.ip_address,
        round=state.round.number,
        position=position,
        reason=reason,
        before=_audit_detail(sheet_line(previous)),
        after=_audit_detail(entry),
        via=writer.via,
    )
    return RecordedEntry(result, _with_version(state, result, scored))
