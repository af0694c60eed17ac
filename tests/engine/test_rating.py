"""Players' ratings (engine/rating.py): OpenSkill's Plackett-Luce over each table's order."""

from __future__ import annotations

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
    TableOutcome,
    rate_table,
    replay_ratings,
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
