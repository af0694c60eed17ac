"""Validation (docs/rules.md, "What is refused"): bad input is refused with a message naming the
deal and the field."""

import pytest

from engine import PlaceScheme, Play, Rules, Sheet, SheetError, galdins_draw_needed, score_sheet
from engine.json_contract import sheet_from_json
from engine.rules import AllPass, GaldinsScoring, Game, deals_per_round_fits

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


def refusal(*entries, **options) -> SheetError:
    with pytest.raises(SheetError) as caught:
        play(*entries, **options)
    return caught.value


def test_the_error_names_the_one_based_deal_and_the_field():
    error = refusal(lielais("B", 75, 5), lielais("C", 130, 5))
    assert str(error) == "deal 2: points must be 0-120, got 130"
    assert (error.deal, error.field) == (2, "points")


def test_a_penalty_counts_as_an_entry_when_naming_the_deal():
    error = refusal(penalty("A"), lielais("C", 75, 9))
    assert str(error) == "deal 2: tricks must be 0-8, got 9"


class TestDeclarer:
    def test_must_be_seated_at_the_table(self):
        error = refusal(lielais("Zane", 75, 5))
        assert str(error) == 'deal 1: declarer "Zane" is not at this table'
        assert error.field == "declarer"

    def test_cannot_be_the_sitting_out_dealer_at_a_four_table(self):
        error = refusal(lielais("B", 75, 5), lielais("B", 75, 5), players=FOUR)
        assert str(error) == (
            "deal 2: declarer B deals this deal and sits it out at a 4-player table"
        )

    def test_the_dealer_may_declare_at_a_three_table(self):
        assert play(lielais("A", 75, 5)).totals["A"] == 2


class TestPointsAndTricks:
    @pytest.mark.parametrize("points", [-1, 121, 130])
    def test_points_are_0_to_120(self, points):
        assert refusal(lielais("B", points, 5)).field == "points"

    @pytest.mark.parametrize("points", [1, 119])
    def test_1_and_119_points_are_impossible(self, points):
        error = refusal(lielais("B", points, 4))
        assert str(error) == f"deal 1: points cannot be {points}: no set of cards is worth 1 point"

    @pytest.mark.parametrize("tricks", [-1, 9])
    def test_tricks_are_0_to_8(self, tricks):
        assert refusal(lielais("B", 75, tricks)).field == "tricks"

    @pytest.mark.parametrize("value", [75.5, "75", None, True, [75]])
    def test_points_must_be_a_whole_number(self, value):
        error = refusal(Play(Game.LIELAIS, "B", tricks=5, points=value))
        assert error.field == "points"
        assert "whole number" in str(error) or "missing" in str(error)

    def test_tricks_must_be_a_whole_number(self):
        error = refusal(Play(Game.ZOLE, "B", tricks=5.0, points=75))
        assert str(error) == "deal 1: tricks must be a whole number, got 5.0"


class TestLielais:
    def test_all_8_tricks_means_120_points(self):
        assert refusal(lielais("B", 110, 8)).field == "points"
        assert play(lielais("B", 120, 8)).totals["B"] == 6

    def test_no_trick_means_at_most_22_points_of_discards(self):
        assert str(refusal(lielais("B", 23, 0))) == (
            "deal 1: points must be at most 22 (the discards) when Lielais takes no trick, got 23"
        )
        assert play(lielais("B", 22, 0)).totals["B"] == -8


class TestZole:
    def test_no_trick_means_0_points(self):
        assert refusal(zole("B", 10, 0)).field == "points"
        assert play(zole("B", 0, 0)).totals["B"] == -16

    def test_all_8_tricks_means_at_least_98_points(self):
        assert refusal(zole("B", 97, 8)).field == "points"
        assert play(zole("B", 98, 8)).totals["B"] == 14


class TestGaldins:
    def test_tricks_of_the_three_playing_players_sum_to_8(self):
        error = refusal(
            galdins({"A": 4, "B": 2, "C": 1}, {"A": 60, "B": 30, "C": 30}), all_pass="galdins"
        )
        assert str(error) == "deal 1: tricks must add up to 8, got 7"

    def test_points_sum_to_at_most_120(self):
        error = refusal(
            galdins({"A": 4, "B": 2, "C": 2}, {"A": 60, "B": 40, "C": 30}), all_pass="galdins"
        )
        assert str(error) == "deal 1: points must add up to at most 120, got 130"

    def test_every_playing_player_is_given(self):
        error = refusal(galdins({"A": 4, "B": 4}, {"A": 60, "B": 60}), all_pass="galdins")
        assert str(error) == "deal 1: tricks of C is missing"

    def test_the_sitting_out_dealer_does_not_play_galdins(self):
        error = refusal(
            galdins({"A": 4, "B": 2, "C": 2, "D": 0}, {"A": 60, "B": 30, "C": 30, "D": 0}),
            players=FOUR,
            first_dealer="D",
            all_pass="galdins",
        )
        assert error.field == "tricks: player"
        assert "D deals this deal and sits it out" in str(error)

    def test_a_stranger_is_refused(self):
        error = refusal(
            galdins({"A": 4, "B": 2, "Zane": 2}, {"A": 60, "B": 30, "Zane": 30}),
            all_pass="galdins",
        )
        assert str(error) == 'deal 1: tricks: player "Zane" is not at this table'


