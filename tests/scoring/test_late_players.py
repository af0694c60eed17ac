"""Late and absent players at a table (docs/rules.md, "Late and absent players"): the late
arrival and its penalty pule, the player out of the round and his table playing on as 3."""

import datetime
import itertools

import pytest
from django.utils import timezone

from engine import PenaltyPule, dealer_for
from scoring import services
from scoring.late_players import late_arrival_record, player_out_of_round
from scoring.models import DealResult, LatePlayer, SeatResult
from scoring.selectors import tournament_standings
from scoring.services import Writer
from scoring.sheet.reader import table_sheet
from tests.factories import deals_on_sheet, play_round_with, seat_keys
from tests.scoring.sheet_play import lielais
from tests.tournament_play import hall_plays, with_rules
from tournaments.models import AuditRecord, Round
from tournaments.services import ServiceError

pytestmark = pytest.mark.django_db

keys = (f"late-{number}" for number in itertools.count())
REFEREE = Writer(ip_address="10.0.0.9")


def started_minutes_ago(table, minutes):
    start = timezone.now() - datetime.timedelta(minutes=minutes)
    Round.objects.filter(pk=table.round_id).update(published_at=start, clock_started_at=start)
    table.round.refresh_from_db()
    return start


def came(table, key, *, minutes_after_start=None, start=None):
    arrived = start + datetime.timedelta(minutes=minutes_after_start) if start else None
    return late_arrival_record(
        table=table, player_key=key, arrived_at=arrived, client_key=next(keys), writer=REFEREE
    )


class TestALateArrival:
    def test_coming_after_the_waiting_time_gives_one_penalty_pule_on_the_sheet(
        self, table_of_three
    ):
        table = with_rules(table_of_three, late_wait_minutes=3)
        start = started_minutes_ago(table, 20)
        a, _b, _c = seat_keys(table)
        arrival = came(table, a, minutes_after_start=6, start=start)
        assert arrival.pule_given
        assert arrival.late.minutes_late == 6
        penalty = DealResult.objects.get(table=table)
        assert (penalty.kind, str(penalty.player_id), penalty.position) == ("penalty", a, 1)
        assert arrival.late.penalty_position == 1
        sheet = table_sheet(table_id=table.pk)
        assert sheet.rows[0].pule_event == "penalty"
        audit = AuditRecord.objects.get(action=AuditRecord.Action.LATE_ARRIVAL)
        assert (audit.detail["minutes_late"], audit.detail["penalty_position"]) == (6, 1)
        assert AuditRecord.objects.filter(action=AuditRecord.Action.PENALTY_GIVEN).count() == 1

    def test_coming_within_the_waiting_time_costs_nothing(self, table_of_three):
        table = with_rules(table_of_three, late_wait_minutes=3)
        start = started_minutes_ago(table, 20)
        arrival = came(table, seat_keys(table)[1], minutes_after_start=3, start=start)
        assert not arrival.pule_given
        assert arrival.late.penalty_position is None
        assert not DealResult.objects.exists()

    def test_now_is_the_arrival_when_no_time_is_given(self, table_of_three):
        table = with_rules(table_of_three, late_wait_minutes=3)
        started_minutes_ago(table, 10)
        arrival = came(table, seat_keys(table)[0])
        assert arrival.late.minutes_late == 10

    def test_a_late_arrival_is_recorded_once(self, table_of_three):
        table = with_rules(table_of_three, late_wait_minutes=3)
        start = started_minutes_ago(table, 20)
        a = seat_keys(table)[0]
        came(table, a, minutes_after_start=6, start=start)
        with pytest.raises(ServiceError, match="recorded once"):
            came(table, a, minutes_after_start=8, start=start)
        assert DealResult.objects.count() == 1

    def test_an_arrival_still_to_come_is_refused(self, table_of_three):
        table = with_rules(table_of_three, late_wait_minutes=3)
        start = started_minutes_ago(table, 5)
        with pytest.raises(ServiceError, match="still to come"):
            came(table, seat_keys(table)[0], minutes_after_start=30, start=start)
        assert not LatePlayer.objects.exists()

    def test_a_player_of_another_table_is_refused(self, table_of_three):
        table = with_rules(table_of_three, late_wait_minutes=3)
        started_minutes_ago(table, 5)
        other = table.round.tables.exclude(pk=table.pk).get()
        with pytest.raises(ServiceError, match="does not sit at this table"):
            came(table, seat_keys(other)[0])

    def test_a_fourth_penalty_pule_is_refused_as_ever(self, table_of_three):
        table = with_rules(table_of_three, late_wait_minutes=3)
        started_minutes_ago(table, 20)
        a = seat_keys(table)[0]
        for position in (1, 2, 3):
            services.deal_record(
                table=table,
                entry=PenaltyPule(a),
                position=position,
                client_key=next(keys),
                writer=REFEREE,
            )
        with pytest.raises(ServiceError, match="at most 3"):
            came(table, a)
        assert not LatePlayer.objects.exists()


