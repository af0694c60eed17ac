"""Each pule rule of docs/rules.md on its own: writing, the collection order, penalties,
settlement."""

import pytest

from engine import SheetError, settle_round
from engine.sheet import PuleEvent

from .factories import (
    FOUR,
    THREE,
    everyone_passes,
    galdins,
    lielais,
    maza_zole,
    penalty,
    play,
    zole,
)

WIN = (75, 5)  # a Lielais win in the 61-90 band: u = 1
LOSS = (45, 3)  # a Lielais loss in the 31-60 band: u = -2


def won(declarer):
    return lielais(declarer, *WIN)


def lost(declarer):
    return lielais(declarer, *LOSS)


class TestCommonPule:
    def test_everyone_passing_writes_one_common_pule_each_time_and_they_pile_up(self):
        sheet = play(everyone_passes(), everyone_passes(), everyone_passes(), closed=False)
        assert [deal.common_pules for deal in sheet.deals] == [1, 2, 3]
        assert all(deal.pule_event is PuleEvent.COMMON_WRITTEN for deal in sheet.deals)
        assert sheet.open_common_pules == 3

    def test_a_won_lielais_collects_one_common_pule_from_every_other_player(self):
        sheet = play(everyone_passes(), everyone_passes(), won("C"))
        assert sheet.deals[2].scores == {"A": -2, "B": -2, "C": 4}  # 2 + 2 for the pule
        assert sheet.deals[2].pule_event is PuleEvent.COMMON_COLLECTED
        assert sheet.open_common_pules == 1  # one pule per win

    def test_at_a_four_table_the_sitting_out_dealer_pays_the_common_pule_too(self):
        # D deals deal 1; A deals deal 2 and sits it out, B wins Lielais.
        sheet = play(everyone_passes(), won("B"), players=FOUR, first_dealer="D")
        assert sheet.deals[1].sitting_out == "A"
        assert sheet.deals[1].scores == {"A": -2, "B": 6, "C": -2, "D": -2}

    def test_zole_neither_collects_nor_writes_pules(self):
        sheet = play(everyone_passes(), zole("B", 75, 5), zole("C", 40, 3), closed=False)
        assert sheet.deals[1].scores == {"A": -5, "B": 10, "C": -5}
        assert sheet.open_common_pules == 1
        assert sheet.open_personal_pules == {"A": 0, "B": 0, "C": 0}

    def test_maza_zole_neither_collects_nor_writes_pules(self):
        sheet = play(
            everyone_passes(), maza_zole("B", 0), maza_zole("C", 1), small_zole=True, closed=False
        )
        assert sheet.deals[1].scores == {"A": -6, "B": 12, "C": -6}
        assert sheet.open_common_pules == 1
        assert sheet.open_personal_pules == {"A": 0, "B": 0, "C": 0}

    def test_common_pules_still_open_at_the_end_of_the_round_lapse(self):
        sheet = play(won("B"), everyone_passes(), everyone_passes())
        assert sheet.open_common_pules == 2
        assert sheet.settlement == {"A": 0, "B": 0, "C": 0}
        assert sheet.totals == {"A": -1, "B": 2, "C": -1}


class TestPersonalPule:
    def test_a_lost_lielais_gets_a_personal_pule_when_a_common_pule_is_open(self):
        sheet = play(everyone_passes(), lost("C"), closed=False)
        assert sheet.deals[1].scores == {"A": 2, "B": 2, "C": -4}  # no extra points
        assert sheet.deals[1].pule_event is PuleEvent.PERSONAL_WRITTEN
        assert sheet.open_personal_pules == {"A": 0, "B": 0, "C": 1}
        assert sheet.open_common_pules == 1  # the common pule stays

    def test_a_lost_lielais_gets_no_pule_when_none_is_open(self):
        sheet = play(lost("B"), closed=False)
        assert sheet.deals[0].pule_event is None
        assert sheet.open_personal_pules == {"A": 0, "B": 0, "C": 0}

    def test_a_lost_lielais_gets_a_personal_pule_when_only_personal_pules_are_open(self):
        sheet = play(penalty("A"), lost("B"), closed=False)
        assert sheet.open_common_pules == 0
        assert sheet.open_personal_pules == {"A": 1, "B": 1, "C": 0}

    def test_a_lost_zole_gets_no_personal_pule(self):
        sheet = play(everyone_passes(), zole("C", 40, 3), closed=False)
        assert sheet.open_personal_pules == {"A": 0, "B": 0, "C": 0}


