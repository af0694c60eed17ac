"""The API's tournaments, rounds, tables and standings: what the public pages show, under the
pages' rules, as JSON."""

from __future__ import annotations

import datetime
import io
import json
from fractions import Fraction

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from engine.cli import score_one
from scoring.models import SeatResult
from scoring.services import round_generate_seating
from tests.factories import (
    make_organiser,
    make_published_round,
    make_season,
    make_tournament,
    seat_keys,
)
from tests.tournament_play import (
    confirm,
    confirm_with_totals,
    play_deals,
    played_tournament,
)
from tournaments import services
from tournaments.models import Level, Seat

pytestmark = pytest.mark.django_db


def get(url: str, **headers):
    return Client().get(url, **headers)


def api(path: str) -> str:
    return f"/api/v1{path}"


# -- The tournament list -------------------------------------------------------------------------


def test_the_tournament_list_names_every_tournament_by_its_address():
    make_tournament(slug="riga-open", name="Rīgas atklātais")

    answer = get(api("/tournaments"))

    assert answer.status_code == 200
    body = answer.json()
    assert [each["slug"] for each in body["results"]] == ["riga-open"]
    assert body["results"][0]["url"] == "http://testserver/api/v1/tournaments/riga-open"


def test_the_tournament_list_is_filtered_by_season_level_and_status():
    season = make_season(2031)
    inside = season.starts_on + datetime.timedelta(days=3)
    make_tournament(slug="national", level=Level.NATIONAL, starts_on=inside)
    make_tournament(slug="club", level=Level.CLUB, starts_on=inside)
    make_tournament(slug="old", level=Level.NATIONAL, starts_on=datetime.date(2001, 1, 6))

    def slugs(query: str) -> list[str]:
        return sorted(each["slug"] for each in get(api(f"/tournaments?{query}")).json()["results"])

    assert slugs(f"season={season.pk}") == ["club", "national"]
    assert slugs("level=national") == ["national", "old"]
    assert slugs(f"level=national&season={season.pk}") == ["national"]
    assert slugs("status=finished") == sorted(
        each["slug"]
        for each in get(api("/tournaments")).json()["results"]
        if each["status"] == "finished"
    )
    assert "old" in slugs("status=finished")


def test_a_filter_that_is_no_choice_is_refused_naming_the_parameter():
    answer = get(api("/tournaments?level=galaxy"))

    assert answer.status_code == 422
    assert answer.json()["detail"][0]["loc"] == ["query", "level"]


def test_an_unknown_season_is_not_found():
    assert get(api("/tournaments?season=999")).status_code == 404


def test_the_list_is_paged_with_links_to_the_next_and_previous_pages():
    for number in range(5):
        make_tournament(slug=f"t-{number}", starts_on=datetime.date(2020, 1, 1 + number))

    first = get(api("/tournaments?per_page=2&level=club")).json()
    second = get(first["next"]).json()
    last = get(second["next"]).json()

    assert first["count"] == 5
    assert first["previous"] is None
    assert first["next"] == "http://testserver/api/v1/tournaments?level=club&per_page=2&page=2"
    assert second["previous"] == "http://testserver/api/v1/tournaments?level=club&per_page=2"
    assert last["next"] is None
    slugs = [each["slug"] for page in (first, second, last) for each in page["results"]]
    assert sorted(slugs) == [f"t-{number}" for number in range(5)]


def test_a_page_past_the_last_is_refused_naming_the_last():
    make_tournament()

    answer = get(api("/tournaments?page=3"))

    assert answer.status_code == 404
    assert answer.json() == {"detail": "page 3 does not exist: the last page is 1", "field": "page"}


# -- A tournament --------------------------------------------------------------------------------


def test_a_tournament_gives_its_rule_set_in_the_engines_json():
    tournament = make_tournament(slug="kauss", small_zole=True, place_points_four="6,3,3,0")

    body = get(api("/tournaments/kauss")).json()

    assert body["rule_set"]["rules"]["small_zole"] is True
    assert body["rule_set"]["place_points"] == {"3": [6, 4, 2], "4": [6, 3, 3, 0]}
    assert body["rule_set"]["deals_per_round"] == tournament.deals_per_round
    assert body["rounds"] == []


