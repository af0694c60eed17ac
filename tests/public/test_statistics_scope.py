"""The statistics on a player's page: his career by default, a season or a tournament of his
chosen by a link, in the reader's language; a scope not his is not found."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from demo.simulation import simulate_tournament
from ranking.models import Season
from tournaments.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def player():
    tournament = simulate_tournament(players=6, rounds=2, deals=6, seed=5, slug="kauss")
    return Player.objects.filter(registrations__tournament=tournament).first()


def page(client, player, **query):
    return client.get(reverse("public:player", args=[player.pk]), query, HTTP_ACCEPT_LANGUAGE="lv")


def test_the_career_is_shown_first_in_latvian_with_the_fields_figures(client, player):
    response = page(client, player)
    text = response.content.decode()
    assert "Statistika: Visa karjera" in text
    assert "Spēlējot lielo" in text and "Vidēji" in text
    section = response.context["statistics"]
    assert section.choices[0].chosen
    assert section.scoped.statistics.his.rounds == 2


def test_a_tournament_of_his_and_his_season_are_scopes(client, player):
    tournament = player.registrations.get().tournament
    response = page(client, player, tournament="kauss")
    assert response.context["statistics"].title == tournament.name
    season = next(s for s in Season.objects.all() if s.covers(tournament.starts_on))
    response = page(client, player, season=str(season.pk))
    assert response.context["statistics"].scoped.season == season


@pytest.mark.parametrize(
    "query",
    [
        {"tournament": "cits"},
        {"season": "999999"},
        {"season": "abc"},
        {"season": ""},
        {"season": "-1"},
        {"tournament": "x" * 500},
    ],
)
def test_a_scope_not_his_is_not_found(client, player, query):
    assert page(client, player, **query).status_code == 404


def test_an_unknown_or_repeated_parameter_is_sent_to_the_pages_own_address(client, player):
    url = reverse("public:player", args=[player.pk])
    assert client.get(url + "?sort=x").status_code == 302
    assert client.get(url + "?season=1&season=2").status_code == 302


def test_the_page_costs_the_same_queries_with_more_tournaments_in_the_field(client, player):
    """Measured on a cache miss (the page is cached with the rating list)."""
    counts = []
    for slug in ("otrs", "tresais"):
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            assert page(client, player).status_code == 200
        counts.append(len(queries))
        simulate_tournament(players=6, rounds=3, deals=6, seed=len(slug), slug=slug)
    assert counts[0] == counts[1]
