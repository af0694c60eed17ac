"""Scoring writes: deals entered at the table, corrections, penalties, confirmation, unlock.

Every write runs in one transaction with the table's row locked, is checked by the engine
against the whole sheet before anything is stored, and lands in the audit log."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.engine_text import error_text
from core.model_columns import concrete_field
from core.page_cache import tournament_changed
from engine import PenaltyPule, ScoredSheet, SheetError, score_sheet
from engine.deals import SheetLine
from engine.standings import RoundResult, round_results
from scoring import reactions
from scoring.models import (
    TWELFTHS,
    DealResult,
    EntryKind,
    SeatResult,
    TableHeard,
    TableResult,
)
from scoring.selectors.progress import tables_confirmed_short
from scoring.selectors.standings_before import standings_before
from scoring.sheet import plain_sql
from scoring.sheet.lines import engine_sheet, result_fields, sheet_line
from scoring.sheet.reader import locked_sheet
from scoring.sheet.shape import SheetFrame, TableSheet
from tournaments import permissions
from tournaments import services as tournament_services
from tournaments.models import AuditEntry, Registration, Round, RoundStatus, Table, TableToken
from tournaments.round_clock import time_is_up
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
        before=_audit_detail(sheet_line(previous)),
        after=_audit_detail(entry),
        via=writer.via,
    )
    return RecordedEntry(result, _with_version(state, result, scored))


def _with_version(state: TableSheet, result: DealResult, scored: ScoredSheet) -> TableSheet:
    """The sheet read under the lock with the version just stored, and the scoring the write
    checked."""
    # In the order the table's entries are read (removed entries keep their versions).
    versions = sorted([*state.results, result], key=lambda each: (each.position, each.version))
    return replace(state, results=tuple(versions), scored_open=scored)


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
        )
    )
    # The players' ratings, in this transaction.
    reactions.table_confirmed.send(TableResult, table_result=result)
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
        **({"time_called": True, "deals": state.deals_played} if time_called else {}),
    )
    return ConfirmedTable(result, replace(state, frame=replace(state.frame, confirmation=result)))


def seat_results(
    table_result: TableResult,
    rows: Iterable[RoundResult],
    entry_of: Callable[[str], Registration] | None = None,
) -> list[SeatResult]:
    """A confirmed table's `SeatResult` rows, unsaved, from the engine's round results: the one
    place that turns a round result into the row the standings read (a confirmation, an
    imported archive, a simulated round, the ranking's synthetic tournaments). A row's player is
    the registration's id unless `entry_of` says which registration he is."""
    return [
        SeatResult(
            table_result=table_result,
            registration_id=int(row.player) if entry_of is None else entry_of(row.player).pk,
            round_number=row.round_number,
            game_points=row.game_points,
            place_points_twelfths=int(row.place_points * TWELFTHS),
            place=row.place,
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
        action=AuditEntry.Action.DEALS_ALLOWED,
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
        action=AuditEntry.Action.ROUND_CLOSED,
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


# A table's phone is heard from on every sync and every view of its sheet through the link: its
# row is written again only when the counts it reports change or the last write is this old, so
# a phone sending deal after deal costs no write each time.
HEARD_REFRESH = datetime.timedelta(seconds=15)


def table_heard(
    *,
    table_id: int,
    last: TableHeard | None,
    waiting: int | None = None,
    refused: int | None = None,
) -> bool:
    """Record that the table's phone was heard from now, with the entries it said were waiting
    on it and refused (None: it did not say; the last counts it gave stay). `last`: the row as
    the request read it (None: there is none). Whether anything was written.

    No audit entry and no transaction of its own: it changes nothing of the tournament, and a
    lost write is made good by the phone's next request."""
    now = timezone.now()
    if last is not None:
        unchanged = (waiting is None or waiting == last.waiting) and (
            refused is None or refused == last.refused
        )
        if unchanged and now - last.heard_at < HEARD_REFRESH:
            return False
    said = {"waiting": waiting, "refused": refused}
    updated = ["heard_at", *(name for name, value in said.items() if value is not None)]
    # One statement, inserted or updated (INSERT ... ON CONFLICT), with no savepoint around it:
    # it runs on a view of the sheet, which reads it in the same statement as the link.
    try:
        TableHeard.objects.bulk_create(
            [TableHeard(table_id=table_id, heard_at=now, **said)],
            update_conflicts=True,
            unique_fields=["table"],
            update_fields=updated,
        )
    except IntegrityError:  # the table went meanwhile (seated again): nothing to record
        return False
    return True
