"""Late and absent players at a table (docs/rules.md, "Late and absent players"): the referee
records when a late player came, which gives him the penalty pule the tournament's waiting time
says (the sheet's own penalty entry, `scoring.services.deal_record_on_sheet`), or that he did
not come by the tournament's deal and is out of the round: his table of 4 plays on as a table
of 3 without him, and he has no result for the round. Reads in `table_late_players`."""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.engine_text import error_text
from core.page_cache import tournament_changed
from engine import PenaltyPule, Sheet, SheetError, score_sheet
from engine.lateness import late_pule_due, minutes_late, out_of_round_due, table_without
from scoring.models import DealResult, LatePlayer
from scoring.services import Writer, deal_record_on_sheet
from scoring.services.deal_entries import _require_open
from scoring.sheet.lines import current_results, deals_played, sheet_line
from scoring.sheet.reader import locked_sheet
from scoring.sheet.shape import SheetPlayer, TableSheet
from tournaments.models import AuditRecord, Round, Seat, Table, Tournament
from tournaments.services import ServiceError, audit


def round_started_at(round_: Round) -> datetime.datetime | None:
    """When the round started, for a late player's minutes: its clock's start, else when it
    was published (None: a draft)."""
    return round_.clock_started_at or round_.published_at


def typed_arrival(time: datetime.time, *, started: datetime.datetime | None) -> datetime.datetime:
    """The moment a referee means by the clock time he types: today's, or, when today's is
    still to come and the round started before midnight, the evening before's (a round never
    lasts a day). A time still to come otherwise stays so: the service refuses it."""
    now = timezone.localtime()
    today = timezone.make_aware(datetime.datetime.combine(now.date(), time))
    if today <= now or started is None:
        return today
    evening_before = timezone.make_aware(
        datetime.datetime.combine(now.date() - datetime.timedelta(days=1), time)
    )
    return evening_before if evening_before >= started else today


def has_late_rules(tournament: Tournament) -> bool:
    return tournament.late_wait_minutes is not None or tournament.late_out_deal is not None


def table_late_players(table: Table) -> list[LatePlayer]:
    """The table's late and absent players, in seat order (no query when the tournament has no
    rule for them, as then none is recorded)."""
    if not has_late_rules(table.round.tournament):
        return []
    return list(LatePlayer.objects.filter(table_id=table.pk).select_related("registration__player"))


def _seated(state: TableSheet, key: str) -> SheetPlayer:
    player = state.frame.player(key)
    if player is None:
        raise ServiceError(_("That player does not sit at this table."))
    return player


def _require_not_recorded(state: TableSheet, player: SheetPlayer) -> None:
    recorded = LatePlayer.objects.filter(
        table_id=state.table.pk, registration_id=player.registration.pk
    ).first()
    if recorded is not None and recorded.is_out:
        raise ServiceError(_("%(name)s is out of the round already.") % {"name": player.name})
    if recorded is not None:
        raise ServiceError(
            _("%(name)s came late already, at %(time)s: a late arrival is recorded once.")
            % {
                "name": player.name,
                "time": timezone.localtime(recorded.arrived_at).strftime("%H:%M"),
            }
        )


@dataclass(frozen=True)
class LateArrival:
    late: LatePlayer
    pule_given: bool


@transaction.atomic
def late_arrival_record(
    *,
    table: Table,
    player_key: str,
    arrived_at: datetime.datetime | None,
    client_key: str,
    writer: Writer,
) -> LateArrival:
    """A seated player came late, at `arrived_at` (None: now). Coming after the tournament's
    waiting time costs him one personal penalty pule, entered on the sheet like any penalty."""
    state = locked_sheet(table)
    _require_open(state)
    player = _seated(state, player_key)
    _require_not_recorded(state, player)
    started = round_started_at(state.round)
    now = timezone.now()
    arrived = arrived_at or now
    if started is None:
        raise ServiceError(_("The round has not started: nobody is late yet."))
    if arrived > now:
        raise ServiceError(_("The arrival time is still to come: give the time he came."))
    minutes = minutes_late(started, arrived)
    tournament = state.round.tournament
    due = late_pule_due(minutes, tournament.late_wait_minutes) and state.rules.pules
    position = None
    if due:
        recorded = deal_record_on_sheet(
            table=state.table,
            entry=PenaltyPule(player.key),
            position=state.next_position,
            client_key=client_key,
            writer=writer,
            frame=state.frame,
        )
        position = recorded.result.position
    seat = next(s for s in state.frame.seats if s.registration_id == player.registration.pk)
    late = LatePlayer.objects.create(
        table=state.table,
        registration=player.registration,
        arrived_at=arrived,
        minutes_late=minutes,
        penalty_position=position,
        seat_position=seat.position,
        recorded_by=writer.account,
    )
    audit(
        action=AuditRecord.Action.LATE_ARRIVAL,
        by=writer.account,
        tournament=tournament,
        table=state.table,
        ip_address=writer.ip_address,
        round=state.round.number,
        player=player.name,
        arrived_at=arrived.isoformat(),
        minutes_late=minutes,
        penalty_position=position,
        via=writer.via,
    )
    return LateArrival(late, pule_given=due)