class TestCollectionOrder:
    def test_first_his_own_personal_pule_is_crossed_out_with_no_extra_points(self):
        sheet = play(everyone_passes(), lost("C"), won("C"), closed=False)
        #  C's own pule goes before the open common pule.
        assert sheet.deals[2].scores == {"A": -1, "B": -1, "C": 2}
        assert sheet.deals[2].pule_event is PuleEvent.OWN_COLLECTED
        assert sheet.open_personal_pules == {"A": 0, "B": 0, "C": 0}
        assert sheet.open_common_pules == 1

    def test_then_a_common_pule_before_other_players_personal_pules(self):
        sheet = play(everyone_passes(), lost("C"), won("A"), closed=False)
        assert sheet.deals[2].scores == {"A": 4, "B": -2, "C": -2}
        assert sheet.deals[2].pule_event is PuleEvent.COMMON_COLLECTED
        assert sheet.open_personal_pules == {"A": 0, "B": 0, "C": 1}

    def test_then_the_oldest_personal_pule_of_another_player_whose_owner_alone_pays_n_minus_1(
        self,
    ):
        sheet = play(everyone_passes(), lost("C"), won("A"), won("B"), closed=False)
        # Deal 4: no common pule is left, C's personal pule is collected: C alone pays 2.
        assert sheet.deals[3].scores == {"A": -1, "B": 4, "C": -3}
        assert sheet.deals[3].pule_event is PuleEvent.PERSONAL_COLLECTED
        assert sheet.deals[3].pule_owner == "C"
        assert sheet.open_personal_pules == {"A": 0, "B": 0, "C": 0}

    def test_the_oldest_personal_pule_goes_first(self):
        sheet = play(penalty("C"), penalty("B"), won("A"), closed=False)
        assert sheet.deals[2].pule_owner == "C"
        assert sheet.deals[2].scores == {"A": 4, "B": -1, "C": -3}
        sheet = play(penalty("B"), penalty("C"), won("A"), closed=False)
        assert sheet.deals[2].pule_owner == "B"
        assert sheet.deals[2].scores == {"A": 4, "B": -3, "C": -1}

    def test_his_own_pule_is_taken_even_when_it_is_not_the_oldest(self):
        sheet = play(penalty("B"), penalty("A"), won("A"), closed=False)
        assert sheet.deals[2].pule_event is PuleEvent.OWN_COLLECTED
        assert sheet.open_personal_pules == {"A": 0, "B": 1, "C": 0}

    @pytest.mark.parametrize(
        ("payment", "players", "first_dealer", "owner_pays"),
        [
            ("N-1", THREE, None, 2),
            ("N", THREE, None, 3),
            ("N-1", FOUR, "D", 3),
            ("N", FOUR, "D", 4),
        ],
    )
    def test_personal_pule_payment_option(self, payment, players, first_dealer, owner_pays):
        sheet = play(
            penalty("C"),
            won("A"),
            players=players,
            first_dealer=first_dealer,
            personal_pule_payment=payment,
            closed=False,
        )
        base = len(players) - 1
        assert sheet.deals[1].scores["C"] == -1 - owner_pays
        assert sheet.deals[1].scores["A"] == base + owner_pays
        assert sum(sheet.deals[1].scores.values()) == 0

    def test_a_won_lielais_collects_nothing_when_no_pule_is_open(self):
        sheet = play(won("B"), closed=False)
        assert sheet.deals[0].pule_event is None
        assert sheet.deals[0].scores == {"A": -1, "B": 2, "C": -1}


class TestPenaltyPule:
    def test_a_penalty_pule_uses_no_deal_and_moves_no_points(self):
        sheet = play(penalty("B"), won("C"), closed=False)
        assert sheet.deals[0].dealer is None
        assert sheet.deals[0].number is None
        assert sheet.deals[0].scores == {"A": 0, "B": 0, "C": 0}
        assert sheet.deals[0].pule_event is PuleEvent.PENALTY
        assert sheet.deals[1].dealer == "A"  # the first deal is still dealt by the first dealer
        assert sheet.deals[1].number == 1
        assert sheet.deals_played == 1

    def test_a_penalty_pule_is_collected_like_any_personal_pule(self):
        sheet = play(penalty("A"), won("B"), closed=False)
        assert sheet.deals[1].scores == {"A": -3, "B": 4, "C": -1}


class TestSettlement:
    def test_each_open_personal_pule_costs_its_owner_one_point_to_every_other_player(self):
        sheet = play(everyone_passes(), lost("B"), penalty("B"), penalty("C"))
        assert sheet.open_personal_pules == {"A": 0, "B": 2, "C": 1}
        # B pays 1 to A and to C for each of his 2 pules; C pays 1 to A and to B.
        assert sheet.settlement == {"A": 3, "B": -3, "C": 0}
        assert sheet.totals == {"A": 5, "B": -7, "C": 2}

    def test_at_a_four_table_the_owner_pays_all_three_others(self):
        assert settle_round({"B": 1}, FOUR) == {"A": 1, "B": -3, "C": 1, "D": 1}

    def test_an_open_round_is_not_settled(self):
        sheet = play(penalty("B"), closed=False)
        assert sheet.settlement == {"A": 0, "B": 0, "C": 0}
        assert sheet.totals == {"A": 0, "B": 0, "C": 0}

    def test_galdins_tables_keep_no_pules(self):
        sheet = play(won("B"), lost("C"), all_pass="galdins")
        assert sheet.open_common_pules == 0
        assert sheet.open_personal_pules == {"A": 0, "B": 0, "C": 0}
        assert sheet.settlement == {"A": 0, "B": 0, "C": 0}


