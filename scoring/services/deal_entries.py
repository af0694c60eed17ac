"""Who writes to a table's sheet (`Writer`), the refusals particular to the sheet, and the
deals and penalty pules entered at the table.

Every write runs in one transaction with the table's row locked, is checked by the engine
against the whole sheet before anything is stored, and lands in the audit log: the checks and
the storing here are those of every entry (scoring.services.corrections writes with them too)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from core.engine_text import error_text
from core.model_columns import concrete_field
from core.page_cache import tournament_changed
from engine import PenaltyPule, ScoredSheet, SheetError, score_sheet
from engine.deals import SheetLine
from scoring.models import (
    DealResult,
    EntryKind,
)
from scoring.sheet import plain_sql
from scoring.sheet.lines import engine_sheet, result_fields, sheet_line
from scoring.sheet.reader import locked_sheet
from scoring.sheet.shape import SheetFrame, TableSheet
from tournaments.models import AuditRecord, Registration, Round, RoundStatus, Table, TableToken
from tournaments.services import ServiceError, audit


class ConflictError(ServiceError):
    """Another device wrote this entry first: reload the sheet and look again."""


class KeyReusedError(ConflictError):
    """Another entry was sent under a client key the table has used: the entry stored under it
    stands (at `position`), and nothing else is written."""

    def __init__(self, message: str, *, position: int) -> None:
        super().__init__(message)
        self.position = position


class LockedError(ServiceError):
    """The table is confirmed and locked; only the chief referee can unlock it."""


@dataclass(frozen=True)
class Writer:
    """Who writes: a signed-in user, or a table's link (token), and from where."""

    user: User | AnonymousUser | None = None
    token: TableToken | None = None
    ip_address: str | None = None

    @property
    def account(self) -> User | None:
        user = self.user
        return user if isinstance(user, User) and user.is_authenticated else None

    @property
    def via(self) -> str:
        return "link" if self.token is not None else "account"


def _require_open(state: TableSheet) -> None:
    if state.round.status not in (RoundStatus.PUBLISHED, RoundStatus.IN_PLAY):
        raise ServiceError(
            _("round %(number)d is %(status)s: deals are entered while it is published or in play")
            % {"number": state.round.number, "status": state.round.get_status_display()}
        )
    if state.is_confirmed:
        raise LockedError(
            _("table %(number)d is confirmed and locked; only the chief referee can unlock it")
            % {"number": state.table.number}
        )


def _require_client_key(client_key: str) -> None:
    if not client_key or len(client_key) > 64:
        raise ServiceError(_("every submission needs a client key of 1-64 characters"))


def _check(state: TableSheet, entries: list[SheetLine]) -> ScoredSheet:
    """Score the sheet as it would be; the engine's message names the deal and the field."""
    sheet = engine_sheet(
        state.table,
        seats=state.frame.seats,
        results=(),
        rules=state.rule_set.rules,
        extra=entries,
    )
    try:
        return score_sheet(sheet)
    except SheetError as error:
        # The engine knows the players by registration id: the message names them, the
        # seated and whoever an entry names (a player put out of the round has no seat).
        named = {seat.registration_id for seat in state.frame.seats}
        named.update(int(key) for key in map(_named_player, entries) if key and key.isdigit())
        players = Registration.objects.filter(pk__in=named)
        names = {str(pk): name for pk, name in players.values_list("pk", "player__full_name")}
        raise ServiceError(error_text(error, names=names, entries=entries)) from None


def _named_player(entry: SheetLine) -> str | None:
    """The player a deal or a penalty names (its declarer, the pule's owner)."""
    return getattr(entry, "declarer", None) or getattr(entry, "player", None)


def _store(
    state: TableSheet,
    *,
    position: int,
    entry: SheetLine | None,
    client_key: str,
    writer: Writer,
    reason: str = "",
) -> DealResult:
    version = 1 + max(
        (result.version for result in state.results if result.position == position), default=0
    )
    # Written in plain SQL (scoring.sheet.plain_sql.insert): the ORM's insert cost a deal more
    # than the database took to store it (bench/entry.py). A clash raises ConflictError at
    # once, out of the service's transaction, which rolls back as a whole (nothing else runs in
    # the failed transaction).
    values = {
        "table_id": state.table.pk,
        "position": position,
        "version": version,
        "kind": "",
        "game": "",
        "player_id": None,
        "points": None,
        "tricks": None,
        "galdins": None,
        "reason": reason,
        "client_key": client_key,
        "entered_by_id": writer.account.pk if writer.account is not None else None,
        "entered_via_token_id": writer.token.pk if writer.token is not None else None,
        "ip_address": writer.ip_address,
        "created_at": timezone.now(),
    }
    values |= {_attname(name): value for name, value in _describe(entry).items()}
    try:
        return plain_sql.insert(DealResult, values)
    except IntegrityError:
        # The unique (table, position, version) guard: another writer got there first.
        raise ConflictError(
            _(
                "entry %(position)d of table %(number)d was just written from another device: "
                "reload the sheet"
            )
            % {"position": position, "number": state.table.number}
        ) from None


def _replay(
    state: TableSheet, client_key: str, *, position: int, entry: SheetLine | None, reason: str = ""
) -> DealResult | None:
    """A resent request or a double tap: the entry it already recorded (among every version of
    the table's entries, read under its lock: no second query). Another entry under the same
    key is no resend: `KeyReusedError`."""
    result = next((result for result in state.results if result.client_key == client_key), None)
    if result is None:
        return None
    stored = None if result.kind == EntryKind.VOID else sheet_line(result)
    if (result.position, stored, result.reason) != (position, entry, reason):
        raise KeyReusedError(
            _(
                "another entry was sent under the key of entry %(position)d of table "
                "%(number)d, which stays as it was sent first"
            )
            % {"position": result.position, "number": state.table.number},
            position=result.position,
        )
    return result


