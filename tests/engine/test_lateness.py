"""Late and absent players (docs/rules.md, "Late and absent players"): the waiting time, the
pule for coming after it, and the table of 4 that plays on as a table of 3."""

import datetime

import pytest

from engine import SheetError
from engine.lateness import late_pule_due, minutes_late, out_of_round_due, table_without
from engine.sheet import Sheet, score_sheet

from .factories import lielais, penalty

START = datetime.datetime(2026, 5, 9, 10, 0, tzinfo=datetime.UTC)


def at(minutes, seconds=0):
    return START + datetime.timedelta(minutes=minutes, seconds=seconds)


class TestMinutesLate:
    def test_a_player_is_late_by_whole_minutes_after_the_start(self):
        assert minutes_late(START, at(6, 30)) == 6

    def test_three_minutes_fifty_nine_seconds_is_three_minutes(self):
        assert minutes_late(START, at(3, 59)) == 3

    def test_a_player_who_came_before_the_start_is_not_late(self):
        assert minutes_late(START, at(-5)) == 0


class TestTheWaitingTime:
    def test_coming_after_the_waiting_time_costs_a_pule(self):
        assert late_pule_due(4, wait_minutes=3)

    def test_coming_at_the_end_of_the_waiting_time_is_in_time(self):
        assert not late_pule_due(3, wait_minutes=3)

    def test_no_waiting_time_set_means_no_pule(self):
        assert not late_pule_due(45, wait_minutes=None)

    def test_no_waiting_time_at_all_makes_any_lateness_cost_a_pule(self):
        assert late_pule_due(1, wait_minutes=0)
        assert not late_pule_due(0, wait_minutes=0)


class TestOutByADeal:
    def test_not_there_by_deal_4_is_out_once_the_hall_has_played_3_deals(self):
        assert not out_of_round_due(2, out_deal=4)
        assert out_of_round_due(3, out_deal=4)
        assert out_of_round_due(10, out_deal=4)

    def test_not_there_by_deal_1_is_out_at_the_start(self):
        assert out_of_round_due(0, out_deal=1)


class TestATableOf4PlaysOnAsATableOf3:
    def test_the_others_keep_their_order_and_the_first_dealer(self):
        table = table_without(("A", "B", "C", "D"), "C", out="B")
        assert table.players == ("A", "C", "D")
        assert table.first_dealer == "C"

    def test_when_the_first_dealer_is_out_the_player_to_his_left_deals_first(self):
        assert table_without(("A", "B", "C", "D"), "B", out="B").first_dealer == "C"
        assert table_without(("A", "B", "C", "D"), "D", out="D").first_dealer == "A"

    def test_every_deal_of_the_table_of_3_sums_to_zero_and_everyone_plays(self):
        table = table_without(("A", "B", "C", "D"), "A", out="D")
        sheet = score_sheet(
            Sheet(
                players=table.players,
                entries=(penalty("A"), lielais("B", 75, 5), lielais("C", 45, 3)),
                first_dealer=table.first_dealer,
            )
        )
        assert all(sum(deal.score_row) == 0 for deal in sheet.deals)
        assert sheet.zero_sum
        assert sheet.deals[1].sitting_out is None  # at a table of 3 the dealer plays

    def test_a_table_of_3_cannot_play_on_with_two(self):
        with pytest.raises(SheetError, match="only a table of 4 plays on"):
            table_without(("A", "B", "C"), "A", out="C")

    def test_a_player_who_is_not_at_the_table_is_refused(self):
        with pytest.raises(SheetError, match="not at this table"):
            table_without(("A", "B", "C", "D"), "A", out="E")
