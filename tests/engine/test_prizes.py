"""The prize fund's split: costs first, then places 1..N by their percentages, tied players
sharing the prizes of the places they cover; every cent of the fund accounted for."""

from __future__ import annotations

import itertools
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import SheetError
from engine.prizes import parse_percent, parse_prize_shares, split_prize_fund

GULBENE = parse_prize_shares("40 25 15 10 5 5")


def ranked(*ranks: int) -> list[tuple[str, int]]:
    """Players P1, P2, ... at these ranks, in the standings order."""
    return [(f"P{index}", rank) for index, rank in enumerate(ranks, start=1)]


def cents_of(split) -> dict[str, int]:
    return {prize.player: prize.cents for prize in split.prizes}


def test_gulbene_twenty_deposits_of_15_euros_pay_80_percent_to_places_1_to_6():
    split = split_prize_fund(20 * 1500, Decimal(20), GULBENE, ranked(*range(1, 21)))

    assert split.costs_cents == 6000
    assert split.pool_cents == 24000
    assert [prize.cents for prize in split.prizes[:7]] == [9600, 6000, 3600, 2400, 1200, 1200, 0]
    assert split.costs_cents + sum(cents_of(split).values()) == 30000


def test_two_players_tied_for_second_share_the_prizes_of_places_2_and_3():
    split = split_prize_fund(10000, Decimal(0), GULBENE, ranked(1, 2, 2, 4, 5, 6, 7))

    prizes = cents_of(split)
    assert prizes["P2"] == prizes["P3"] == (2500 + 1500) // 2
    assert (split.prizes[1].first_place, split.prizes[1].last_place) == (2, 3)
    assert prizes["P7"] == 0


def test_a_tie_across_the_last_prized_place_shares_that_prize_with_nobody_else():
    split = split_prize_fund(10000, Decimal(0), GULBENE, ranked(1, 2, 3, 4, 5, 6, 6))

    assert cents_of(split)["P6"] == cents_of(split)["P7"] == 250


def test_fewer_players_than_prized_places_pay_the_whole_pool_to_the_places_taken():
    split = split_prize_fund(9000, Decimal(0), GULBENE, ranked(1, 2, 3))

    # 40 : 25 : 15 of 9000: 4500, 2812.5, 1687.5; the cent left over goes to place 1.
    assert cents_of(split) == {"P1": 4501, "P2": 2812, "P3": 1687}
    assert sum(cents_of(split).values()) == 9000


def test_cents_that_do_not_divide_go_one_each_to_the_better_places_then_in_standings_order():
    thirds = parse_prize_shares("33.34 33.33 33.33")
    split = split_prize_fund(100, Decimal(0), thirds, ranked(1, 2, 3))
    assert cents_of(split) == {"P1": 34, "P2": 33, "P3": 33}

    # Three tied for first share 1001 cents: 334, 334, 333, the extra cent in the listed order.
    shared = split_prize_fund(1001, Decimal(0), thirds, ranked(1, 1, 1))
    assert [prize.cents for prize in shared.prizes] == [334, 334, 333]


def test_the_costs_share_is_rounded_down_and_the_players_get_the_rest():
    split = split_prize_fund(999, parse_percent("12,5", field="costs"), GULBENE, ranked(1))

    assert split.costs_cents == 124  # 124.875
    assert cents_of(split) == {"P1": 875}


def test_nobody_ranked_leaves_the_pool_unpaid_and_says_so():
    split = split_prize_fund(3000, Decimal(20), GULBENE, [])

    assert split.prizes == ()
    assert (split.costs_cents, split.unpaid_cents) == (600, 2400)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("40 25 15 10 5", "must add up to 100, they add up to 95"),
        ("25 40 35", "place 2 must not get a larger percentage than place 1"),
        ("50 -50 100", "a percentage must be a number from 0 to 100"),
        ("100.001", "a percentage must be a number from 0 to 100"),
        ("1e2", "a percentage must be a number from 0 to 100"),
        ("NaN", "a percentage must be a number from 0 to 100"),
        ("101", "a percentage must be a number from 0 to 100"),
        (" ".join(["1"] * 101), "at most 100 places get a prize"),
    ],
)
def test_bad_percentages_are_refused_saying_what_is_wrong(text, message):
    with pytest.raises(SheetError, match=message):
        parse_prize_shares(text)