class TestRuleSet:
    def test_maza_zole_is_refused_unless_the_rules_turn_it_on(self):
        assert str(refusal(maza_zole("B", 0))) == (
            "deal 1: maza_zole is not played under this table's rules"
        )

    def test_galdins_is_refused_under_the_pule_rule(self):
        deal = galdins({"A": 4, "B": 2, "C": 2}, {"A": 60, "B": 30, "C": 30})
        assert refusal(deal).field == "game"

    def test_passing_is_refused_when_everyone_passing_means_galdins(self):
        assert refusal(everyone_passes(), all_pass="galdins").field == "game"

    def test_a_penalty_pule_is_refused_when_the_table_keeps_no_pules(self):
        assert refusal(penalty("A"), all_pass="galdins").field == "penalty"

    def test_passing_is_refused_under_galdins_pule_where_galdins_is_played(self):
        error = refusal(everyone_passes(), all_pass="galdins_pule")
        assert str(error) == "deal 1: pass is not played under this table's rules"

    def test_galdins_is_played_under_galdins_pule(self):
        deal = galdins({"A": 4, "B": 2, "C": 2}, {"A": 60, "B": 30, "C": 30})
        assert play(deal, all_pass="galdins_pule").deals[0].scores == {"A": -4, "B": 2, "C": 2}

    @pytest.mark.parametrize(
        ("options", "field"),
        [
            ({"all_pass": "nobody"}, "rules.all_pass"),
            ({"personal_pule_payment": "N+1"}, "rules.personal_pule_payment"),
            ({"small_zole": "yes"}, "rules.small_zole"),
            ({"four_table_pass_pules": 3}, "rules.four_table_pass_pules"),
            ({"four_table_pass_pules": 0}, "rules.four_table_pass_pules"),
            ({"four_table_pass_pules": "2"}, "rules.four_table_pass_pules"),
            ({"four_table_pass_pules": True}, "rules.four_table_pass_pules"),
            ({"four_table_pass_pules": 2.0}, "rules.four_table_pass_pules"),
            ({"galdins_scoring": "points"}, "rules.galdins_scoring"),
            ({"galdins_scoring": None}, "rules.galdins_scoring"),
            ({"small_zole_loss": 8}, "rules.small_zole_loss"),
            ({"small_zole_loss": -6}, "rules.small_zole_loss"),
            ({"small_zole_loss": "6"}, "rules.small_zole_loss"),
        ],
    )
    def test_unknown_rule_options_are_refused(self, options, field):
        with pytest.raises(SheetError) as caught:
            Rules(**options)
        assert caught.value.field == field

    def test_an_unknown_option_value_is_refused_naming_the_option_and_its_choices(self):
        with pytest.raises(SheetError) as caught:
            Rules(galdins_scoring="x")
        assert str(caught.value) == 'rules.galdins_scoring must be "tricks" or "rondo", got "x"'

    def test_the_options_are_read_from_the_contracts_words(self):
        rules = Rules(
            all_pass="galdins_pule",
            galdins_scoring="rondo",
            four_table_pass_pules=2,
            small_zole_loss=6,
        )
        assert rules.all_pass is AllPass.GALDINS_PULE
        assert rules.galdins_scoring is GaldinsScoring.RONDO
        assert rules.pules
        assert rules.allows(Game.GALDINS) and not rules.allows(Game.PASS)

    def test_the_defaults_are_the_seeds_rules(self):
        rules = Rules()
        assert (rules.four_table_pass_pules, rules.small_zole_loss) == (1, 7)
        assert rules.galdins_scoring is GaldinsScoring.TRICKS


RONDO = {"all_pass": "galdins", "galdins_scoring": "rondo"}
TIED_ODD = ({"A": 3, "B": 3, "C": 2}, {"A": 44, "B": 44, "C": 32})  # C receives 1: a draw
TIED_EVEN = ({"A": 3, "B": 3, "C": 2}, {"A": 50, "B": 50, "C": 20})  # C receives 2: halves


