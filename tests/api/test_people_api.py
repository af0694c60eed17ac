"""The API's players and clubs: a player is there only when he has a public page."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from ranking.selectors import club_list
from tests.factories import make_club, make_player, make_published_round, make_tournament, seat_keys
from tests.tournament_play import confirm_with_totals

pytestmark = pytest.mark.django_db


@pytest.fixture
def confirmed_table():
    tournament = make_tournament(slug="kauss", place_points_three="6,3,0")
    round_ = make_published_round(tournament, players=6)
    table = round_.tables.order_by("number").first()
    a, b, c = seat_keys(table)
    confirm_with_totals(table, {a: 10, b: 10, c: -20})
    return table


def test_a_player_gives_his_public_history_as_his_page(confirmed_table):
    seat = confirmed_table.seats.order_by("position").first()
    player = seat.registration.player

    body = Client().get(f"/api/v1/players/{player.pk}").json()

    assert body["name"] == player.full_name
    [tournament] = body["tournaments"]
    assert tournament["slug"] == "kauss"
    assert tournament["rounds"] == [
        {
            "round": 1,
            "table": confirmed_table.number,
            "confirmed": True,
            "game_points": 10,
            "place_points": "9/2",
            "place": "1–2",
            "cumulative_game_points": 10,
        }
    ]
    assert tournament["place_points"] == "9/2"


def test_a_player_without_a_public_result_is_not_found_as_his_page(confirmed_table):
    hidden = make_player(full_name="Slēpts Spēlētājs")

    assert Client().get(f"/api/v1/players/{hidden.pk}").status_code == 404
    assert Client().get(reverse("public:player", args=[hidden.pk])).status_code == 404
    listed = [each["id"] for each in Client().get("/api/v1/players").json()["results"]]
    assert hidden.pk not in listed
    assert confirmed_table.seats.first().registration.player_id in listed


def test_a_player_id_beyond_any_database_integer_is_refused_not_a_500():
    answer = Client().get(f"/api/v1/players/{10**30}")

    assert answer.status_code == 422
    assert answer.json()["detail"][0]["loc"] == ["path", "player_id"]


def test_the_clubs_are_listed_in_the_readers_alphabetical_order():
    for name in ("Bauska", "Alūksne", "Ādaži", "Zaube"):
        make_club(name=name)

    body = Client().get("/api/v1/clubs").json()

    names = [club["name"] for club in body["results"]]
    assert names == [club.name for club in club_list()]
    assert names.index("Bauska") < names.index("Zaube")
    assert names.index("Alūksne") < names.index("Bauska")


def test_a_tournament_tells_how_it_moved_the_players_rating_once_rated(confirmed_table):
    from engine.rating import NEW_PLAYER
    from ranking.models import RatingChange
    from ranking.services import ranking_recompute

    seat = confirmed_table.seats.order_by("position").first()
    player = seat.registration.player
    url = f"/api/v1/players/{player.pk}"
    assert Client().get(url).json()["tournaments"][0]["rating_change"] is None  # not rated yet

    ranking_recompute()

    after = RatingChange.objects.get(player=player).after
    [tournament] = Client().get(url).json()["tournaments"]
    assert tournament["rating_change"] == {
        "tables": 1,
        "rating_before": {
            "mu": NEW_PLAYER.mu, "sigma": NEW_PLAYER.sigma, "ordinal": NEW_PLAYER.ordinal,
        },
        "rating_after": {"mu": after.mu, "sigma": after.sigma, "ordinal": after.ordinal},
        "expected_place": pytest.approx(2.0),  # three new players: each in the middle
        "actual_place": 1.5,  # tied for first with the second seat
    }  # fmt: skip