class TestOutOfTheRound:
    def test_he_is_out_only_once_the_hall_has_reached_the_deal(self, table_of_four):
        table = with_rules(table_of_four, late_wait_minutes=3, late_out_deal=4)
        hall_plays(table, 2)
        with pytest.raises(ServiceError, match="reach deal 4"):
            player_out_of_round(table=table, player_key=seat_keys(table)[0], writer=REFEREE)
        assert table.seats.count() == 4
        assert not LatePlayer.objects.exists()

    def test_a_table_of_4_plays_the_round_as_a_table_of_3_and_he_has_no_result(self, table_of_four):
        table = with_rules(table_of_four, late_wait_minutes=3, late_out_deal=4)
        started_minutes_ago(table, 12)
        hall_plays(table, 3)
        a, b, c, d = seat_keys(table)
        late = player_out_of_round(table=table, player_key=a, writer=REFEREE)
        assert late.is_out and late.seat_position == 1
        assert seat_keys(table) == [b, c, d]
        table.refresh_from_db()
        assert table.first_dealer_position == 1  # A dealt first: B, to his left, does
        sheet = table_sheet(table_id=table.pk)
        assert sheet.deals_per_round == sheet.rule_set.deals_at(3)
        players = [b, c, d]
        for index in range(sheet.deals_per_round):
            dealer = dealer_for(players, b, index)
            services.deal_record(
                table=table,
                entry=lielais(next(p for p in players if p != dealer)),
                position=index + 1,
                client_key=next(keys),
                writer=REFEREE,
            )
        services.table_confirm(
            table=table,
            writer=REFEREE,
            deals_seen=deals_on_sheet(table),
            confirmer=table.seats.get(position=2).registration,
        )
        results = SeatResult.objects.filter(table_result__table=table)
        assert sorted(str(r.registration_id) for r in results) == sorted(players)
        assert sum(r.game_points for r in results) == 0
        audit = AuditRecord.objects.get(action=AuditRecord.Action.OUT_OF_ROUND)
        assert audit.detail["out_by_deal"] == 4

    def test_a_table_of_3_cannot_play_on_with_two(self, table_of_three):
        table = with_rules(table_of_three, late_out_deal=4)
        with pytest.raises(ServiceError, match="only a table of 4 plays on"):
            player_out_of_round(table=table, player_key=seat_keys(table)[0], writer=REFEREE)
        assert table.seats.count() == 3
        assert not LatePlayer.objects.exists()

    def test_without_the_tournaments_deal_nobody_is_put_out(self, table_of_four):
        with pytest.raises(ServiceError, match="sets no deal"):
            player_out_of_round(
                table=table_of_four, player_key=seat_keys(table_of_four)[0], writer=REFEREE
            )
        assert table_of_four.seats.count() == 4

    def test_a_table_that_has_played_deals_keeps_its_players(self, table_of_four):
        table = with_rules(table_of_four, late_out_deal=4)
        a, b, _c, _d = seat_keys(table)
        services.deal_record(
            table=table, entry=lielais(b), position=1, client_key=next(keys), writer=REFEREE
        )
        with pytest.raises(ServiceError, match="before its first deal"):
            player_out_of_round(table=table, player_key=a, writer=REFEREE)
        assert table.seats.count() == 4

    def test_a_player_who_came_is_not_put_out(self, table_of_four):
        table = with_rules(table_of_four, late_wait_minutes=3, late_out_deal=4)
        started_minutes_ago(table, 5)
        a = seat_keys(table)[0]
        came(table, a)
        with pytest.raises(ServiceError, match="came late already"):
            player_out_of_round(table=table, player_key=a, writer=REFEREE)


def play_and_confirm(table, played=0):
    players = seat_keys(table)
    first = players[table.first_dealer_position - 1]
    deals = table_sheet(table_id=table.pk).deals_per_round
    for index in range(played, deals):
        dealer = dealer_for(players, first, index)
        services.deal_record(
            table=table,
            entry=lielais(next(p for p in players if p != dealer)),
            position=index + 1,
            client_key=next(keys),
            writer=REFEREE,
        )
    services.table_confirm(
        table=table,
        writer=REFEREE,
        deals_seen=deals,
        confirmer=table.seats.get(position=1).registration,
    )


class TestTheStandings:
    @pytest.mark.parametrize("rule", ["points", "last"])
    def test_a_player_out_of_the_round_ranks_as_the_absent_rule_says(self, table_of_four, rule):
        table = with_rules(table_of_four, late_out_deal=4, absent_players=rule, deals_per_round=6)
        play_round_with(table.round, deals_per_round=6, absent_players=rule)
        out = seat_keys(table)[0]
        other = hall_plays(table, 3)
        player_out_of_round(table=table, player_key=out, writer=REFEREE)
        play_and_confirm(table)
        play_and_confirm(other, played=3)
        rows = tournament_standings(tournament=table.round.tournament).rows
        absent = next(row for row in rows if str(row.registration_id) == out)
        assert absent.rounds == {} and absent.game_points == 0
        # Every table of 3 gives at least 2 place points: under either rule he is last.
        assert absent.position == len(rows)
        assert absent.place_points == 0