def test_shares_may_use_a_decimal_comma_and_empty_means_no_prizes_set():
    assert parse_prize_shares("50 37,5 12.5") == (Decimal(50), Decimal("37.5"), Decimal("12.5"))
    assert parse_prize_shares("  ") == ()


@pytest.mark.parametrize(
    ("fund", "places", "message"),
    [
        (-1, ranked(1), "the fund must be a whole number of cents"),
        (1.5, ranked(1), "the fund must be a whole number of cents"),
        (True, ranked(1), "the fund must be a whole number of cents"),
        (100, ranked(2), "place 2 follows place 0"),
        (100, ranked(1, 1, 2), "place 2 follows place 2"),
        (100, [("A", 1), ("A", 2)], "ranked twice"),
    ],
)
def test_a_bad_fund_or_ranking_is_refused(fund, places, message):
    with pytest.raises(SheetError, match=message):
        split_prize_fund(fund, Decimal(0), GULBENE, places)


@st.composite
def rankings(draw) -> list[tuple[str, int]]:
    """A standings order with ties: groups of 1-3 players sharing a rank."""
    sizes = draw(st.lists(st.integers(1, 3), max_size=12))
    places, rank = [], 1
    for size in sizes:
        places.extend((f"P{rank}-{index}", rank) for index in range(size))
        rank += size
    return places


@st.composite
def shares(draw) -> tuple[Decimal, ...]:
    """Percentages in hundredths adding up to 100, never growing with the place."""
    cuts = sorted(draw(st.lists(st.integers(0, 10000), max_size=8)))
    bounds = [0, *cuts, 10000]
    parts = sorted((b - a for a, b in itertools.pairwise(bounds)), reverse=True)
    return tuple(Decimal(part) / 100 for part in parts)


splits = st.builds(
    split_prize_fund,
    st.integers(0, 10**9),
    st.integers(0, 10000).map(lambda hundredths: Decimal(hundredths) / 100),
    shares(),
    rankings(),
)


@given(splits)
def test_the_costs_and_the_prizes_add_up_to_the_fund_to_the_cent(split):
    paid = sum(prize.cents for prize in split.prizes)
    assert split.costs_cents + paid + split.unpaid_cents == split.fund_cents
    assert split.unpaid_cents == 0 or not split.prizes


@given(splits)
def test_no_prize_and_no_costs_share_is_negative(split):
    assert split.costs_cents >= 0
    assert all(prize.cents >= 0 for prize in split.prizes)


@given(splits)
def test_a_better_place_never_gets_less_than_a_worse_one(split):
    for better, worse in itertools.pairwise(split.prizes):
        if better.first_place < worse.first_place:
            assert better.cents >= worse.cents
        else:  # tied: a cent apart at most
            assert abs(better.cents - worse.cents) <= 1


def test_the_command_line_splits_a_fund_and_refuses_a_bad_one(monkeypatch, capsysbinary):
    import io
    import json
    import sys

    from engine.cli import main

    def run(request: object) -> tuple[int, bytes, bytes]:
        raw = json.dumps(request).encode()
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))
        status = main(["prizes"])
        captured = capsysbinary.readouterr()
        return status, captured.out, captured.err

    status, out, _err = run(
        {"fund_cents": 4500, "costs_percent": "20", "shares": "60 40", "places": [["A", 1]]}
    )
    assert status == 0
    assert json.loads(out) == {"costs_cents": 900, "prizes": {"A": 3600}, "unpaid_cents": 0}

    status, out, err = run({"fund_cents": 4500, "shares": "60 30", "places": []})
    assert (status, out) == (2, b"")
    assert b"must add up to 100" in err
