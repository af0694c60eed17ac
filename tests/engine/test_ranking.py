"""The season ranking (engine/ranking.py): ranking points, the best K results, ties, qualifiers."""

from __future__ import annotations

import datetime
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import SheetError
from engine.ranking import (
    DEFAULT_POINTS_TABLE,
    EventResult,
    PointsTable,
    QualifiedBy,
    best_results,
    event_result,
    qualifiers,
    ranking_points,
    season_ranking,
)

TABLE = PointsTable.from_mapping(
    {"national": [100, 80, 60, 40], "district": [50, 40, 30], "club": [20, 10]}
)
DAY = datetime.date(2026, 3, 1)


def result(
    player: str,
    event: str,
    place: int,
    *,
    level: str = "district",
    game_points: int = 0,
    day: int = 1,
) -> EventResult:
    return event_result(
        TABLE,
        player=player,
        event=event,
        held_on=DAY + datetime.timedelta(days=day),
        level=level,
        place=place,
        game_points=game_points,
    )


# --- Ranking points ------------------------------------------------------------------------------


def test_a_national_tournament_pays_more_than_a_district_one_for_the_same_place():
    assert ranking_points(TABLE, "national", 1) == 100
    assert ranking_points(TABLE, "district", 1) == 50
    assert ranking_points(TABLE, "club", 1) == 20


def test_first_place_pays_more_than_a_later_one():
    assert ranking_points(TABLE, "national", 1) > ranking_points(TABLE, "national", 4)


def test_a_place_past_the_table_or_an_unknown_level_earns_nothing():
    assert ranking_points(TABLE, "district", 4) == 0
    assert ranking_points(TABLE, "district", 400) == 0
    assert ranking_points(TABLE, "world", 1) == 0


@pytest.mark.parametrize("place", [0, -1, True, 1.5, "1"])
def test_a_place_is_a_whole_number_from_1(place):
    with pytest.raises(SheetError, match="final place"):
        ranking_points(TABLE, "club", place)


@pytest.mark.parametrize(
    "data",
    [
        {},
        [],
        {"club": []},
        {"club": [10, 20]},  # grows with the place
        {"club": [10, -1]},
        {"club": [10, 5.5]},
        {"club": "10,5"},
        {"": [1]},
        {"club": [True]},
    ],
)
def test_a_bad_points_table_is_refused_with_a_message(data):
    with pytest.raises(SheetError) as error:
        PointsTable.from_mapping(data)
    assert error.value.field == "points_table"


def test_the_default_table_pays_national_over_district_over_club():
    for place in range(1, 12):
        national = ranking_points(DEFAULT_POINTS_TABLE, "national", place)
        district = ranking_points(DEFAULT_POINTS_TABLE, "district", place)
        club = ranking_points(DEFAULT_POINTS_TABLE, "club", place)
        assert national > district > club > 0


def test_a_points_table_round_trips_through_json():
    assert PointsTable.from_mapping(TABLE.as_mapping()) == TABLE


# --- Best K ------------------------------------------------------------------------------------


def test_only_the_best_k_results_count():
    results = [result("Anna", f"t{n}", place) for n, place in enumerate([3, 1, 2, 3])]
    counted, dropped = best_results(results, 2)
    assert [r.place for r in counted] == [1, 2]
    assert [r.place for r in dropped] == [3, 3]


def test_among_equal_points_a_win_then_more_game_points_counts_first():
    a = result("Anna", "a", 3, level="national", game_points=5)  # 60 points
    b = result("Anna", "b", 3, level="national", game_points=9)  # 60 points
    c = result("Anna", "c", 3, level="national", game_points=9, day=9)  # 60, later
    counted, _ = best_results([a, c, b], 2)
    assert [r.event for r in counted] == ["b", "c"]


def test_best_k_is_at_least_one():
    with pytest.raises(SheetError, match="best K"):
        best_results([], 0)


# --- The season ranking ------------------------------------------------------------------------


def test_the_ranking_adds_up_each_players_best_k():
    results = [
        result("Anna", "a", 1),  # 50
        result("Anna", "b", 3),  # 30
        result("Anna", "c", 2),  # 40
        result("Jānis", "a", 2),  # 40
        result("Jānis", "b", 1),  # 50
    ]
    ranking = season_ranking(results, best_k=2)
    # Equal on points (90), wins (1) and game points: a shared 1st, listed by name.
    assert [(row.player, row.points, row.wins, row.rank) for row in ranking] == [
        ("Anna", 90, 1, 1),
        ("Jānis", 90, 1, 1),
    ]
    anna = next(row for row in ranking if row.player == "Anna")
    assert len(anna.counted) == 2 and len(anna.dropped) == 1 and anna.events == 3