class TestFourTablePassPules:
    """four_table_pass_pules = 2: at a 4-table an all-pass writes two common pules when no pule
    of any kind is open, otherwise one."""

    def test_two_when_nothing_is_open_then_one_while_pules_are_open(self):
        sheet = play(
            everyone_passes(),
            everyone_passes(),
            players=FOUR,
            first_dealer="D",
            four_table_pass_pules=2,
            closed=False,
        )
        assert [deal.common_pules for deal in sheet.deals] == [2, 3]

    def test_one_when_only_a_personal_pule_is_open(self):
        sheet = play(
            penalty("B"),
            everyone_passes(),
            players=FOUR,
            first_dealer="D",
            four_table_pass_pules=2,
            closed=False,
        )
        assert sheet.deals[1].common_pules == 1

    def test_two_again_once_every_pule_is_collected(self):
        sheet = play(
            everyone_passes(),  # D deals: 2
            won("B"),  # A deals: B takes one
            won("C"),  # B deals: C takes the other
            everyone_passes(),  # C deals: nothing open, 2 again
            players=FOUR,
            first_dealer="D",
            four_table_pass_pules=2,
            closed=False,
        )
        assert [deal.common_pules for deal in sheet.deals] == [2, 1, 0, 2]

    def test_a_three_table_writes_one_under_either_value(self):
        sheet = play(everyone_passes(), four_table_pass_pules=2, closed=False)
        assert sheet.deals[0].common_pules == 1

    def test_the_default_writes_one_at_a_four_table(self):
        sheet = play(everyone_passes(), players=FOUR, first_dealer="D", closed=False)
        assert sheet.deals[0].common_pules == 1


GALDINS_PULE = {"all_pass": "galdins_pule"}
A_LOSES_GALDINS = ({"A": 4, "B": 2, "C": 2}, {"A": 60, "B": 30, "C": 30})  # tricks: A pays 2 each


def galdins_played():
    return galdins(*A_LOSES_GALDINS)


class TestGaldinsPule:
    """all_pass = "galdins_pule": galdiņš is played and scored, and the common pule(s) are written
    exactly as for "pule"; every pule rule applies."""

    def test_galdins_is_scored_and_writes_a_common_pule(self):
        sheet = play(galdins_played(), closed=False, **GALDINS_PULE)
        assert sheet.deals[0].scores == {"A": -4, "B": 2, "C": 2}
        assert sheet.deals[0].pule_event is PuleEvent.COMMON_WRITTEN
        assert sheet.open_common_pules == 1

    def test_a_won_lielais_collects_the_common_pule_of_a_galdins(self):
        sheet = play(galdins_played(), won("C"), closed=False, **GALDINS_PULE)
        assert sheet.deals[1].scores == {"A": -2, "B": -2, "C": 4}
        assert sheet.open_common_pules == 0

    def test_a_lost_lielais_gets_a_personal_pule_that_the_settlement_charges(self):
        sheet = play(galdins_played(), lost("B"), **GALDINS_PULE)
        assert sheet.open_personal_pules == {"A": 0, "B": 1, "C": 0}
        assert sheet.settlement == {"A": 1, "B": -2, "C": 1}

    def test_four_table_pass_pules_applies_to_galdins_too(self):
        sheet = play(
            galdins_played(),
            players=FOUR,
            first_dealer="D",
            four_table_pass_pules=2,
            closed=False,
            **GALDINS_PULE,
        )
        assert sheet.deals[0].common_pules == 2

    def test_penalty_pules_are_given_under_galdins_pule(self):
        sheet = play(penalty("B"), won("A"), closed=False, **GALDINS_PULE)
        assert sheet.deals[1].pule_event is PuleEvent.PERSONAL_COLLECTED
        assert sheet.deals[1].scores == {"A": 4, "B": -3, "C": -1}

    def test_galdins_without_pules_writes_none(self):
        sheet = play(galdins_played(), closed=False, all_pass="galdins")
        assert sheet.deals[0].pule_event is None
        assert sheet.open_common_pules == 0


class TestPenaltyPuleCap:
    def test_three_penalty_pules_for_one_player_are_allowed(self):
        sheet = play(penalty("B"), penalty("B"), penalty("B"), closed=False)
        assert sheet.open_personal_pules == {"A": 0, "B": 3, "C": 0}

    def test_a_fourth_for_the_same_player_is_refused_even_after_one_was_collected(self):
        with pytest.raises(SheetError) as refused:
            play(penalty("B"), penalty("B"), won("A"), penalty("B"), penalty("B"))
        assert str(refused.value) == (
            "deal 5: player B already has 3 penalty pules: at most 3 per player per round"
        )
        assert refused.value.field == "player"

    def test_the_cap_is_per_player(self):
        entries = [penalty(name) for name in "ABC" for _ in range(3)]
        sheet = play(*entries, closed=False)
        assert sheet.open_personal_pules == {"A": 3, "B": 3, "C": 3}
