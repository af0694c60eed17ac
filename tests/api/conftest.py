"""Simulated tournaments for the tests that hold the API against the pages and the engine: every
kind of table the standings meet, played through the services."""

from __future__ import annotations

import pytest
from django.test import Client

from demo.simulation import play_simulated_round
from scoring import services as scoring_services
from scoring.services import Writer
from tests.factories import make_registrations, make_tournament
from tests.tournament_play import (
    confirm,
    confirm_when_time_was_called,
    next_not_dealing,
    play_deals,
    play_round_at,
    publish_next_round,
)
from tournaments.models import Tournament
from tournaments.rule_set import preset_options

# 13 deals: where everyone declares a won lielais in turn, at a table of 3 one player declares
# five times and two four times (places 2-3 shared), at a table of 4 one four times and three
# three times (places 2-4 shared).
DEALS = 13
PLAYERS = 10  # a table of 4 and two of 3, under either preset

# The presets, and place points whose shared places are fractions ("3/2", "4/3") where the
# federation's are whole numbers.
PROOF_TOURNAMENTS = {
    "lzf": {**preset_options("lzf")},
    "thirds": {
        **preset_options("classic"),
        "place_points_three": "6,3,0",
        "place_points_four": "6,3,1,0",
    },
}


def proof_tournament(name: str) -> Tournament:
    """Round 1 simulated (random valid deals, corrections, a player confirming each table) and
    closed; round 2 with shared places at every table but the last, which was confirmed short
    when time was called, closed; round 3 in play, one table with deals but not confirmed."""
    tournament = make_tournament(
        slug=f"proof-{name}",
        # The proof's deals at every table, whatever its size.
        **{
            **PROOF_TOURNAMENTS[name],
            "deals_per_round": DEALS,
            "deals_at_three": None,
            "deals_at_four": None,
        },
    )
    make_registrations(tournament, PLAYERS, clubs=3)
    first = publish_next_round(tournament, seed=11)
    play_simulated_round(first, seed=5)
    scoring_services.round_close(round_=first, writer=Writer())

    second = publish_next_round(tournament, seed=12)
    *shared, called = second.tables.order_by("number")
    for table in shared:
        play_round_at(table, next_not_dealing)
        confirm(table)
    play_deals(called, 5, seed=3)
    confirm_when_time_was_called(called)
    scoring_services.round_close(round_=second, writer=Writer())

    third = publish_next_round(tournament, seed=13)
    play_deals(third.tables.order_by("number").first(), 4, seed=4)
    return tournament


def api_get(path: str, **query) -> dict:
    response = Client().get(f"/api/v1{path}", query)
    assert response.status_code == 200, (path, response.content[:500])
    return response.json()


def api_standings(slug: str, **query) -> dict:
    """Every row of the standings, read page by page through the answers' `next` links."""
    body = api_get(f"/tournaments/{slug}/standings", per_page=3, **query)
    rows = list(body["results"])
    following = body["next"]
    while following is not None:
        answer = Client().get(following)
        assert answer.status_code == 200
        rows += answer.json()["results"]
        following = answer.json()["next"]
    assert len(rows) == body["count"]
    return {**body, "results": rows}


@pytest.fixture(params=sorted(PROOF_TOURNAMENTS))
def proof(request, db) -> Tournament:
    return proof_tournament(request.param)