class TestDrawLoser:
    """draw_loser is given exactly when a rondo galdiņš needs the card draw, and names one of the
    two tied players."""

    def test_is_needed_when_two_tied_losers_split_an_odd_amount(self):
        assert galdins_draw_needed(galdins(*TIED_ODD), Rules(**RONDO)) == ("A", "B")

    @pytest.mark.parametrize(
        ("deal", "rules"),
        [
            (TIED_EVEN, RONDO),
            (({"A": 3, "B": 3, "C": 2}, {"A": 40, "B": 40, "C": 40}), RONDO),  # three tied
            (({"A": 0, "B": 3, "C": 5}, {"A": 0, "B": 40, "C": 80}), RONDO),  # one loser
            (TIED_ODD, {"all_pass": "galdins"}),  # tricks scoring: no draw
        ],
        ids=["even amount", "three tied", "one loser", "tricks scoring"],
    )
    def test_is_not_needed_otherwise(self, deal, rules):
        assert galdins_draw_needed(galdins(*deal), Rules(**rules)) is None

    def test_missing_when_needed_is_refused_naming_the_tied_players(self):
        error = refusal(galdins(*TIED_ODD), **RONDO)
        assert str(error) == (
            "deal 1: draw_loser is missing: A and B tie for the most points and draw a card for "
            "who pays the larger half"
        )
        assert error.field == "draw_loser"

    @pytest.mark.parametrize("draw_loser", ["C", "Zane"])
    def test_a_player_who_is_not_one_of_the_tied_two_is_refused(self, draw_loser):
        error = refusal(galdins(*TIED_ODD, draw_loser=draw_loser), **RONDO)
        assert str(error) == (
            f'deal 1: draw_loser "{draw_loser}" is not one of the tied players A and B'
        )
        assert error.field == "draw_loser"

    @pytest.mark.parametrize(
        "rules", [RONDO, {"all_pass": "galdins"}], ids=["rondo, even amount", "tricks scoring"]
    )
    def test_given_when_no_draw_is_needed_is_refused(self, rules):
        error = refusal(galdins(*TIED_EVEN, draw_loser="A"), **rules)
        assert str(error) == 'deal 1: draw_loser "A" is given, but this galdiņš needs no card draw'
        assert error.field == "draw_loser"

    def test_at_a_four_table_the_draw_is_between_the_playing_players(self):
        tricks, points = {"B": 3, "C": 3, "D": 2}, {"B": 44, "C": 44, "D": 32}
        deal = galdins(tricks, points, draw_loser="B")
        sheet = play(deal, players=FOUR, first_dealer="A", **RONDO)
        assert sheet.deals[0].scores == {"A": 0, "B": -1, "C": 0, "D": 1}


class TestPenaltyCap:
    def test_a_fourth_penalty_pule_for_a_player_is_refused_naming_him(self):
        error = refusal(penalty("C"), penalty("C"), penalty("A"), penalty("C"), penalty("C"))
        assert str(error) == (
            "deal 5: player C already has 3 penalty pules: at most 3 per player per round"
        )
        assert (error.deal, error.field) == (5, "player")


class TestTable:
    @pytest.mark.parametrize("players", [("A", "B"), ("A", "B", "C", "D", "E")])
    def test_a_table_seats_3_or_4_players(self, players):
        with pytest.raises(SheetError, match="a table seats 3 or 4 players"):
            Sheet(players=players)

    def test_names_are_unique_and_not_empty(self):
        with pytest.raises(SheetError, match="once"):
            Sheet(players=("A", "A", "B"))
        with pytest.raises(SheetError, match="needs a name"):
            Sheet(players=("A", " ", "B"))

    def test_the_first_dealer_sits_at_the_table(self):
        with pytest.raises(SheetError) as caught:
            Sheet(players=THREE, first_dealer="Zane")
        assert caught.value.field == "first_dealer"

    def test_a_penalty_names_a_player_at_the_table(self):
        assert refusal(penalty("Zane")).field == "player"


class TestJsonShape:
    def test_a_missing_field_is_named_with_its_deal(self):
        data = {"players": list(THREE), "deals": [{"game": "pass"}, {"game": "zole"}]}
        with pytest.raises(SheetError) as caught:
            sheet_from_json(data)
        assert str(caught.value) == "deal 2: declarer is missing"

    def test_an_unknown_field_is_refused_not_ignored(self):
        data = {"players": list(THREE), "deals": [{"game": "pass", "declarer": "A"}]}
        with pytest.raises(SheetError, match='deal 1: unknown field "declarer"'):
            sheet_from_json(data)

    def test_an_unknown_game_lists_the_games(self):
        data = {"players": list(THREE), "deals": [{"game": "bridge"}]}
        with pytest.raises(SheetError, match="deal 1: game must be one of lielais, zole"):
            sheet_from_json(data)

    def test_bad_input_after_good_deals_still_scores_nothing(self):
        data = {
            "players": list(THREE),
            "deals": [{"game": "lielais", "declarer": "B", "points": 75, "tricks": 5}] * 5
            + [{"game": "lielais", "declarer": "B", "points": 75}],
        }
        with pytest.raises(SheetError, match="deal 6: tricks is missing"):
            score_sheet(sheet_from_json(data))


class TestTournamentOptions:
    @pytest.mark.parametrize(("deals", "fits"), [(24, True), (12, True), (18, False), (0, False)])
    def test_deals_per_round_divide_evenly_for_tables_of_3_and_4(self, deals, fits):
        assert deals_per_round_fits(deals) is fits

    def test_place_scheme_from_text(self):
        assert PlaceScheme.from_text("3,2,1", "3,2,1,1") == PlaceScheme((3, 2, 1), (3, 2, 1, 1))
        with pytest.raises(SheetError, match="whole numbers separated by commas"):
            PlaceScheme.from_text("6;4;2", "6,4,2,0")
