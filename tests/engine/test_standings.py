"""Tournament scoring (docs/rules.md, "Tournament scoring"): place points per table, the standings
order, teams."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    PlaceScheme,
    RoundResult,
    SheetError,
    place_labels,
    place_points,
    rank_standings,
    round_results,
    team_standings,
)
from engine.names import latvian_sort_key
from engine.standings import AbsentRule, exact_sum

CLUB_SCHEME = PlaceScheme(three=(3, 2, 1), four=(3, 2, 1, 1))


def result(player: str, game_points: int, place: Fraction | int, round_number: int = 1):
    return RoundResult(
        player=player,
        round_number=round_number,
        game_points=game_points,
        place_points=Fraction(place),
    )


# --- Place points at one table -------------------------------------------------------------------


def test_a_3_table_gives_6_4_2_by_default():
    points = place_points({"Anna": 12, "Jānis": -3, "Pēteris": -9})

    assert points == {"Anna": 6, "Jānis": 4, "Pēteris": 2}
    assert all(isinstance(value, Fraction) for value in points.values())


def test_a_4_table_gives_6_4_2_0_by_default():
    points = place_points({"Anna": -8, "Jānis": 15, "Pēteris": 1, "Līga": -8})

    # Anna and Līga tie for 3rd: they share (2 + 0) / 2
    assert points == {"Jānis": 6, "Pēteris": 4, "Anna": 1, "Līga": 1}


def test_a_4_table_without_ties_gives_each_place_its_points():
    points = place_points({"Anna": -8, "Jānis": 15, "Pēteris": 1, "Līga": -7})

    assert points == {"Jānis": 6, "Pēteris": 4, "Līga": 2, "Anna": 0}


def test_the_3_2_1_and_3_2_1_1_schemes():
    assert place_points({"A": 5, "B": 0, "C": -5}, CLUB_SCHEME) == {"A": 3, "B": 2, "C": 1}
    assert place_points({"A": 5, "B": 0, "C": -1, "D": -4}, CLUB_SCHEME) == {
        "A": 3,
        "B": 2,
        "C": 1,
        "D": 1,
    }


def test_two_players_tied_first_at_a_3_table_get_5_each():
    assert place_points({"A": 7, "B": 7, "C": -14}) == {"A": 5, "B": 5, "C": 2}


def test_all_four_tied_at_a_4_table_get_3_each():
    assert place_points({"A": 0, "B": 0, "C": 0, "D": 0}) == dict.fromkeys("ABCD", 3)


def test_a_three_way_tie_for_second_under_3_2_1_1_shares_exactly_4_thirds():
    points = place_points({"A": 9, "B": -3, "C": -3, "D": -3}, CLUB_SCHEME)

    assert points["A"] == 3
    for player in "BCD":
        assert points[player] == Fraction(4, 3)
        assert isinstance(points[player], Fraction)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.integers(-40, 40), min_size=3, max_size=4),
    st.sampled_from([PlaceScheme(), CLUB_SCHEME]),
)
def test_a_table_shares_out_exactly_its_place_points_and_more_game_points_never_get_fewer(
    game_points, scheme
):
    totals = {f"player {seat}": points for seat, points in enumerate(game_points)}

    points = place_points(totals, scheme)

    assert sum(points.values()) == sum(scheme.for_table(len(totals)))
    for one in totals:
        for other in totals:
            if totals[one] > totals[other]:
                assert points[one] >= points[other]
            if totals[one] == totals[other]:
                assert points[one] == points[other]


def test_place_scheme_from_text_as_organisers_write_it():
    assert PlaceScheme.from_text("3,2,1", "3,2,1,1") == CLUB_SCHEME
    with pytest.raises(SheetError, match="whole numbers separated by commas"):
        PlaceScheme.from_text("6,4,x", "6,4,2,0")


@pytest.mark.parametrize(
    ("three", "four"),
    [((6, 4), (6, 4, 2, 0)), ((6, 4, 2, 0), (6, 4, 2, 0)), ((6, 4, 2), (6, 4, 2)), ((6, 4, 2), ())],
    ids=["3-table-too-short", "3-table-too-long", "4-table-too-short", "4-table-empty"],
)
def test_a_place_scheme_needs_one_number_per_seat(three, four):
    with pytest.raises(SheetError) as refused:
        PlaceScheme(three=three, four=four)
    assert refused.value.field == "place_points"
    assert "whole numbers" in str(refused.value)


@pytest.mark.parametrize(
    ("three", "four"),
    [((2, 4, 6), (6, 4, 2, 0)), ((6, 4, 2), (6, 4, 2, 3)), ((4, 6, 2), (6, 4, 2, 0))],
    ids=["3-table-growing", "4-table-last-grows", "3-table-second-grows"],
)
def test_a_place_scheme_refuses_points_that_grow_with_the_place(three, four):
    with pytest.raises(SheetError, match="must not grow with the place"):
        PlaceScheme(three=three, four=four)


def test_a_place_scheme_may_give_two_places_the_same_points():
    assert PlaceScheme(three=(3, 2, 1), four=(3, 2, 1, 1)).four == (3, 2, 1, 1)


# --- Shared places: values a scheme gives, means elsewhere ---------------------------------------

FEDERATION = PlaceScheme.from_text("6,4,2", "6,4,2,0; 1-4=2")


def test_all_four_tied_at_a_4_table_get_the_federations_2_each():
    points = place_points({"A": 0, "B": 0, "C": 0, "D": 0}, FEDERATION)

    assert points == dict.fromkeys("ABCD", 2)
    assert all(isinstance(value, Fraction) for value in points.values())


@pytest.mark.parametrize(
    ("game_points", "expected"),
    [
        ({"A": 5, "B": 5, "C": 0, "D": -10}, {"A": 5, "B": 5, "C": 2, "D": 0}),  # 1-2: mean 5
        ({"A": 5, "B": 0, "C": 0, "D": -5}, {"A": 6, "B": 3, "C": 3, "D": 0}),  # 2-3: mean 3
        ({"A": 5, "B": 0, "C": -5, "D": -5}, {"A": 6, "B": 4, "C": 1, "D": 1}),  # 3-4: mean 1
        ({"A": 3, "B": 3, "C": 3, "D": -9}, {"A": 4, "B": 4, "C": 4, "D": 0}),  # 1-3: mean 4
    ],
    ids=["1-2", "2-3", "3-4", "1-3"],
)
def test_spans_without_a_value_share_the_mean_under_the_federations_scheme(game_points, expected):
    assert place_points(game_points, FEDERATION) == expected


def test_a_3_table_has_no_shared_value_under_the_federations_scheme():
    assert place_points({"A": 0, "B": 0, "C": 0}, FEDERATION) == dict.fromkeys("ABC", 4)


def test_a_value_given_for_a_span_replaces_the_mean_of_that_span_only():
    scheme = PlaceScheme.from_text("6,4,2; 2-3=2", "6,4,2,0; 2-3=3, 1-2=6")

    assert place_points({"A": 5, "B": 0, "C": 0}, scheme) == {"A": 6, "B": 2, "C": 2}
    assert place_points({"A": 5, "B": 5, "C": 0}, scheme) == {"A": 5, "B": 5, "C": 2}
    assert place_points({"A": 5, "B": 5, "C": 0, "D": -1}, scheme) == {
        "A": 6,
        "B": 6,
        "C": 2,
        "D": 0,
    }
    assert place_points({"A": 5, "B": 0, "C": 0, "D": 0}, scheme)["B"] == 2  # 2-4: the mean


def test_without_shared_values_a_share_can_be_a_fraction():
    scheme = PlaceScheme(three=(5, 2, 0), four=(6, 4, 2, 0))
    assert place_points({"A": 1, "B": 1, "C": -2}, scheme) == {
        "A": Fraction(7, 2),
        "B": Fraction(7, 2),
        "C": 0,
    }


def test_places_are_labelled_by_the_places_they_span():
    assert place_labels({"Anna": 12, "Jānis": -3, "Pēteris": -3, "Līga": -6}) == {
        "Anna": "1",
        "Jānis": "2-3",
        "Pēteris": "2-3",
        "Līga": "4",
    }
    assert place_labels({"A": 0, "B": 0, "C": 0, "D": 0}) == dict.fromkeys("ABCD", "1-4")
    assert place_labels({"A": -1, "B": 2, "C": 0}) == {"A": "3", "B": "1", "C": "2"}


@pytest.mark.parametrize(
    ("three", "four", "scheme"),
    [
        ("6,4,2", "6,4,2,0; 1-4=2", PlaceScheme(shared_four={(1, 4): 2})),
        (
            "6,4,2; 1-3=4",
            "6,4,2,0; 1-4=2, 2-3=3",
            PlaceScheme(shared_three={(1, 3): 4}, shared_four={(2, 3): 3, (1, 4): 2}),
        ),
        ("3,2,1", "3,2,1,1", CLUB_SCHEME),
    ],
)
def test_shared_values_are_written_and_read_back_in_one_canonical_form(three, four, scheme):
    assert PlaceScheme.from_text(three, four) == scheme
    assert scheme.to_text() == (three, four)
    assert PlaceScheme.from_text(*scheme.to_text()) == scheme


def test_the_text_may_be_spaced_loosely_and_is_written_back_canonically():
    scheme = PlaceScheme.from_text(" 6, 4 ,2 ", "6,4,2,0 ;2 - 3 = 3,1-4=2")
    assert scheme.to_text() == ("6,4,2", "6,4,2,0; 1-4=2, 2-3=3")
    assert hash(scheme) == hash(PlaceScheme.from_text(*scheme.to_text()))


@pytest.mark.parametrize(
    ("four", "says"),
    [
        ("6,4,2,0; 1-5=2", "places 1-5 must lie within 1-4 and cover at least 2 places"),
        ("6,4,2,0; 0-2=5", "places 0-2 must lie within 1-4 and cover at least 2 places"),
        ("6,4,2,0; 2-2=4", "places 2-2 must lie within 1-4 and cover at least 2 places"),
        ("6,4,2,0; 3-2=3", "places 3-2 must lie within 1-4 and cover at least 2 places"),
        ("6,4,2,0; 1-4=2, 1-4=3", "places 1-4 are given twice"),
        ("6,4,2,0; 1-4=7", "places 1-4 must get from 0 to 6 (the points of those places), got 7"),
        ("6,4,2,0; 3-4=3", "places 3-4 must get from 0 to 2 (the points of those places), got 3"),
        ("6,4,2,0; 1-4=2.5", 'must be written like 1-4=2, got "1-4=2.5"'),
        ("6,4,2,0; 1-4", 'must be written like 1-4=2, got "1-4"'),
        ("6,4,2,0; 14=2", 'must be written like 1-4=2, got "14=2"'),
        ("6,4,2,0; 1-4=2,", 'must be written like 1-4=2, got ""'),
        ("6;4;2;0", 'must be whole numbers separated by commas, got "6;4;2;0"'),
    ],
)
def test_shared_values_that_are_not_places_of_the_table_are_refused(four, says):
    with pytest.raises(SheetError) as refused:
        PlaceScheme.from_text("6,4,2", four)
    assert refused.value.field == "place_points"
    assert refused.value.params["size"] == 4
    assert says in str(refused.value)


@pytest.mark.parametrize(
    "shared",
    [{(1, 4): True}, {(1, 4): 2.0}, {(1,): 2}, {"1-4": 2}, [((1, 4), 2)]],
    ids=["a boolean", "a float", "one place", "text span", "not a mapping"],
)
def test_a_place_scheme_refuses_shared_values_that_are_not_whole_numbers_for_spans(shared):
    with pytest.raises(SheetError) as refused:
        PlaceScheme(shared_four=shared)
    assert refused.value.field == "place_points"


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.integers(-5, 5), min_size=3, max_size=4),
    st.sampled_from([FEDERATION, PlaceScheme.from_text("6,4,2; 1-2=4", "3,2,1,1; 2-4=1, 1-2=2")]),
)
def test_with_shared_values_more_game_points_still_never_get_fewer_place_points(
    game_points, scheme
):
    totals = {f"player {seat}": points for seat, points in enumerate(game_points)}

    points = place_points(totals, scheme)

    for one in totals:
        for other in totals:
            if totals[one] > totals[other]:
                assert points[one] >= points[other]
            if totals[one] == totals[other]:
                assert points[one] == points[other]


# --- Round results -------------------------------------------------------------------------------


def test_round_results_give_place_1_to_everyone_tied_for_the_top():
    results = {r.player: r for r in round_results(2, {"Anna": 6, "Jānis": 6, "Pēteris": -12})}

    assert results["Anna"].place == results["Jānis"].place == 1
    assert results["Pēteris"].place == 3
    assert results["Anna"].place_points == results["Jānis"].place_points == 5
    assert results["Pēteris"].place_points == 2
    assert {r.round_number for r in results.values()} == {2}
    assert results["Pēteris"].game_points == -12


def test_round_results_use_the_given_scheme():
    results = {
        r.player: r for r in round_results(1, {"A": 9, "B": -3, "C": -3, "D": -3}, CLUB_SCHEME)
    }

    assert results["A"].place == 1
    assert results["B"].place == results["C"].place == results["D"].place == 2
    assert results["B"].place_points == Fraction(4, 3)


# --- The standings order -------------------------------------------------------------------------


def test_names_sort_in_latvian_alphabetical_order():
    names = ["Čakste", "Bērziņš", "Cīrulis", "Āboliņš", "Abele"]

    assert sorted(names, key=latvian_sort_key) == [
        "Abele",
        "Āboliņš",
        "Bērziņš",
        "Cīrulis",
        "Čakste",
    ]


def test_standings_rank_by_place_points_before_game_points():
    standings = rank_standings(
        [
            result("Anna", game_points=2, place=6),
            result("Jānis", game_points=30, place=4),
            result("Pēteris", game_points=-32, place=2),
        ]
    )

    assert [s.player for s in standings] == ["Anna", "Jānis", "Pēteris"]
    assert [s.rank for s in standings] == [1, 2, 3]


def test_equal_place_points_are_ranked_by_game_points():
    standings = rank_standings(
        [
            result("Anna", game_points=2, place=10),
            result("Jānis", game_points=9, place=10),
            result("Pēteris", game_points=-11, place=10),
        ]
    )

    assert [s.player for s in standings] == ["Jānis", "Anna", "Pēteris"]
    assert [s.rank for s in standings] == [1, 2, 3]


def test_equal_place_and_game_points_are_ranked_by_the_last_rounds_game_points():
    standings = rank_standings(
        [
            result("Anna", game_points=20, place=4, round_number=1),
            result("Anna", game_points=5, place=4, round_number=2),
            result("Jānis", game_points=5, place=4, round_number=1),
            result("Jānis", game_points=20, place=4, round_number=2),
        ]
    )

    assert [s.player for s in standings] == ["Jānis", "Anna"]
    assert [s.last_round_game_points for s in standings] == [20, 5]
    assert [s.rank for s in standings] == [1, 2]


def test_players_equal_on_every_metric_share_a_rank_and_are_listed_in_latvian_order():
    standings = rank_standings(
        [
            result("Bērziņš", game_points=3, place=4),
            result("Āboliņš", game_points=3, place=4),
            result("Abele", game_points=3, place=4),
            result("Čakste", game_points=3, place=4),
            result("Cīrulis", game_points=3, place=4),
        ]
    )

    assert [s.name for s in standings] == ["Abele", "Āboliņš", "Bērziņš", "Cīrulis", "Čakste"]
    assert {s.rank for s in standings} == {1}


def test_shared_ranks_skip_the_places_they_span():
    standings = rank_standings(
        [
            result("Dace", game_points=-20, place=2),
            result("Čakste", game_points=5, place=4),
            result("Aivars", game_points=5, place=4),
            result("Ērika", game_points=10, place=6),
        ]
    )

    assert [(s.rank, s.name) for s in standings] == [
        (1, "Ērika"),
        (2, "Aivars"),
        (2, "Čakste"),
        (4, "Dace"),
    ]


def test_display_names_order_players_who_tie():
    standings = rank_standings(
        [result("p1", game_points=0, place=4), result("p2", game_points=0, place=4)],
        names={"p1": "Čakste", "p2": "Cīrulis"},
    )

    assert [(s.player, s.name) for s in standings] == [("p2", "Cīrulis"), ("p1", "Čakste")]


def test_a_tournament_may_rank_by_game_points_alone():
    results = [
        result("Anna", game_points=2, place=6),
        result("Jānis", game_points=30, place=4),
        result("Pēteris", game_points=-32, place=2),
    ]

    standings = rank_standings(results, order=("game_points",))

    assert [s.player for s in standings] == ["Jānis", "Anna", "Pēteris"]
    assert [s.rank for s in standings] == [1, 2, 3]


def test_game_points_alone_ranks_equal_game_points_together_whatever_their_place_points():
    standings = rank_standings(
        [result("Anna", game_points=4, place=6), result("Jānis", game_points=4, place=2)],
        order=("game_points",),
    )

    assert [s.rank for s in standings] == [1, 1]


def test_standings_sum_place_and_game_points_over_the_rounds():
    standings = rank_standings(
        [
            result("Anna", game_points=7, place=Fraction(4, 3), round_number=1),
            result("Anna", game_points=-2, place=5, round_number=2),
        ]
    )

    (anna,) = standings
    assert anna.place_points == Fraction(19, 3)
    assert anna.game_points == 5
    assert anna.last_round_game_points == -2
    assert [r.round_number for r in anna.rounds] == [1, 2]


def test_entrants_without_results_appear_with_zeros():
    standings = rank_standings([result("Anna", game_points=-3, place=2)], players=["Anna", "Jānis"])

    by_player = {s.player: s for s in standings}
    assert set(by_player) == {"Anna", "Jānis"}
    janis = by_player["Jānis"]
    assert (janis.place_points, janis.game_points, janis.last_round_game_points) == (0, 0, 0)
    assert janis.wins == 0
    assert janis.rounds == ()
    assert [s.player for s in standings] == ["Anna", "Jānis"]  # 2 place points beat none


@pytest.mark.parametrize(
    "order",
    [("place_points", "elo"), ("rating",), (), ("game_points", "game_points")],
    ids=["unknown-metric", "only-unknown", "empty", "repeated"],
)
def test_a_standings_order_with_unknown_or_repeated_metrics_is_refused(order):
    with pytest.raises(SheetError) as refused:
        rank_standings([result("Anna", game_points=0, place=2)], order=order)
    assert refused.value.field == "order"
    assert str(refused.value).startswith("standings order:")


def test_an_unknown_metric_is_named_in_the_refusal():
    with pytest.raises(SheetError, match='unknown metric "elo"'):
        rank_standings([], order=("place_points", "elo"))


# --- Teams ---------------------------------------------------------------------------------------


def test_a_teams_score_is_the_sum_of_its_members_scores():
    standings = rank_standings(
        [
            result("Anna", game_points=10, place=6, round_number=1),
            result("Jānis", game_points=-4, place=4, round_number=1),
            result("Pēteris", game_points=-6, place=2, round_number=1),
            result("Līga", game_points=3, place=Fraction(4, 3), round_number=1),
        ]
    )

    teams = team_standings({"Rīga": ["Anna", "Pēteris"], "Cēsis": ["Jānis", "Līga"]}, standings)

    by_team = {team.team: team for team in teams}
    assert by_team["Rīga"].place_points == 8
    assert by_team["Rīga"].game_points == 4
    assert by_team["Cēsis"].place_points == Fraction(16, 3)
    assert by_team["Cēsis"].game_points == -1
    assert by_team["Rīga"].members == ("Anna", "Pēteris")
    assert [(team.rank, team.team) for team in teams] == [(1, "Rīga"), (2, "Cēsis")]


def test_teams_equal_on_every_metric_share_a_rank_in_latvian_order():
    standings = rank_standings(
        [result("Anna", game_points=1, place=4), result("Jānis", game_points=1, place=4)]
    )

    teams = team_standings({"Čiekuri": ["Anna"], "Cirši": ["Jānis"]}, standings)

    assert [(team.rank, team.team) for team in teams] == [(1, "Cirši"), (1, "Čiekuri")]


def test_place_points_are_refused_for_a_table_that_is_not_3_or_4():
    with pytest.raises(SheetError, match="tables of 3 or 4 players, got 2"):
        place_points({"A": 1, "B": -1})


def test_a_space_ends_a_word_when_sorting_names():
    names = ["Ozolsone Anna", "Ozols Jānis", "Ozoliņa Ieva"]
    assert sorted(names, key=latvian_sort_key) == ["Ozoliņa Ieva", "Ozols Jānis", "Ozolsone Anna"]


@given(
    st.lists(
        st.one_of(
            st.integers(min_value=-50, max_value=50),
            st.fractions(max_denominator=24),
        ),
        max_size=40,
    )
)
@settings(max_examples=200, deadline=None)
def test_the_sum_of_place_points_is_exact(values):
    total = exact_sum(values)

    assert total == sum((Fraction(value) for value in values), Fraction(0))
    assert isinstance(total, Fraction)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.fractions(min_value=-50, max_value=50, max_denominator=12),
            st.integers(min_value=-300, max_value=300),
        ),
        min_size=1,
        max_size=12,
    )
)
def test_the_ranking_on_integer_keys_orders_and_ties_as_the_fractions_do(scores):
    # _ranked compares place points scaled to integers over their common denominator: the
    # order and the ties must be those of the exact fractions themselves.
    results = [
        RoundResult(player=f"p{index}", round_number=1, game_points=game, place_points=points)
        for index, (points, game) in enumerate(scores)
    ]
    standings = rank_standings(results)
    keys = [(standing.place_points, standing.game_points) for standing in standings]
    assert keys == sorted(keys, reverse=True)
    for before, after in pairwise(standings):
        tied = (before.place_points, before.game_points) == (after.place_points, after.game_points)
        assert (after.rank == before.rank) == tied


# --- Players absent from a round -----------------------------------------------------------------


def _round_1_with_two_absent():
    """Round 1 at a table of 4: two players lose game points; Ieva and Uldis were absent."""
    return [
        result("Anna", game_points=12, place=6),
        result("Jānis", game_points=4, place=4),
        result("Dace", game_points=-6, place=2),
        result("Pēteris", game_points=-10, place=0),
    ]


def test_by_default_an_absent_player_ranks_by_his_points_a_missed_round_counting_nothing():
    standings = rank_standings(_round_1_with_two_absent(), players=["Ieva", "Uldis"])

    # 0 place points like Pēteris, last at his table, but 0 game points rank above his -10
    assert [(s.rank, s.player) for s in standings] == [
        (1, "Anna"),
        (2, "Jānis"),
        (3, "Dace"),
        (4, "Ieva"),
        (4, "Uldis"),
        (6, "Pēteris"),
    ]


def test_under_absent_last_a_player_who_missed_a_round_ranks_below_all_who_played_it():
    standings = rank_standings(
        _round_1_with_two_absent(), players=["Ieva", "Uldis"], absent=AbsentRule.LAST
    )

    assert [(s.rank, s.player) for s in standings] == [
        (1, "Anna"),
        (2, "Jānis"),
        (3, "Dace"),
        (4, "Pēteris"),
        (5, "Ieva"),
        (5, "Uldis"),
    ]


def test_under_absent_last_players_who_missed_as_many_rounds_rank_by_their_points():
    results = [
        *_round_1_with_two_absent(),
        result("Ieva", game_points=8, place=6, round_number=2),
        result("Anna", game_points=-8, place=0, round_number=2),
        result("Dace", game_points=3, place=4, round_number=2),
        result("Uldis", game_points=-3, place=2, round_number=2),
    ]

    standings = rank_standings(results, absent=AbsentRule.LAST)

    assert [s.player for s in standings] == ["Anna", "Dace", "Ieva", "Jānis", "Uldis", "Pēteris"]


def test_an_unknown_absent_rule_is_refused_naming_it():
    with pytest.raises(SheetError, match='absent players: unknown rule "early"'):
        rank_standings(_round_1_with_two_absent(), absent="early")