def test_equal_points_are_split_by_wins_then_game_points():
    results = [
        # Both 90 points: Līga won once, Pēteris never.
        result("Līga", "a", 1, game_points=1),  # 50
        result("Līga", "b", 2, game_points=1),  # 40
        result("Pēteris", "a", 2, level="national", game_points=90),  # 80
        result("Pēteris", "b", 1, level="club", game_points=90),  # 20 … and a win
        result("Ivars", "a", 3, level="national", game_points=3),  # 60
        result("Ivars", "b", 3, game_points=3),  # 30
        result("Dace", "a", 3, level="national", game_points=4),  # 60
        result("Dace", "b", 3, game_points=4),  # 30
    ]
    ranking = season_ranking(results, best_k=2)
    assert [row.player for row in ranking] == ["Pēteris", "Līga", "Dace", "Ivars"]
    assert [row.wins for row in ranking] == [1, 1, 0, 0]
    assert [row.rank for row in ranking] == [1, 2, 3, 4]


def test_players_equal_on_everything_share_a_rank_and_are_listed_in_latvian_order():
    results = [result(name, "a", 2) for name in ("Žanis", "Čaks", "Cēsis")]
    ranking = season_ranking(results, best_k=3)
    assert [row.name for row in ranking] == ["Cēsis", "Čaks", "Žanis"]
    assert {row.rank for row in ranking} == {1}


def test_shared_ranks_skip_the_places_they_span():
    results = [result("A", "a", 1), result("B", "a", 2), result("C", "a", 2), result("D", "a", 3)]
    assert [row.rank for row in season_ranking(results, best_k=1)] == [1, 2, 2, 4]


results_strategy = st.lists(
    st.builds(
        result,
        player=st.sampled_from(["Anna", "Jānis", "Ģirts", "Līga", "Ēriks"]),
        event=st.sampled_from(["a", "b", "c", "d", "e", "f"]),
        place=st.integers(1, 6),
        level=st.sampled_from(["club", "district", "national"]),
        game_points=st.integers(-50, 50),
        day=st.integers(0, 30),
    ),
    max_size=30,
)


@given(results_strategy, st.integers(1, 5), st.randoms())
def test_the_ranking_does_not_depend_on_the_order_of_the_results(results, best_k, rng):
    shuffled = list(results)
    rng.shuffle(shuffled)
    assert season_ranking(results, best_k=best_k) == season_ranking(shuffled, best_k=best_k)


@given(results_strategy, st.integers(1, 5))
def test_the_ranking_is_ordered_and_counts_at_most_k(results, best_k):
    ranking = season_ranking(results, best_k=best_k)
    keys = [(row.points, row.wins, row.game_points) for row in ranking]
    assert keys == sorted(keys, reverse=True)
    for row in ranking:
        assert len(row.counted) <= best_k
        assert row.points == sum(r.points for r in row.counted)
        assert all(min(r.points for r in row.counted) >= r.points for r in row.dropped)
    assert ranking == [] or ranking[0].rank == 1


# --- Qualifiers ----------------------------------------------------------------------------------


def test_the_top_n_qualify_then_the_invited_players():
    results = [result(name, "a", place) for place, name in enumerate("ABCDE", start=1)]
    ranking = season_ranking(results, best_k=1)  # A 50, B 40, C 30, D and E 0
    chosen = qualifiers(ranking, places=2, invited=["E", "A", "X"])
    assert [(q.player, q.qualified_by) for q in chosen] == [
        ("A", QualifiedBy.RANKING),
        ("B", QualifiedBy.RANKING),
        ("E", QualifiedBy.INVITATION),
        ("X", QualifiedBy.INVITATION),
    ]
    assert chosen[2].rank == 4 and chosen[3].rank is None


def test_everyone_tied_at_the_cut_qualifies():
    results = [result("A", "a", 1), result("B", "a", 2), result("C", "a", 2)]
    chosen = qualifiers(season_ranking(results, best_k=1), places=2)
    assert [q.player for q in chosen] == ["A", "B", "C"]


def test_a_player_without_ranking_points_does_not_qualify_by_the_ranking():
    results = [result("A", "a", 1), result("B", "a", 9)]
    chosen = qualifiers(season_ranking(results, best_k=1), places=5)
    assert [q.player for q in chosen] == ["A"]


def test_the_same_results_always_give_the_same_qualifiers():
    rng = random.Random(3)
    results = [
        result(f"P{n}", f"t{t}", rng.randint(1, 5), game_points=rng.randint(-9, 9))
        for n in range(30)
        for t in range(4)
    ]
    first = qualifiers(season_ranking(results, best_k=3), places=10)
    rng.shuffle(results)
    assert qualifiers(season_ranking(results, best_k=3), places=10) == first