def _require_next_position(state: TableSheet, position: int) -> None:
    """The writer's next entry is the sheet's: an earlier one was written from another device
    meanwhile (a conflict); a later one leaves entries out."""
    next_position = state.next_position
    if position < next_position:
        raise ConflictError(
            _(
                "table %(number)d already has entry %(position)d: another device wrote it. "
                "Reload the sheet to see it."
            )
            % {"number": state.table.number, "position": position}
        )
    if position > next_position:
        values = {
            "position": position,
            "number": state.table.number,
            "next": next_position,
            "last": position - 1,
        }
        if position == next_position + 1:
            message = _(
                "entry %(position)d was sent, but entry %(next)d is the next on the sheet of "
                "table %(number)d: entry %(next)d is missing."
            )
        else:
            message = _(
                "entry %(position)d was sent, but entry %(next)d is the next on the sheet of "
                "table %(number)d: entries %(next)d-%(last)d are missing."
            )
        raise ServiceError(message % values)


def _attname(name: str) -> str:
    return concrete_field(DealResult, name).attname


def _describe(entry: SheetLine | None) -> dict[str, object]:
    return result_fields(entry) if entry is not None else {"kind": EntryKind.VOID}


def _audit_detail(entry: SheetLine | None) -> dict[str, object]:
    return {key: value for key, value in _describe(entry).items() if value is not None}


@dataclass(frozen=True)
class RecordedEntry:
    """An entry recorded by `deal_record_on_sheet`, and the table's sheet just after it: the
    sheet read under the table's lock with the new entry and the scoring the write checked
    (a resent request's: the sheet as it was), which the writer's page shows without reading
    or scoring it again."""

    result: DealResult
    sheet: TableSheet


def deal_record(
    *, table: Table, entry: SheetLine, position: int, client_key: str, writer: Writer
) -> DealResult:
    """Add the next entry of the sheet: a deal, or a penalty pule.

    `position` is the entry the writer saw as next: if another device wrote it meanwhile, the
    writer gets a conflict, never a silent overwrite. The same `client_key` records once."""
    return deal_record_on_sheet(
        table=table, entry=entry, position=position, client_key=client_key, writer=writer
    ).result


@transaction.atomic
def deal_record_on_sheet(
    *,
    table: Table,
    entry: SheetLine,
    position: int,
    client_key: str,
    writer: Writer,
    frame: SheetFrame | None = None,
) -> RecordedEntry:
    """`deal_record`, with the table's sheet as it is after it (`RecordedEntry`). `frame`: the
    table's seats and players as the caller read them (`scoring.sheet.reader.locked_sheet`)."""
    _require_client_key(client_key)
    state = locked_sheet(table, entry_write=True, frame=frame)
    replay = _replay(state, client_key, position=position, entry=entry)
    if replay is not None:
        return RecordedEntry(replay, state)
    _require_open(state)
    _require_next_position(state, position)
    is_deal = not isinstance(entry, PenaltyPule)
    if is_deal and state.deals_played >= state.deals_per_round:
        raise ServiceError(
            _("all %(count)d deals of the round are already entered")
            % {"count": state.deals_per_round}
        )
    if is_deal:
        _require_deal_before_time(state)
    scored = _check(state, [*[sheet_line(result) for result in state.entries], entry])
    result = _store(state, position=position, entry=entry, client_key=client_key, writer=writer)
    if state.round.status == RoundStatus.PUBLISHED:
        Round.objects.filter(pk=state.round.pk).update(status=RoundStatus.IN_PLAY)
        state.round.status = RoundStatus.IN_PLAY  # the sheet handed back says so too
        tournament_changed(state.round.tournament_id)  # the public pages say "in play"
    audit(
        action=AuditRecord.Action.DEAL_ENTERED if is_deal else AuditRecord.Action.PENALTY_GIVEN,
        by=writer.account,
        tournament=state.round.tournament,
        table=state.table,
        ip_address=writer.ip_address,
        round=state.round.number,
        position=position,
        after=_audit_detail(entry),
        via=writer.via,
    )
    return RecordedEntry(result, _with_version(state, result, scored))


def _require_deal_before_time(state: TableSheet) -> None:
    """Once the round's time is up a table finishes the deal under way and no other (unless the
    chief referee allowed it more). Penalty pules use no deal: they are still given."""
    limit = state.deal_limit
    if state.deals_played < limit or limit >= state.deals_per_round:
        return
    clock = state.clock
    raise ServiceError(
        _(
            "time is up in round %(round)d (%(time)s): table %(number)d may enter only the "
            "deal that was under way, and has it (%(limit)d deals). Deal %(next)d is not "
            "played: confirm the table, or ask the chief referee to allow more deals"
        )
        % {
            "round": state.round.number,
            "time": formats.time_format(timezone.localtime(clock.ended_at), "TIME_FORMAT"),
            "number": state.table.number,
            "limit": limit,
            "next": state.deals_played + 1,
        }
    )


def _with_version(state: TableSheet, result: DealResult, scored: ScoredSheet) -> TableSheet:
    """The sheet read under the lock with the version just stored, and the scoring the write
    checked."""
    # In the order the table's entries are read (removed entries keep their versions).
    versions = sorted([*state.results, result], key=lambda each: (each.position, each.version))
    return replace(state, results=tuple(versions), scored_open=scored)
