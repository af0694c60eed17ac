"""Table sizes (engine.seating.sizes): tables of 3 with N mod 3 tables of 4 listed first, or
tables of 4 with the fewest tables of 3 listed last."""

from __future__ import annotations

import pytest

from engine import SeatingPlayer, SheetError, seat_players, table_sizes


@pytest.mark.parametrize(
    ("count", "sizes"),
    [
        (3, (3,)),
        (4, (4,)),
        (6, (3, 3)),
        (7, (4, 3)),
        (8, (4, 4)),
        (9, (3, 3, 3)),
        (10, (4, 3, 3)),
        (11, (4, 4, 3)),
        (12, (4, 4, 4)),
        (13, (4, 3, 3, 3)),
        (25, (4, 4, 4, 4, 3, 3, 3)),  # a club event of 25: 4 tables of 4 and 3 of 3
        (26, (4, 4, 4, 4, 4, 3, 3)),
    ],
)
def test_tables_of_4_take_the_fewest_tables_of_3_and_list_them_last(count, sizes):
    assert table_sizes(count, 4) == sizes
    assert table_sizes(count, table_size=4) == sizes


SEATABLE = [count for count in range(3, 201) if count != 5]  # 5 is refused: see below


@pytest.mark.parametrize("count", SEATABLE)
def test_every_field_from_3_to_200_at_tables_of_4(count):
    sizes = table_sizes(count, 4)
    assert sum(sizes) == count
    assert set(sizes) <= {3, 4}
    threes = sizes.count(3)
    # N mod 4 = 0: no table of 3; 1: three of them; 2: two; 3: one. Fewer cannot add up to N.
    assert threes == {0: 0, 1: 3, 2: 2, 3: 1}[count % 4]
    assert sizes == tuple(sorted(sizes, reverse=True)), "the tables of 3 are the last ones"


@pytest.mark.parametrize("count", SEATABLE)
def test_tables_of_3_are_unchanged_and_the_default(count):
    sizes = table_sizes(count)
    assert sizes == table_sizes(count, 3)
    assert sum(sizes) == count
    assert sizes.count(4) == count % 3
    assert sizes == tuple(sorted(sizes, reverse=True)), "the tables of 4 are the first ones"


@pytest.mark.parametrize("table_size", [3, 4])
def test_five_players_cannot_be_seated_at_either_size(table_size):
    with pytest.raises(SheetError) as caught:
        table_sizes(5, table_size)
    assert str(caught.value) == "players: 5 players cannot be seated at tables of 3 and 4"
    assert caught.value.field == "players"


@pytest.mark.parametrize("table_size", [2, 5, 0, "4", 4.0, True, None])
def test_a_table_size_other_than_3_or_4_is_refused_by_name(table_size):
    with pytest.raises(SheetError) as caught:
        table_sizes(12, table_size)
    assert caught.value.field == "table_size"
    assert str(caught.value).startswith("table_size must be 3 or 4, got ")
    with pytest.raises(SheetError) as caught:
        seat_players([SeatingPlayer(id=f"p{n}") for n in range(12)], table_size=table_size)
    assert caught.value.field == "table_size"
