"""Mode ranked, the Latvian federation's rule: "after each round the best four sit at table 1, the
next four at table 2, and so on". Nothing is repaired: a repeat or club mates at one table are
flagged and warned about, never avoided."""

from __future__ import annotations

import itertools

import pytest

from engine import SeatingPlayer, seat_players
from tests.engine.seating.test_seating import check_plan


def standings(count: int) -> list[SeatingPlayer]:
    """p1 leads, p2 is second, ... (scores all different)."""
    return [
        SeatingPlayer(id=f"p{place}", score=float(100 - place)) for place in range(1, count + 1)
    ]


def places(players: tuple[str, ...]) -> list[int]:
    return sorted(int(player[1:]) for player in players)


def test_the_best_four_sit_at_table_1_the_next_four_at_table_2_and_so_on():
    plan = seat_players(standings(26), mode="ranked", seed=3, table_size=4)
    tables = plan.rounds[0]
    assert [places(table.players) for table in tables] == [
        [1, 2, 3, 4],
        [5, 6, 7, 8],
        [9, 10, 11, 12],
        [13, 14, 15, 16],
        [17, 18, 19, 20],
        [21, 22, 23],  # the tables of 3 are the last tables
        [24, 25, 26],
    ]
    assert [flag.code for flag in tables[5].flags] == ["three_table"]
    assert not plan.warnings


def test_at_tables_of_3_the_tables_of_4_are_the_first():
    plan = seat_players(standings(14), mode="ranked", seed=3)
    assert [places(table.players) for table in plan.rounds[0]] == [
        [1, 2, 3, 4],
        [5, 6, 7, 8],
        [9, 10, 11],
        [12, 13, 14],
    ]


def test_the_players_are_given_in_any_order():
    players = standings(17)
    shuffled = players[5:] + players[:5]
    first = seat_players(players, mode="ranked", seed=8, table_size=4)
    assert seat_players(shuffled, mode="ranked", seed=8, table_size=4) == first
    assert places(first.rounds[0][0].players) == [1, 2, 3, 4]


def test_equal_scores_are_ordered_by_the_seed_reproducibly():
    # Eight players on 10 points share places 1-8: the seed decides who sits at table 1.
    players = [SeatingPlayer(id=f"t{n}", score=10.0) for n in range(8)]
    players += [SeatingPlayer(id=f"b{n}", score=2.0) for n in range(4)]
    top_tables = set()
    for seed in range(12):
        plan = seat_players(players, mode="ranked", seed=seed, table_size=4)
        assert plan == seat_players(players, mode="ranked", seed=seed, table_size=4)
        first, second, third = (set(table.players) for table in plan.rounds[0])
        assert first | second == {f"t{n}" for n in range(8)}
        assert third == {f"b{n}" for n in range(4)}
        top_tables.add(frozenset(first))
    assert len(top_tables) > 1, "another seed puts other tied players at table 1"


def test_repeats_are_flagged_and_warned_about_never_avoided():
    players = standings(12)
    last_round = [["p1", "p2", "p3", "p4"], ["p5", "p6", "p7", "p8"], ["p9", "p10", "p11", "p12"]]
    plan = seat_players(players, mode="ranked", seed=1, history=[last_round], table_size=4)
    assert [places(table.players) for table in plan.rounds[0]] == [
        [1, 2, 3, 4],
        [5, 6, 7, 8],
        [9, 10, 11, 12],
    ]
    check_plan(
        plan,
        players,
        history=[last_round],
        avoid_same_club=False,
        rounds=1,
        table_size=4,
        mode="ranked",
    )
    assert len(plan.warnings) == 3 * 6, "every pair of every table meets again"
    assert all("they met in the previous round too" in warning for warning in plan.warnings)


def test_club_mates_are_flagged_not_moved_apart():
    players = [
        SeatingPlayer(
            id=player.id, score=player.score, club="Rīga" if player.id in {"p1", "p2"} else None
        )
        for player in standings(8)
    ]
    plan = seat_players(players, mode="ranked", seed=1, avoid_same_club=True, table_size=4)
    top = plan.rounds[0][0]
    assert places(top.players) == [1, 2, 3, 4]
    assert [flag.detail for flag in top.flags if flag.code == "same_club"] == [
        "same club: Rīga (" + ", ".join(p for p in top.players if p in ("p1", "p2")) + ")"
    ]
    assert any("same club: Rīga" in warning for warning in plan.warnings)


def test_the_tables_of_3_stay_last_round_after_round_without_turn_warnings():
    # The rule cuts the standings; it does not rotate the tables of 3: whoever is last sits at
    # one again. The turns are still shown on the table, but not warned about.
    players = standings(10)
    last_round = [["p1", "p2", "p3", "p4"], ["p5", "p6", "p7"], ["p8", "p9", "p10"]]
    plan = seat_players(players, mode="ranked", seed=2, history=[last_round], table_size=4)
    tables = plan.rounds[0]
    assert [places(table.players) for table in tables] == [[1, 2, 3, 4], [5, 6, 7], [8, 9, 10]]
    (turns,) = [flag.detail for flag in tables[2].flags if flag.code == "three_table"]
    assert turns.startswith("table of 3: turn 2 for ")
    assert not [warning for warning in plan.warnings if "sits at a table of" in warning]


def test_a_fixed_player_sits_at_his_table_with_the_players_nearest_him_in_the_standings():
    # The leader is fixed to table 5 (the last of 4): he plays the players ranked next to him;
    # everyone else keeps the order of the standings over the other tables.
    players = [
        SeatingPlayer(
            id=player.id, score=player.score, fixed_table=5 if player.id == "p1" else None
        )
        for player in standings(26)
    ]
    plan = seat_players(players, mode="ranked", seed=4, table_size=4)
    tables = plan.rounds[0]
    assert [places(table.players) for table in tables] == [
        [5, 6, 7, 8],
        [9, 10, 11, 12],
        [13, 14, 15, 16],
        [17, 18, 19, 20],
        [1, 2, 3, 4],
        [21, 22, 23],
        [24, 25, 26],
    ]
    assert "p1 sits at table 5 as fixed" in [flag.detail for flag in tables[4].flags]
    check_plan(
        plan, players, history=[], avoid_same_club=False, rounds=1, table_size=4, mode="ranked"
    )


def test_a_table_of_3_with_four_fixed_players_becomes_a_table_of_4():
    # 11 players at tables of 4: 4, 4, 3. Four players fixed to table 3 make it a table of 4,
    # and the table of 3 moves up to table 2.
    fixed = {"p1", "p5", "p9", "p11"}
    players = [
        SeatingPlayer(
            id=player.id, score=player.score, fixed_table=3 if player.id in fixed else None
        )
        for player in standings(11)
    ]
    plan = seat_players(players, mode="ranked", seed=4, table_size=4)
    assert [places(table.players) for table in plan.rounds[0]] == [
        [2, 3, 4, 6],
        [7, 8, 10],
        [1, 5, 9, 11],
    ]


@pytest.mark.parametrize("table_size", [3, 4])
def test_every_table_is_a_run_of_the_standings_without_fixed_players(table_size):
    for count in itertools.chain(range(3, 5), range(6, 60)):
        plan = seat_players(standings(count), mode="ranked", seed=count, table_size=table_size)
        order = [place for table in plan.rounds[0] for place in places(table.players)]
        assert order == list(range(1, count + 1))
