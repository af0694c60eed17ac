"""Property tests of seating at both table sizes: for any field, clubs, a fixed player, history
and seed, every mode seats everyone exactly once a round at the right table sizes, and the plan
passes the independent checker of test_seating (flags, warnings, fair odd tables, the ranked
cut)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import SeatingPlayer, seat_players
from tests.engine.seating.test_seating import MODES, check_plan, expected_sizes

SEATING_SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
FIELD_SIZES = st.integers(3, 60).filter(lambda count: count != 5)


@st.composite
def seatings(draw: st.DrawFn) -> dict:
    table_size = draw(st.sampled_from([3, 4]))
    count = draw(FIELD_SIZES)
    mode = draw(st.sampled_from(MODES))
    clubs = draw(
        st.lists(st.sampled_from(["Rīga", "Ogre", "Cēsis", None]), min_size=count, max_size=count)
    )
    scores = draw(st.lists(st.integers(0, 12), min_size=count, max_size=count))
    players = [
        SeatingPlayer(id=f"p{n}", club=club, score=float(score))
        for n, (club, score) in enumerate(zip(clubs, scores, strict=True))
    ]
    if draw(st.booleans()):
        at = draw(st.integers(0, count - 1))
        table = draw(st.integers(1, len(expected_sizes(count, table_size))))
        players[at] = SeatingPlayer(
            id=players[at].id, club=players[at].club, score=players[at].score, fixed_table=table
        )
    # Earlier rounds: plain draws at the same table size, some of them before a late entry.
    shuffle = random.Random(draw(st.integers(0, 2**32)))
    history = []
    for _ in range(draw(st.integers(0, 3))):
        present = [player.id for player in players if shuffle.random() > 0.1] or ["x"]
        if len(present) in (1, 2, 5):
            continue
        shuffle.shuffle(present)
        tables, at = [], 0
        for size in expected_sizes(len(present), table_size):
            tables.append(present[at : at + size])
            at += size
        history.append(tables)
    return {
        "players": players,
        "mode": mode,
        "seed": draw(st.integers(0, 10**6)),
        "avoid_same_club": draw(st.booleans()),
        "rounds": draw(st.integers(1, 2)) if mode == "mix" else 1,
        "history": history,
        "table_size": table_size,
    }


@SEATING_SETTINGS
@given(seatings())
def test_every_mode_seats_everyone_once_at_the_right_sizes(case):
    plan = seat_players(**case)
    for tables in plan.rounds:
        seated = sorted(player for table in tables for player in table.players)
        assert seated == sorted(player.id for player in case["players"])
        sizes = sorted((len(table.players) for table in tables), reverse=True)
        assert sizes == expected_sizes(len(case["players"]), case["table_size"])
    check_plan(
        plan,
        case["players"],
        history=case["history"],
        avoid_same_club=case["avoid_same_club"],
        rounds=case["rounds"],
        table_size=case["table_size"],
        mode=case["mode"],
    )


@SEATING_SETTINGS
@given(seatings())
def test_the_same_request_gives_the_same_plan(case):
    assert seat_players(**case) == seat_players(**{**case, "players": case["players"][::-1]})
