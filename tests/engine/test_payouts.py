"""Every row of every payout table of docs/rules.md, at tables of 3 and 4, and its worked
examples."""

import pytest

from engine import Play, Rules, score_deal
from engine.rules import Game

from .factories import FOUR, THREE, everyone_passes, galdins, lielais, maza_zole, play, zole

# (points, tricks, u per other player) — one row per band of the table in docs/rules.md.
LIELAIS_ROWS = [
    pytest.param(61, 4, 1, id="wins 61 (lowest win)"),
    pytest.param(75, 5, 1, id="wins 61-90"),
    pytest.param(90, 6, 1, id="wins 90 (highest of the band)"),
    pytest.param(91, 6, 2, id="wins 91 or more"),
    pytest.param(118, 7, 2, id="wins 118 with 7 tricks"),
    pytest.param(120, 7, 2, id="all 120 points but not all tricks"),
    pytest.param(120, 8, 3, id="wins all 8 tricks"),
    pytest.param(60, 4, -2, id="loses with 60"),
    pytest.param(31, 3, -2, id="loses 31-60"),
    pytest.param(30, 2, -3, id="loses with 30 (jaņos)"),
    pytest.param(0, 1, -3, id="a 0-point trick is still a trick"),
    pytest.param(14, 0, -4, id="took no trick (the discards do not count)"),
    pytest.param(0, 0, -4, id="took no trick, empty discards"),
]

ZOLE_ROWS = [
    pytest.param(61, 4, 5, id="wins 61-90"),
    pytest.param(90, 6, 5, id="wins 90"),
    pytest.param(91, 6, 6, id="wins 91 or more"),
    pytest.param(98, 8, 7, id="all tricks, the talon's points go to the defenders"),
    pytest.param(120, 8, 7, id="all tricks and all points"),
    pytest.param(60, 4, -6, id="loses with 60"),
    pytest.param(31, 3, -6, id="loses 31-60"),
    pytest.param(30, 2, -7, id="loses with 30 or fewer"),
    pytest.param(0, 0, -8, id="no trick"),
]


def expected_scores(players: tuple[str, ...], declarer: str, unit: int) -> dict[str, int]:
    """Each other seated player (the sitting-out dealer too) pays u; the declarer gets u(N-1)."""
    return {name: unit * (len(players) - 1) if name == declarer else -unit for name in players}


@pytest.mark.parametrize(("points", "tricks", "unit"), LIELAIS_ROWS)
@pytest.mark.parametrize("players", [THREE, FOUR], ids=["3 players", "4 players"])
def test_lielais_pays_its_band(players, points, tricks, unit):
    scores = score_deal(lielais("B", points, tricks), players=players, dealer="A")
    assert scores == expected_scores(players, "B", unit)


@pytest.mark.parametrize(("points", "tricks", "unit"), ZOLE_ROWS)
@pytest.mark.parametrize("players", [THREE, FOUR], ids=["3 players", "4 players"])
def test_zole_pays_its_band(players, points, tricks, unit):
    scores = score_deal(zole("C", points, tricks), players=players, dealer="A")
    assert scores == expected_scores(players, "C", unit)


@pytest.mark.parametrize(("tricks", "unit"), [(0, 6), (1, -7), (8, -7)])
@pytest.mark.parametrize("players", [THREE, FOUR], ids=["3 players", "4 players"])
def test_maza_zole_wins_only_without_a_trick(players, tricks, unit):
    scores = score_deal(
        maza_zole("B", tricks), players=players, dealer="A", rules=Rules(small_zole=True)
    )
    assert scores == expected_scores(players, "B", unit)


@pytest.mark.parametrize("players", [THREE, FOUR], ids=["3 players", "4 players"])
def test_everyone_passing_moves_no_points(players):
    assert score_deal(everyone_passes(), players=players, dealer="A") == dict.fromkeys(players, 0)


GALDINS = Rules(all_pass="galdins")


def test_galdins_the_player_with_most_tricks_pays_two_to_each_other_player():
    deal = galdins(tricks={"A": 4, "B": 2, "C": 2}, points={"A": 60, "B": 30, "C": 30})
    assert score_deal(deal, players=THREE, dealer="A", rules=GALDINS) == {"A": -4, "B": 2, "C": 2}


def test_galdins_a_tie_on_tricks_goes_to_more_card_points():
    deal = galdins(tricks={"A": 3, "B": 3, "C": 2}, points={"A": 40, "B": 45, "C": 35})
    assert score_deal(deal, players=THREE, dealer="A", rules=GALDINS) == {"A": 2, "B": -4, "C": 2}


def test_galdins_players_still_tied_all_lose():
    deal = galdins(tricks={"A": 3, "B": 3, "C": 2}, points={"A": 45, "B": 45, "C": 30})
    # A pays 2 to B and C, B pays 2 to A and C.
    assert score_deal(deal, players=THREE, dealer="A", rules=GALDINS) == {"A": -2, "B": -2, "C": 4}


