"""The API's figures are the pages' figures, and the engine gets them again from the API alone.

Simulated tournaments played deal by deal through the services: tables of 3 and of 4, the
federation's `lzf` rules (a fixed value for four shared places), places shared by a whole
table, and a table confirmed short when the round's time was called."""

from __future__ import annotations

import io
import json
from collections import defaultdict
from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse

from engine.cli import places_one, score_one
from scoring.selectors import points_text
from tests.factories import make_registrations, make_tournament
from tests.tournament_play import (
    confirm,
    confirm_when_time_was_called,
    next_not_dealing,
    play_deals,
    play_round_at,
    publish_next_round,
)
from tournaments.models import Round, RoundStatus
from tournaments.rule_set import preset_options, round_rule_set

pytestmark = pytest.mark.django_db


def engine(command, request: dict) -> dict:
    """What `python -m engine <command>` answers for the request."""
    out, err = io.BytesIO(), io.BytesIO()
    assert command(json.dumps(request).encode(), out, err) == 0, err.getvalue()
    return json.loads(out.getvalue())


def play_tournament(*, players: int, rounds: int, time_called: bool = False, **fields):
    """Every table of every round played through the services: the first table of each round
    shares first place at its table (everyone declares once and wins), the others are random;
    with `time_called`, the last table of the last round is confirmed short, time up."""
    tournament = make_tournament(rounds_planned=rounds, **fields)
    make_registrations(tournament, players, clubs=2)
    for number in range(1, rounds + 1):
        round_ = publish_next_round(tournament, seed=number)
        tables = list(round_.tables.order_by("number"))
        rule_set = round_rule_set(round_)
        for index, table in enumerate(tables):
            size = table.seats.count()
            if index == 0:
                play_round_at(table, next_not_dealing)
                confirm(table)
            elif time_called and number == rounds and index == len(tables) - 1:
                play_deals(table, 2, seed=number * 10 + index)
                confirm_when_time_was_called(table)
            else:
                play_deals(table, rule_set.deals_at(size), seed=number * 10 + index)
                confirm(table)
        Round.objects.filter(pk=round_.pk).update(status=RoundStatus.CLOSED)
    return tournament


TOURNAMENTS = {
    "threes": lambda: play_tournament(
        players=6, rounds=2, slug="threes", deals_per_round=3, place_points_three="6,3,1"
    ),
    "fours-lzf": lambda: play_tournament(
        players=8,
        rounds=2,
        time_called=True,
        **{
            **preset_options("lzf"),
            "deals_per_round": 4,
            "deals_at_three": None,
            "deals_at_four": None,
            "slug": "fours-lzf",
        },
    ),
    "mixed": lambda: play_tournament(
        players=7, rounds=2, slug="mixed", deals_per_round=4, deals_at_three=3
    ),
}


@pytest.fixture(params=sorted(TOURNAMENTS))
def tournament(request):
    return TOURNAMENTS[request.param]()


def api_standings(slug: str) -> dict:
    return Client().get(f"/api/v1/tournaments/{slug}/standings?per_page=500").json()


def test_every_figure_of_the_standings_is_the_pages(tournament):
    page = Client().get(reverse("public:standings", args=[tournament.slug]))
    rows = page.context["standings"].rows

    body = api_standings(tournament.slug)

    assert body["count"] == len(rows)
    for shown, answered in zip(rows, body["results"], strict=True):
        assert answered["position"] == shown.position
        assert answered["rank_label"] == shown.rank_label
        assert answered["name"] == shown.name
        assert answered["club"] == shown.club
        assert answered["game_points"] == shown.game_points
        assert answered["wins"] == shown.wins
        assert points_text(Fraction(answered["place_points"])) == shown.place_points_text
        assert set(answered["rounds"]) == {str(number) for number in shown.rounds}
        for number, cell in shown.rounds.items():
            mine = answered["rounds"][str(number)]
            assert (mine["game_points"], mine["place"]) == (cell.game_points, cell.place)
            assert points_text(Fraction(mine["place_points"])) == cell.place_points_text


def test_the_engine_gets_the_standings_again_from_the_apis_tables(tournament):
    """Each confirmed table's sheet re-scored by `python -m engine score`, its places by
    `python -m engine places` with the round's place points: summed, the standings' totals."""
    detail = Client().get(f"/api/v1/tournaments/{tournament.slug}").json()
    place_points: dict[str, Fraction] = defaultdict(Fraction)
    game_points: dict[str, int] = defaultdict(int)
    tables = 0
    for round_link in detail["rounds"]:
        round_ = Client().get(round_link["url"]).json()
        scheme = round_["rule_set"]
        for table_line in round_["tables"]:
            table = Client().get(table_line["url"]).json()
            scored = engine(score_one, table["sheet"])
            assert scored == table["scored"]
            places = engine(
                places_one,
                {
                    "points": scheme["place_points"],
                    "shared": scheme["shared_place_points"],
                    "results": scored["totals"],
                },
            )
            for seat in table["players"]:
                name = seat["name"]
                game_points[seat["player_id"]] += scored["totals"][name]
                place_points[seat["player_id"]] += Fraction(places["place_points"][name])
            tables += 1

    standings = api_standings(tournament.slug)["results"]

    assert tables == sum(each["confirmed_tables"] for each in detail["rounds"]) > 0
    assert {row["player_id"]: row["game_points"] for row in standings} == game_points
    assert {row["player_id"]: Fraction(row["place_points"]) for row in standings} == place_points


def test_the_simulations_hold_what_they_are_meant_to(tournament):
    """Shared places in every tournament; the lzf one has a table confirmed short."""
    body = api_standings(tournament.slug)
    round_1 = Client().get(f"/api/v1/tournaments/{tournament.slug}/rounds/1").json()
    first = round_1["tables"][0]["seats"]
    assert len({seat["place"] for seat in first}) == 1  # the whole table shares first place
    assert any(row["shared"] for row in body["results"])
    if tournament.slug == "fours-lzf":
        last = Client().get(f"/api/v1/tournaments/{tournament.slug}/rounds/2").json()
        assert last["tables"][-1]["time_called_after"] == 2
        assert {seat["place_points"] for seat in first} == {"2"}  # 1-4=2, not (6+4+2+0)/4
