"""Tables of 4 (`table_size=4`) in modes random, swiss and mix: the fewest tables of 3, taken in
turns as the tables of 4 are among tables of 3; 16 players meet no one twice for 5 rounds (the
affine plane of order 4), and the stored designs for 20, 24 and 28 players."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from engine import SeatingPlayer, explain_table, seat_players, table_sizes
from engine.seating.designs import (
    FOURS_DESIGNS,
    affine_plane_of_order_4,
    gf4_product,
    stored_design,
)
from tests.engine.seating.test_seating import check_plan

REPAIRING_MODES = ("random", "swiss", "mix")
# Rounds without a repeat in the stored designs at tables of 4 (designs.py says where from).
FOURS_DESIGN_ROUNDS = {16: 5, 20: 5, 24: 6, 28: 9}


def field(count: int) -> list[SeatingPlayer]:
    return [SeatingPlayer(id=f"p{n}", score=float(count - n)) for n in range(1, count + 1)]


def plan_rounds(plan) -> list[list[list[str]]]:
    return [[list(table.players) for table in tables] for tables in plan.rounds]


def play(players, mode: str, rounds: int, *, seed: int = 1) -> list[list[list[str]]]:
    """`rounds` rounds seated one at a time (mix too), each checked."""
    history: list[list[list[str]]] = []
    for _ in range(rounds):
        plan = seat_players(players, mode=mode, seed=seed, history=history, table_size=4)
        check_plan(
            plan, players, history=history, avoid_same_club=False, rounds=1, table_size=4, mode=mode
        )
        history += plan_rounds(plan)
    return history


def repeated_pairs(rounds) -> int:
    seen: Counter[frozenset[str]] = Counter()
    for tables in rounds:
        for table in tables:
            seen.update(frozenset(pair) for pair in itertools.combinations(table, 2))
    return sum(times - 1 for times in seen.values())


# --- the affine plane of order 4 --------------------------------------------------------------


def test_gf4_is_a_field():
    elements = range(4)
    for a, b, c in itertools.product(elements, repeat=3):
        assert gf4_product(a, b) == gf4_product(b, a)
        assert gf4_product(gf4_product(a, b), c) == gf4_product(a, gf4_product(b, c))
        assert gf4_product(a, b ^ c) == gf4_product(a, b) ^ gf4_product(a, c)
    for a in elements:
        assert gf4_product(a, 1) == a
        if a:
            assert sum(gf4_product(a, b) == 1 for b in elements) == 1, "one inverse each"


def test_the_affine_plane_seats_16_players_5_rounds_without_a_repeat_and_every_pair_once():
    design = affine_plane_of_order_4()
    assert stored_design(16, 4) == design
    assert len(design) == 5
    met: Counter[frozenset[int]] = Counter()
    for tables in design:
        assert sorted(point for table in tables for point in table) == list(range(16))
        assert [len(table) for table in tables] == [4, 4, 4, 4]
        for table in tables:
            met.update(frozenset(pair) for pair in itertools.combinations(table, 2))
    assert len(met) == 16 * 15 // 2 and set(met.values()) == {1}


@pytest.mark.parametrize(("count", "rounds"), sorted(FOURS_DESIGN_ROUNDS.items()))
def test_each_stored_design_for_tables_of_4_has_no_repeated_pair(count, rounds):
    design = stored_design(count, 4)
    assert design is not None and len(design) == rounds
    met: Counter[frozenset[int]] = Counter()
    for tables in design:
        assert sorted(point for table in tables for point in table) == list(range(count))
        assert [len(table) for table in tables] == list(table_sizes(count, 4))
        for table in tables:
            met.update(frozenset(pair) for pair in itertools.combinations(table, 2))
    assert set(met.values()) == {1}
    if count in (16, 28):  # the affine plane and the unital: every pair meets, once
        assert len(met) == count * (count - 1) // 2


def test_the_stored_designs_for_tables_of_4_are_all_listed():
    assert sorted({16, *FOURS_DESIGNS}) == sorted(FOURS_DESIGN_ROUNDS)


@pytest.mark.parametrize(("count", "rounds"), sorted(FOURS_DESIGN_ROUNDS.items()))
def test_mix_plans_as_many_rounds_at_tables_of_4_as_the_designs(count, rounds):
    players = field(count)
    plan = seat_players(players, mode="mix", seed=6, rounds=rounds, table_size=4)
    check_plan(
        plan, players, history=[], avoid_same_club=False, rounds=rounds, table_size=4, mode="mix"
    )
    assert not plan.warnings


def test_the_stored_designs_for_tables_of_3_are_not_used_at_tables_of_4():
    assert stored_design(16) is None
    assert stored_design(9, 4) is None
    assert stored_design(15, 4) is None


def test_mix_seats_16_players_at_tables_of_4_for_5_rounds_without_a_repeat():
    players = field(16)
    plan = seat_players(players, mode="mix", seed=4, rounds=6, table_size=4)
    check_plan(plan, players, history=[], avoid_same_club=False, rounds=6, table_size=4, mode="mix")
    rounds = plan_rounds(plan)
    assert repeated_pairs(rounds[:5]) == 0
    assert repeated_pairs(rounds) > 0, "after 5 rounds everyone has met everyone"


def test_the_affine_plane_keeps_a_fixed_player_at_his_table():
    players = [SeatingPlayer(id=f"p{n}", fixed_table=3 if n == 7 else None) for n in range(1, 17)]
    plan = seat_players(players, mode="mix", seed=2, rounds=5, table_size=4)
    assert all("p7" in tables[2].players for tables in plan.rounds)
    assert repeated_pairs(plan_rounds(plan)) == 0


@pytest.mark.parametrize("count", [32, 40, 100])
def test_mix_plans_7_rounds_of_larger_fields_at_tables_of_4_without_a_repeat(count):
    players = field(count)
    plan = seat_players(players, mode="mix", seed=1, rounds=7, table_size=4)
    check_plan(plan, players, history=[], avoid_same_club=False, rounds=7, table_size=4, mode="mix")
    assert not plan.warnings


# --- every mode at tables of 4 ----------------------------------------------------------------


@pytest.mark.parametrize("mode", REPAIRING_MODES)
@pytest.mark.parametrize("count", [3, 4, 6, 7, 9, 10, 11, 13, 14, 21, 26, 41])
def test_every_mode_seats_everyone_once_at_the_sizes_of_table_sizes(mode, count):
    rounds = play(field(count), mode, 4, seed=count)
    for tables in rounds:
        assert sorted(len(table) for table in tables) == sorted(table_sizes(count, 4))


@pytest.mark.parametrize("mode", REPAIRING_MODES)
def test_the_tables_of_3_rotate_through_the_field(mode):
    # 14 players: 2 tables of 4, 2 of 3: 6 seats at a table of 3 a round, 42 in 7 rounds, so
    # each player sits at a table of 3 about 3 times: a turn more or less only where it spares a
    # repeat (`check_plan` checks each such turn).
    rounds = play(field(14), mode, 7, seed=5)
    at_three = Counter(
        player for tables in rounds for table in tables if len(table) == 3 for player in table
    )
    assert len(at_three) == 14 and 2 <= min(at_three.values()) <= max(at_three.values()) <= 4


@pytest.mark.parametrize("mode", REPAIRING_MODES)
@pytest.mark.parametrize("count", [16, 19, 20, 24])
def test_an_avoidable_repeat_is_avoided_in_the_second_round(mode, count):
    # After the ranked cut, each new table can take its players from different tables. (Not so
    # at 17: the 8 players of the two tables of 4 are due the three tables of 3, where two of
    # one table must meet again; the rotation comes first.)
    players = field(count)
    plan = seat_players(players, mode="ranked", seed=1, table_size=4)
    history = plan_rounds(plan)
    second = seat_players(players, mode=mode, seed=1, history=history, table_size=4)
    check_plan(
        second, players, history=history, avoid_same_club=False, rounds=1, table_size=4, mode=mode
    )
    assert not second.warnings


def test_swiss_at_tables_of_4_starts_as_the_ranked_cut_with_the_tables_of_3_last():
    # 41 players: 8 tables of 4, 3 of 3. (In fields of 28 or fewer the tables of 3 of a whole
    # turn are planned at once, among players who have not met: they need not be the last.)
    players = field(41)
    swiss = seat_players(players, mode="swiss", seed=3, table_size=4)
    ranked = seat_players(players, mode="ranked", seed=3, table_size=4)
    assert [set(table.players) for table in swiss.rounds[0]] == [
        set(table.players) for table in ranked.rounds[0]
    ]
    assert [len(table.players) for table in swiss.rounds[0]] == [4] * 8 + [3] * 3


def test_swiss_at_tables_of_4_gives_the_tables_of_3_to_low_players_due():
    # 46 players: 10 tables of 4, 2 of 3. p41-p46 sat at the tables of 3 in round 1; in round 2
    # six players who have not sat at one do, from the lower part of the standings.
    players = field(46)
    history = plan_rounds(seat_players(players, mode="ranked", seed=1, table_size=4))
    assert {p for table in history[0] if len(table) == 3 for p in table} == {
        f"p{n}" for n in range(41, 47)
    }
    plan = seat_players(players, mode="swiss", seed=3, history=history, table_size=4)
    check_plan(
        plan, players, history=history, avoid_same_club=False, rounds=1, table_size=4, mode="swiss"
    )
    assert not plan.warnings
    at_three = {p for table in plan.rounds[0] if len(table.players) == 3 for p in table.players}
    assert len(at_three) == 6
    assert at_three <= {f"p{n}" for n in range(25, 41)}


def test_a_table_of_3_is_flagged_with_each_players_turn():
    history = [[["a", "b", "c"], ["d", "e", "f", "g"]], [["a", "d", "e"], ["b", "c", "f", "g"]]]
    flags = explain_table(
        ["a", "b", "d"],
        number=2,
        history=history,
        clubs={},
        fixed_tables={},
        avoid_same_club=False,
        table_size=4,
    )
    (turns,) = [flag for flag in flags if flag.code == "three_table"]
    assert turns.detail == "table of 3: turn 2 for b, d; turn 3 for a"
    assert turns.template == "table of 3: %(turns)s"
    four = explain_table(
        ["a", "b", "d", "e"],
        number=1,
        history=history,
        clubs={},
        fixed_tables={},
        avoid_same_club=False,
        table_size=4,
    )
    assert not [flag for flag in four if flag.code in ("three_table", "four_table")]