def test_galdins_at_a_four_table_the_sitting_out_dealer_is_paid_too():
    deal = galdins(tricks={"A": 2, "B": 5, "C": 1}, points={"A": 30, "B": 70, "C": 20})
    scores = score_deal(deal, players=FOUR, dealer="D", rules=GALDINS)
    assert scores == {"A": 2, "B": -6, "C": 2, "D": 2}


def test_dealer_sitting_out_loses_with_the_defenders_and_wins_with_them():
    won = score_deal(lielais("A", 75, 5), players=FOUR, dealer="D")
    lost = score_deal(lielais("A", 45, 3), players=FOUR, dealer="D")
    assert won["D"] == won["B"] == won["C"] == -1
    assert lost["D"] == lost["B"] == lost["C"] == 2


def test_play_refuses_a_game_without_declarer():
    with pytest.raises(ValueError, match="has no declarer"):
        Play(Game.PASS, "A", tricks=0)


class TestWorkedExamplesOfRules:
    """docs/rules.md, 'Worked examples': 3 players A, B, C; A deals first, so B has priority."""

    def sheet(self):
        return play(
            lielais("B", 75, 5),
            everyone_passes(),
            lielais("C", 95, 6),
            zole("A", 0, 0),
        )

    def test_1_b_plays_lielais_75_points_5_tricks(self):
        assert self.sheet().deals[0].scores == {"A": -1, "B": 2, "C": -1}

    def test_2_all_pass_writes_one_common_pule(self):
        deal = self.sheet().deals[1]
        assert deal.scores == {"A": 0, "B": 0, "C": 0}
        assert deal.common_pules == 1

    def test_3_c_wins_lielais_95_points_and_collects_the_common_pule(self):
        deal = self.sheet().deals[2]
        assert deal.scores == {"A": -3, "B": -3, "C": 6}
        assert deal.common_pules == 0

    def test_4_a_plays_zole_and_takes_no_trick(self):
        assert self.sheet().deals[3].scores == {"A": -16, "B": 8, "C": 8}

    def test_the_dealer_rotates_left_from_a(self):
        assert [deal.dealer for deal in self.sheet().deals] == ["A", "B", "C", "A"]

    def test_5_four_table_d_deals_a_wins_lielais_61_to_90(self):
        sheet = play(lielais("A", 75, 5), players=FOUR, first_dealer="D")
        assert sheet.deals[0].dealer == "D"
        assert sheet.deals[0].scores == {"A": 3, "B": -1, "C": -1, "D": -1}


# --- Rule-set options: rondo galdiņš, small_zole_loss ------------------------------------------

RONDO = Rules(all_pass="galdins", galdins_scoring="rondo")


def rondo(tricks, points, draw_loser=None, *, players=THREE, dealer="A"):
    deal = galdins(tricks, points, draw_loser)
    return score_deal(deal, players=players, dealer=dealer, rules=RONDO)


class TestRondoGaldins:
    """galdins_scoring = "rondo": the most card points loses; each winner receives 3 with no
    trick, 2 with 30 points or fewer, 1 with more."""

    def test_the_most_card_points_loses_whoever_has_the_most_tricks(self):
        # A has the fewest tricks but the most points: under "tricks" B would lose.
        scores = rondo({"A": 1, "B": 4, "C": 3}, {"A": 60, "B": 35, "C": 25})
        assert scores == {"A": -3, "B": 1, "C": 2}

    def test_a_winner_with_30_points_receives_2_and_with_31_receives_1(self):
        scores = rondo({"A": 2, "B": 3, "C": 3}, {"A": 30, "B": 31, "C": 59})
        assert scores == {"A": 2, "B": 1, "C": -3}

    def test_a_winner_who_took_no_trick_receives_3(self):
        scores = rondo({"A": 0, "B": 4, "C": 4}, {"A": 0, "B": 50, "C": 70})
        assert scores == {"A": 3, "B": 1, "C": -4}

    def test_a_0_point_trick_is_a_trick_and_receives_2_not_3(self):
        scores = rondo({"A": 1, "B": 3, "C": 4}, {"A": 0, "B": 40, "C": 80})
        assert scores == {"A": 2, "B": 1, "C": -3}

    def test_two_tied_losers_split_an_even_amount(self):
        scores = rondo({"A": 3, "B": 3, "C": 2}, {"A": 45, "B": 45, "C": 30})
        assert scores == {"A": -1, "B": -1, "C": 2}

    def test_two_tied_losers_split_an_odd_amount_and_the_draw_loser_pays_the_larger_half(self):
        tricks, points = {"A": 4, "B": 4, "C": 0}, {"A": 60, "B": 60, "C": 0}
        assert rondo(tricks, points, draw_loser="A") == {"A": -2, "B": -1, "C": 3}
        assert rondo(tricks, points, draw_loser="B") == {"A": -1, "B": -2, "C": 3}

    def test_three_tied_for_the_most_points_move_nothing(self):
        scores = rondo({"A": 3, "B": 3, "C": 2}, {"A": 40, "B": 40, "C": 40})
        assert scores == {"A": 0, "B": 0, "C": 0}

    def test_at_a_four_table_the_sitting_out_dealer_neither_pays_nor_receives(self):
        scores = rondo(
            {"A": 0, "B": 3, "C": 5}, {"A": 0, "B": 40, "C": 80}, players=FOUR, dealer="D"
        )
        assert scores == {"A": 3, "B": 1, "C": -4, "D": 0}

    def test_at_a_four_table_tied_losers_pay_only_the_playing_winner(self):
        scores = rondo(
            {"B": 3, "C": 3, "D": 2}, {"B": 44, "C": 44, "D": 32}, "C", players=FOUR, dealer="A"
        )
        assert scores == {"A": 0, "B": 0, "C": -1, "D": 1}

    def test_tricks_scoring_stays_the_default(self):
        deal = galdins({"A": 0, "B": 3, "C": 5}, {"A": 0, "B": 40, "C": 80})
        scores = score_deal(deal, players=THREE, dealer="A", rules=Rules(all_pass="galdins"))
        assert scores == {"A": 2, "B": 2, "C": -4}  # the most tricks pays 2 to each


