"""Every answer of the API is valid against the schema it declares: no field missing, none
undeclared, every value of its declared type."""

from __future__ import annotations

import pytest
from django.test import Client
from pydantic import TypeAdapter

from api import schemas
from tests.factories import make_season
from tests.tournament_play import confirm, play_deals, played_tournament, publish_next_round

pytestmark = pytest.mark.django_db

ANSWERS = {
    "/api/v1/tournaments": schemas.TournamentPage,
    "/api/v1/tournaments/kauss": schemas.Tournament,
    "/api/v1/tournaments/kauss/rounds/1": schemas.Round,
    "/api/v1/tournaments/kauss/rounds/2": schemas.Round,
    "/api/v1/tournaments/kauss/rounds/1/tables/1": schemas.Table,
    "/api/v1/tournaments/kauss/standings": schemas.Standings,
    "/api/v1/tournaments/kauss/standings?provisional=true": schemas.Standings,
    "/api/v1/tournaments/kauss/standings?round=1": schemas.Standings,
    "/api/v1/ranking/seasons": list[schemas.Season],
    "/api/v1/ranking/season": schemas.SeasonRanking,
    "/api/v1/ranking/rating": schemas.Rating,
    "/api/v1/players": schemas.PlayerPage,
    "/api/v1/players/{player}": schemas.Player,
    "/api/v1/clubs": schemas.ClubPage,
    "/api/v1/tournaments?page=9": schemas.Error,
}


@pytest.fixture
def tournament():
    """Round 1 confirmed and closed, round 2 in play with one table part played."""
    make_season(2031)
    tournament = played_tournament(players=7, rounds=1, slug="kauss", deals_per_round=3)
    round_2 = publish_next_round(tournament, seed=2)
    table = round_2.tables.order_by("number").first()
    play_deals(table, 3, seed=2)
    confirm(table)
    other = round_2.tables.order_by("number").last()
    play_deals(other, 1, seed=3)
    return tournament


@pytest.mark.parametrize("url", sorted(ANSWERS))
def test_every_answer_is_valid_against_its_schema(tournament, url):
    player = tournament.registrations.first().player_id
    answer = Client().get(url.replace("{player}", str(player)))

    assert answer.status_code in (200, 404)
    TypeAdapter(ANSWERS[url]).validate_python(answer.json())


def test_an_undeclared_field_is_refused():
    with pytest.raises(ValueError, match="extra"):
        schemas.Club.model_validate({"id": 1, "name": "Ogre", "city": "", "members": 3})