def test_an_unknown_tournament_is_not_found_as_its_page():
    assert get(api("/tournaments/nobody")).status_code == 404
    assert get("/t/nobody/").status_code == 404


def test_a_draft_round_is_not_listed_nor_found_as_on_the_pages():
    tournament = make_tournament(slug="kauss")
    round_1 = make_published_round(tournament)
    round_2 = services.round_create(tournament=tournament)
    round_generate_seating(round_=round_2, seed=2, by=None)

    listed = [each["number"] for each in get(api("/tournaments/kauss")).json()["rounds"]]

    assert listed == [round_1.number]
    assert get(api("/tournaments/kauss/rounds/2")).status_code == 404
    assert get(reverse("public:round", args=["kauss", 2])).status_code == 404
    assert get(api("/tournaments/kauss/rounds/1")).status_code == 200


# -- A round -------------------------------------------------------------------------------------


def test_a_round_gives_its_seating_by_table_and_its_clock():
    tournament = make_tournament(slug="kauss", round_time_limit=90)
    round_ = make_published_round(tournament, players=7)

    body = get(api("/tournaments/kauss/rounds/1")).json()

    assert body["status"] == "published"
    assert body["clock"]["timed"] is True
    assert body["clock"]["limit_minutes"] == 90
    seated = {
        (table["number"], seat["seat"]): seat["player_id"]
        for table in body["tables"]
        for seat in table["seats"]
    }
    assert seated == {
        (seat.table.number, seat.position): seat.registration.player_id
        for seat in Seat.objects.filter(table__round=round_).select_related("table", "registration")
    }
    assert all(table["url"] is None for table in body["tables"])  # none confirmed yet


# -- A confirmed table ---------------------------------------------------------------------------


def played_table(**fields):
    tournament = make_tournament(slug="kauss", deals_per_round=6, **fields)
    round_ = make_published_round(tournament, players=8)
    table = round_.tables.order_by("number").first()
    play_deals(table, 6, seed=3)
    confirm(table)
    return tournament, table


def rescored(sheet: dict) -> dict:
    """What `python -m engine score` answers for the sheet."""
    out, err = io.BytesIO(), io.BytesIO()
    assert score_one(json.dumps(sheet).encode(), out, err) == 0, err.getvalue()
    return json.loads(out.getvalue())


def test_a_confirmed_tables_sheet_is_rescored_by_the_engine_to_its_result():
    _tournament, table = played_table()

    body = get(api(f"/tournaments/kauss/rounds/1/tables/{table.number}")).json()

    assert rescored(body["sheet"]) == body["scored"]
    assert body["scored"]["totals"] == {
        place["name"]: place["game_points"] for place in body["results"]
    }
    stored = {
        result.registration.player.full_name: (result.game_points, result.place)
        for result in SeatResult.objects.filter(table_result__table=table).select_related(
            "registration__player"
        )
    }
    assert {p["name"]: (p["game_points"], p["place"]) for p in body["results"]} == stored
    assert body["sheet"]["closed"] is True
    assert len(body["sheet"]["deals"]) == 6


def test_a_table_in_play_is_not_found_as_its_page():
    tournament = make_tournament(slug="kauss", deals_per_round=6)
    round_ = make_published_round(tournament, players=8)
    table = round_.tables.order_by("number").first()
    play_deals(table, 3, seed=3)

    assert get(api(f"/tournaments/kauss/rounds/1/tables/{table.number}")).status_code == 404
    assert get(reverse("public:table", args=["kauss", 1, table.number])).status_code == 404


def test_a_table_reopened_between_its_lookup_and_its_read_is_not_found(monkeypatch):
    tournament = make_tournament(slug="kauss", deals_per_round=6)
    round_ = make_published_round(tournament, players=8)
    table = round_.tables.order_by("number").first()
    play_deals(table, 3, seed=3)
    # The lookup found the table confirmed; by the time its sheet is read it is in play again.
    monkeypatch.setattr("api.tournaments_api.selectors.public_table_id", lambda **_lookup: table.pk)

    assert get(api(f"/tournaments/kauss/rounds/1/tables/{table.number}")).status_code == 404