@pytest.mark.parametrize("loss", [7, 6])
@pytest.mark.parametrize("players", [THREE, FOUR], ids=["3 players", "4 players"])
def test_small_zole_loss_is_the_unit_of_a_lost_maza_zole(players, loss):
    rules = Rules(small_zole=True, small_zole_loss=loss)
    lost = score_deal(maza_zole("B", 1), players=players, dealer="A", rules=rules)
    won = score_deal(maza_zole("B", 0), players=players, dealer="A", rules=rules)
    assert lost == expected_scores(players, "B", -loss)
    assert won == expected_scores(players, "B", 6)  # a win pays 6 either way


class TestWorkedExamplesOfTheRuleOptions:
    """docs/rules.md, 'Worked examples' 6-10: 3 players A, B, C with A dealing first, unless the
    example seats a 4-table."""

    def test_6_rondo_galdins_c_with_the_most_points_loses(self):
        sheet = play(
            galdins({"A": 0, "B": 3, "C": 5}, {"A": 0, "B": 40, "C": 80}),
            all_pass="galdins",
            galdins_scoring="rondo",
        )
        assert sheet.deals[0].scores == {"A": 3, "B": 1, "C": -4}

    def test_7_rondo_galdins_a_and_b_tied_split_what_c_receives(self):
        sheet = play(
            galdins({"A": 3, "B": 3, "C": 2}, {"A": 50, "B": 50, "C": 20}),
            galdins({"A": 3, "B": 3, "C": 2}, {"A": 44, "B": 44, "C": 32}, draw_loser="B"),
            all_pass="galdins",
            galdins_scoring="rondo",
        )
        assert sheet.deals[0].scores == {"A": -1, "B": -1, "C": 2}
        assert sheet.deals[1].scores == {"A": 0, "B": -1, "C": 1}

    def test_8_four_table_two_common_pules_when_none_is_open_then_one(self):
        sheet = play(
            everyone_passes(),
            everyone_passes(),
            lielais("C", 75, 5),
            players=FOUR,
            first_dealer="D",
            four_table_pass_pules=2,
        )
        assert [deal.dealer for deal in sheet.deals] == ["D", "A", "B"]
        assert [deal.common_pules for deal in sheet.deals] == [2, 3, 2]
        assert sheet.deals[2].scores == {"A": -2, "B": -2, "C": 6, "D": -2}
        assert sheet.open_common_pules == 2

    def test_9_galdins_pule_scores_the_rondo_galdins_and_writes_a_pule_a_collects(self):
        sheet = play(
            galdins({"A": 0, "B": 3, "C": 5}, {"A": 0, "B": 40, "C": 80}),
            lielais("A", 75, 5),
            all_pass="galdins_pule",
            galdins_scoring="rondo",
        )
        assert sheet.deals[0].scores == {"A": 3, "B": 1, "C": -4}
        assert sheet.deals[0].common_pules == 1
        assert sheet.deals[1].scores == {"A": 4, "B": -2, "C": -2}
        assert sheet.open_common_pules == 0

    def test_10_maza_zole_lost_with_small_zole_loss_6(self):
        sheet = play(maza_zole("B", 2), small_zole=True, small_zole_loss=6)
        assert sheet.deals[0].scores == {"A": 6, "B": -12, "C": 6}
