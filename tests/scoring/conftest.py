"""The tables the scoring tests enter deals at: one of three, one of four, and a short round."""

import pytest

from tests.factories import make_published_round, play_round_with


@pytest.fixture
def table_of_three():
    round_ = make_published_round(players=6)  # two tables of 3
    return round_.tables.get(number=1)


@pytest.fixture
def table_of_four():
    round_ = make_published_round(players=7)  # tables of 4 and 3
    return next(table for table in round_.tables.all() if table.seats.count() == 4)


@pytest.fixture
def short_round(table_of_three):
    """Three deals a round, so a table fills up quickly."""
    play_round_with(table_of_three.round, deals_per_round=3)
    return table_of_three