# -- The standings -------------------------------------------------------------------------------


def test_the_standings_give_shared_place_points_exactly():
    tournament = make_tournament(slug="kauss", place_points_three="6,3,0", table_size=3)
    round_ = make_published_round(tournament, players=6)
    first, second = round_.tables.order_by("number")
    a, b, c = seat_keys(first)
    confirm_with_totals(first, {a: 10, b: 10, c: -20})  # first place shared: (6 + 3) / 2
    confirm_with_totals(second, dict(zip(seat_keys(second), (20, 0, -20), strict=True)))

    body = get(api("/tournaments/kauss/standings")).json()

    assert body["count"] == 6
    points = [row["place_points"] for row in body["results"]]
    assert points == ["6", "9/2", "9/2", "3", "0", "0"]
    assert [row["rounds"]["1"]["place_points"] for row in body["results"]] == points
    for row in body["results"]:
        total = sum((Fraction(cell["place_points"]) for cell in row["rounds"].values()), 0)
        assert row["place_points"] == str(Fraction(total))


def test_the_standings_of_a_draft_round_are_not_found_as_the_page():
    played_tournament(players=6, rounds=1, slug="kauss")

    assert get(api("/tournaments/kauss/standings?round=2")).status_code == 404
    assert get(reverse("public:standings", args=["kauss"]) + "?round=2").status_code == 404


# -- Caching -------------------------------------------------------------------------------------


def test_an_answer_carries_an_etag_and_a_client_holding_it_gets_304():
    played_tournament(players=6, rounds=1, slug="kauss")
    first = get(api("/tournaments/kauss/standings"))

    again = get(api("/tournaments/kauss/standings"), HTTP_IF_NONE_MATCH=first["ETag"])

    assert first["ETag"]
    assert again.status_code == 304
    assert again.content == b""


def test_a_confirmation_changes_the_standings_etag_at_once(django_capture_on_commit_callbacks):
    tournament = make_tournament(slug="kauss", deals_per_round=3)
    round_ = make_published_round(tournament, players=6)
    first = get(api("/tournaments/kauss/standings"))
    table = round_.tables.order_by("number").first()
    play_deals(table, 3, seed=1)

    with django_capture_on_commit_callbacks(execute=True):
        confirm(table)
    after = get(api("/tournaments/kauss/standings"), HTTP_IF_NONE_MATCH=first["ETag"])

    assert after.status_code == 200
    assert after["ETag"] != first["ETag"]
    assert any(row["rounds"] for row in after.json()["results"])


def test_an_organiser_is_never_served_from_the_cache_but_gets_an_etag():
    make_published_round(make_tournament(slug="kauss"))
    organiser = Client()
    organiser.force_login(make_organiser())

    answer = organiser.get(api("/tournaments/kauss/rounds/1"))

    assert answer.status_code == 200
    assert answer["ETag"]


# -- Queries -------------------------------------------------------------------------------------

# A render runs a fixed number of queries whatever the size (the pages' selectors): the
# tournament's id (all a cached answer needs), then the standings the page's four; a round its
# tournament, round, tables, seats, results and short tables; a table its page's five and its
# confirmed results; a tournament its row, its rounds and its entries counted. From the cache:
# the tournament's id alone.
QUERIES = {"standings": 5, "rounds/1": 7, "rounds/1/tables/1": 7, "": 4}


@pytest.mark.parametrize("players", [6, 24])
@pytest.mark.parametrize("path", sorted(QUERIES))
def test_an_answer_runs_the_same_few_queries_whatever_the_size(path, players):
    played_tournament(players=players, rounds=2, slug="kauss")
    url = api(f"/tournaments/kauss/{path}".rstrip("/"))
    cache.clear()

    with CaptureQueriesContext(connection) as rendered:
        assert get(url).status_code == 200
    with CaptureQueriesContext(connection) as cached:
        assert get(url).status_code == 200

    assert len(rendered) == QUERIES[path]
    assert len(cached) == 1
