"""The API's season ranking and rating list: every figure of their pages, under their rules."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from demo.synthetic import build_played_tournaments
from ranking import selectors, services
from ranking.models import Season
from tests.factories import make_season
from tournaments.models import Club

pytestmark = pytest.mark.django_db


@pytest.fixture
def season() -> Season:
    """Season 2026, the only one, with two finished tournaments, placings and ratings."""
    Season.objects.all().delete()
    season = make_season(2026)
    build_played_tournaments(players=12, tournaments=2, per_tournament=9, rounds=2, seed=4)
    services.ranking_recompute()
    return season


def test_the_season_ranking_gives_every_figure_of_its_page(season):
    body = Client().get("/api/v1/ranking/season").json()

    ranking = selectors.season_standings(season=season)
    assert body["season"]["id"] == season.pk
    assert body["tournaments"] == ranking.tournaments == 2
    assert body["count"] == len(ranking.rows)
    assert [
        (r["rank_label"], r["player_id"], r["points"], r["wins"], r["game_points"], r["counted"])
        for r in body["results"]
    ] == [
        (r.rank_label, r.player_id, r.points, r.wins, r.game_points, r.counted)
        for r in ranking.rows
    ]


def test_a_club_lists_its_players_with_their_ranks_in_the_whole(season):
    club = Club.objects.order_by("pk").first()

    body = Client().get(f"/api/v1/ranking/season?club={club.pk}").json()

    whole = {row.player_id: row.rank for row in selectors.season_standings(season=season).rows}
    assert body["results"]
    assert all(row["club_id"] == club.pk for row in body["results"])
    assert all(row["rank"] == whole[row["player_id"]] for row in body["results"])


@pytest.mark.parametrize("query", ["season=999999", "club=999999"])
def test_an_unknown_season_or_club_is_not_found_as_on_the_page(season, query):
    assert Client().get(f"/api/v1/ranking/season?{query}").status_code == 404
    assert Client().get(f"{reverse('ranking:season')}?{query}").status_code == 404


def test_the_rating_list_gives_every_figure_of_its_page(season):
    body = Client().get("/api/v1/ranking/rating").json()

    rows = selectors.rating_list()
    assert body["count"] == len(rows) > 0
    assert [(r["rank"], r["player_id"], r["ordinal"], r["tables"]) for r in body["results"]] == [
        (r.rank, r.player_id, r.ordinal, r.tables) for r in rows
    ]


def test_an_unknown_club_has_no_rating_list_as_on_the_page(season):
    assert Client().get("/api/v1/ranking/rating?club=999999").status_code == 404
    assert Client().get(f"{reverse('ranking:rating')}?club=999999").status_code == 404


def test_the_seasons_are_listed_newest_first_with_their_ids(season):
    older = make_season(2025)

    body = Client().get("/api/v1/ranking/seasons").json()

    assert [each["id"] for each in body] == [season.pk, older.pk]
    assert body[0]["best_k"] == season.best_k
