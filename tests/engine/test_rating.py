"""Players' ratings (engine/rating.py): OpenSkill's Plackett-Luce over each table's order."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import SheetError
from engine.rating import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    NEW_PLAYER,
    Rating,
    RatingSpan,
    TableOutcome,
    TablePlace,
    expected_places,
    rate_table,
    rating_span,
    replay_ratings,
    shared_places,
)


def outcome(order: int, table: str, places: dict[str, int]) -> TableOutcome:
    return TableOutcome(
        order=("2026-01-01", "kauss", order, 1), table=table, places=tuple(places.items())
    )


def test_a_new_player_starts_at_25_with_a_wide_uncertainty():
    assert Rating(DEFAULT_MU, DEFAULT_SIGMA) == NEW_PLAYER
    assert NEW_PLAYER.ordinal == pytest.approx(0.0)


def test_the_winner_of_a_table_of_three_gains_and_the_last_loses():
    after = rate_table({}, {"Anna": 1, "Jānis": 2, "Pēteris": 3})
    assert after["Anna"].mu > DEFAULT_MU > after["Pēteris"].mu
    assert after["Anna"].mu > after["Jānis"].mu > after["Pēteris"].mu


def test_every_player_at_a_table_of_four_becomes_more_certain():
    after = rate_table({}, {"A": 1, "B": 2, "C": 3, "D": 4})
    assert all(rating.sigma < DEFAULT_SIGMA for rating in after.values())


def test_tied_players_are_rated_alike():
    after = rate_table({}, {"Anna": 1, "Jānis": 2, "Pēteris": 2})
    assert after["Jānis"] == after["Pēteris"]
    assert after["Anna"].mu > after["Jānis"].mu


def test_beating_a_strong_player_gains_more_than_beating_a_new_one():
    strong = Rating(35.0, 3.0)
    against_strong = rate_table({"B": strong}, {"A": 1, "B": 2, "C": 3})["A"]
    against_new = rate_table({}, {"A": 1, "B": 2, "C": 3})["A"]
    assert against_strong.mu > against_new.mu


def test_the_ordinal_is_mu_minus_three_sigma():
    assert Rating(30.0, 2.0).ordinal == 24.0


@pytest.mark.parametrize("places", [{"A": 1}, {"A": 0, "B": 1}, {"A": 1, "B": True}])
def test_a_bad_table_is_refused(places):
    with pytest.raises(SheetError):
        rate_table({}, places)


def test_replay_rates_tables_in_their_order_not_the_order_given():
    first = outcome(1, "t1", {"A": 1, "B": 2, "C": 3})
    second = outcome(2, "t2", {"C": 1, "A": 2, "B": 3})
    assert replay_ratings([first, second]) == replay_ratings([second, first])


def test_replay_records_each_players_rating_before_and_after_each_table():
    first = outcome(1, "t1", {"A": 1, "B": 2, "C": 3})
    second = outcome(2, "t2", {"C": 1, "A": 2, "B": 3})
    ratings, changes = replay_ratings([first, second])
    assert [(change.table, change.player) for change in changes] == [
        ("t1", "A"), ("t1", "B"), ("t1", "C"), ("t2", "C"), ("t2", "A"), ("t2", "B"),
    ]  # fmt: skip
    a_changes = [change for change in changes if change.player == "A"]
    assert a_changes[0].before == NEW_PLAYER
    assert a_changes[1].before == a_changes[0].after
    assert ratings["A"] == a_changes[1].after


def test_replay_from_a_midpoint_equals_the_whole_replay():
    tables = [
        outcome(n, f"t{n}", places)
        for n, places in enumerate(
            [
                {"A": 1, "B": 2, "C": 3},
                {"B": 1, "C": 2, "D": 3, "A": 4},
                {"D": 1, "A": 1, "C": 3},
                {"C": 1, "B": 2, "A": 3},
            ]
        )
    ]
    whole, _ = replay_ratings(tables)
    middle, _ = replay_ratings(tables[:2])
    tail, _ = replay_ratings(tables[2:], start=middle)
    assert tail == whole


def test_a_player_listed_twice_at_a_table_is_refused():
    with pytest.raises(SheetError, match="twice"):
        replay_ratings([TableOutcome(order=(1,), table="t", places=(("A", 1), ("A", 2)))])


tables_strategy = st.lists(
    st.tuples(
        st.integers(1, 50),
        st.permutations(["A", "B", "C", "D", "E", "F"]).map(lambda names: names[:4]),
        st.lists(st.integers(1, 4), min_size=4, max_size=4),
        st.booleans(),
    ),
    max_size=12,
)


def _outcomes(raw) -> list[TableOutcome]:
    tables = []
    for index, (order, names, places, four) in enumerate(raw):
        seated = names if four else names[:3]
        tables.append(outcome(order, f"t{index:02d}", dict(zip(seated, places, strict=False))))
    return tables


@given(tables_strategy, st.randoms())
def test_the_same_tables_in_any_order_give_exactly_the_same_ratings(raw, rng):
    tables = _outcomes(raw)
    shuffled = list(tables)
    rng.shuffle(shuffled)
    assert replay_ratings(tables) == replay_ratings(shuffled)


@given(tables_strategy)
def test_ratings_stay_finite_and_certainty_grows_with_play(raw):
    ratings, changes = replay_ratings(_outcomes(raw))
    for rating in ratings.values():
        assert math.isfinite(rating.mu) and 0 < rating.sigma <= DEFAULT_SIGMA + 1
    for change in changes:
        assert change.after.sigma < change.before.sigma + 0.1


@given(tables_strategy, st.permutations(["A", "B", "C", "D", "E", "F"]))
def test_the_players_keys_do_not_change_a_rating_by_a_single_bit(raw, renamed):
    """An archive imported elsewhere gives every player a new key (a new database id): tied
    players must be rated in an order their keys do not decide, or the floats differ."""
    names = dict(zip(["A", "B", "C", "D", "E", "F"], renamed, strict=True))
    tables = _outcomes(raw)
    again = [
        TableOutcome(
            order=table.order,
            table=table.table,
            places=tuple((names[player], place) for player, place in table.places),
        )
        for table in tables
    ]
    ratings, _changes = replay_ratings(tables)
    renamed_ratings, _changes = replay_ratings(again)
    assert {names[player]: rating for player, rating in ratings.items()} == renamed_ratings


# -- Expected places: what a rating change is explained by -----------------------------------------


def plackett_luce_expected_places(ratings: dict[str, Rating]) -> dict[str, float]:
    """The expected places by the model's definition, every finishing order weighed by its
    probability: the first place goes to a player in proportion to his strength exp(mu / c),
    the next among those left, and so on."""
    beta = DEFAULT_SIGMA / 2
    c = math.sqrt(sum(r.sigma**2 + beta**2 for r in ratings.values()))
    strength = {player: math.exp(rating.mu / c) for player, rating in ratings.items()}
    expected = dict.fromkeys(ratings, 0.0)
    for order in itertools.permutations(ratings):
        chance = 1.0
        for index, player in enumerate(order):
            chance *= strength[player] / sum(strength[p] for p in order[index:])
        for place, player in enumerate(order, start=1):
            expected[player] += chance * place
    return expected


def test_players_of_equal_ratings_are_expected_at_the_middle_place():
    assert expected_places({"A": NEW_PLAYER, "B": NEW_PLAYER, "C": NEW_PLAYER}) == {
        "A": pytest.approx(2.0), "B": pytest.approx(2.0), "C": pytest.approx(2.0),
    }  # fmt: skip


def test_the_stronger_player_is_expected_to_finish_higher():
    expected = expected_places({"A": Rating(32.0, 3.0), "B": NEW_PLAYER, "C": Rating(18.0, 3.0)})
    assert expected["A"] < expected["B"] < expected["C"]


ratings_strategy = st.dictionaries(
    st.sampled_from(["A", "B", "C", "D", "E"]),
    st.builds(Rating, st.floats(-20.0, 70.0), st.floats(0.5, DEFAULT_SIGMA)),
    min_size=2,
    max_size=5,
)


@given(ratings_strategy)
def test_the_expected_places_are_those_of_the_plackett_luce_model(ratings):
    by_model = plackett_luce_expected_places(ratings)
    assert expected_places(ratings) == {
        player: pytest.approx(place, abs=1e-9) for player, place in by_model.items()
    }


@given(ratings_strategy)
def test_the_expected_places_add_up_as_the_places_taken_do(ratings):
    n = len(ratings)
    assert sum(expected_places(ratings).values()) == pytest.approx(n * (n + 1) / 2)
    assert sum(shared_places(dict.fromkeys(ratings, 1)).values()) == n * (n + 1) / 2


def test_a_far_stronger_player_is_expected_first_without_overflow():
    expected = expected_places({"A": Rating(1e6, 1.0), "B": Rating(-1e6, 1.0)})
    assert expected == {"A": 1.0, "B": 2.0}


def test_a_table_of_one_has_no_expected_place():
    with pytest.raises(SheetError):
        expected_places({"A": NEW_PLAYER})


@pytest.mark.parametrize(
    ("places", "shared"),
    [
        ({"A": 1, "B": 2, "C": 3, "D": 4}, {"A": 1, "B": 2, "C": 3, "D": 4}),
        ({"A": 1, "B": 2, "C": 2, "D": 4}, {"A": 1, "B": 2.5, "C": 2.5, "D": 4}),
        ({"A": 1, "B": 1, "C": 2}, {"A": 1.5, "B": 1.5, "C": 3}),
        ({"A": 2, "B": 2, "C": 2}, {"A": 2, "B": 2, "C": 2}),
    ],
)
def test_tied_players_take_the_mean_of_the_places_they_share(places, shared):
    assert shared_places(places) == shared


def test_a_span_runs_from_the_first_tables_rating_to_the_lasts_with_mean_places():
    first, second, third = Rating(25.0, 8.0), Rating(27.0, 7.0), Rating(26.0, 6.5)
    span = rating_span(
        [TablePlace(first, second, expected=2.5, actual=1), TablePlace(second, third, 2.3, 3)]
    )
    assert span == RatingSpan(
        before=first, after=third, tables=2, expected_place=2.4, actual_place=2.0
    )


def test_an_upset_raises_the_underdog_above_his_expected_place_and_lowers_the_favourite():
    field = {"A": Rating(30.0, 4.0), "B": NEW_PLAYER, "C": Rating(20.0, 4.0)}
    expected = expected_places(field)
    after = rate_table(field, {"C": 1, "B": 2, "A": 3})
    assert expected["C"] > 1 and after["C"].mu > field["C"].mu
    assert expected["A"] < 3 and after["A"].mu < field["A"].mu


def test_a_place_below_the_expected_one_can_still_raise_mu_ahead_of_a_stronger_player():
    """The model moves mu by whom a player finished ahead of and behind, not by his place
    alone: the player's page says so when the two seem to disagree."""
    field = {
        "A": Rating(10.7, 3.7),
        "B": Rating(35.4, 6.3),
        "C": Rating(18.5, 7.6),
        "D": Rating(27.9, 7.4),
    }
    places = {"A": 1, "C": 2, "D": 3, "B": 4}
    assert expected_places(field)["D"] < 3
    assert rate_table(field, places)["D"].mu > field["D"].mu