@transaction.atomic
def player_out_of_round(*, table: Table, player_key: str, writer: Writer) -> LatePlayer:
    """A seated player did not come by the tournament's deal: he is out of the round. His seat
    goes, and his table of 4 plays the round as a table of 3 (the engine's `table_without`
    says who sits where and who deals first); he has no result for the round."""
    state = locked_sheet(table)
    _require_open(state)
    tournament = state.round.tournament
    if tournament.late_out_deal is None:
        raise ServiceError(
            _("The tournament sets no deal by which a late player is out of the round.")
        )
    player = _seated(state, player_key)
    _require_not_recorded(state, player)
    if state.deals_played:
        raise ServiceError(
            _(
                "Table %(number)d has played %(count)d deals: a table waits for its late player, "
                "so a player is out of the round before its first deal."
            )
            % {"number": state.table.number, "count": state.deals_played}
        )
    seats = {str(seat.registration_id): seat for seat in state.frame.seats}
    keys = [player.key for player in state.players]
    first_dealer = keys[state.table.first_dealer_position - 1]
    names = {p.key: p.name for p in state.players}
    lines = [sheet_line(result) for result in current_results(state.results)]
    try:
        plays_on = table_without(keys, first_dealer, out=player.key)
        # The penalties already on the sheet still score at the smaller table.
        score_sheet(
            Sheet(
                players=plays_on.players,
                entries=tuple(lines),
                rules=state.rules,
                first_dealer=plays_on.first_dealer,
            )
        )
    except SheetError as error:
        raise ServiceError(error_text(error, names=names, entries=lines)) from None
    reached = hall_deals(state.round)
    if not out_of_round_due(reached, tournament.late_out_deal):
        raise ServiceError(
            _(
                "The round's tables have played %(count)d deals: a late player is out of the "
                "round once they reach deal %(deal)d."
            )
            % {"count": reached, "deal": tournament.late_out_deal}
        )
    gone = seats[player.key]
    gone.delete()
    # The others keep their order, numbered 1.. again: first out of the way of the unique seat
    # numbers, then in place.
    staying = [seats[key] for key in plays_on.players]
    offset = len(keys) + 1
    for seat in staying:
        Seat.objects.filter(pk=seat.pk).update(position=seat.position + offset)
    for number, seat in enumerate(staying, 1):
        Seat.objects.filter(pk=seat.pk).update(position=number)
    Table.objects.filter(pk=state.table.pk).update(
        first_dealer_position=plays_on.players.index(plays_on.first_dealer) + 1
    )
    late = LatePlayer.objects.create(
        table=state.table,
        registration=player.registration,
        arrived_at=None,
        seat_position=gone.position,
        recorded_by=writer.account,
    )
    audit(
        action=AuditRecord.Action.OUT_OF_ROUND,
        by=writer.account,
        tournament=tournament,
        table=state.table,
        ip_address=writer.ip_address,
        round=state.round.number,
        player=player.name,
        out_by_deal=tournament.late_out_deal,
        plays_on=[names[key] for key in plays_on.players],
        via=writer.via,
    )
    tournament_changed(tournament.pk)
    return late


def round_out_players(round_: Round) -> list[LatePlayer]:
    """The players out of the round, table by table (no query when the tournament has no rule
    for late players)."""
    if not has_late_rules(round_.tournament):
        return []
    return list(
        LatePlayer.objects.filter(table__round_id=round_.pk, arrived_at__isnull=True)
        .select_related("registration__player", "table")
        .order_by("table__number", "seat_position")
    )


def hall_deals(round_: Round) -> int:
    """The deals the round's furthest table has played: how far the hall is (one query)."""
    versions: dict[int, list[DealResult]] = defaultdict(list)
    for result in (
        DealResult.objects.filter(table__round=round_)
        .only("id", "table_id", "position", "version", "kind")
        .order_by("table_id", "position", "version")
    ):
        versions[result.table_id].append(result)
    return max((deals_played(current_results(results)) for results in versions.values()), default=0)
