"""Anyone re-scores a tournament from the API alone: every confirmed table's sheet through
`python -m engine score`, its places through the engine's `places` with the round's place points
from the API, ranked by the engine in the API's standings order, gives the API's standings."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from django.test import Client

from engine.cli import places_one
from engine.standings import RoundResult, rank_standings
from tests.api.conftest import api_get, api_standings

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent.parent


def engine_scores(sheets: list[dict]) -> list[dict]:
    """`python -m engine score --jsonl`: one sheet a line in, one result a line out."""
    completed = subprocess.run(
        [sys.executable, "-m", "engine", "score", "--jsonl"],
        input="".join(json.dumps(sheet) + "\n" for sheet in sheets),
        cwd=ROOT,
        capture_output=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    return [json.loads(line) for line in completed.stdout.splitlines()]


def engine_places(totals: dict[str, int], rule_set: dict) -> dict:
    """`python -m engine places` for one table, with the round's place points."""
    request = {
        "results": totals,
        "points": rule_set["place_points"],
        "shared": rule_set["shared_place_points"],
    }
    out, err = io.BytesIO(), io.BytesIO()
    assert places_one(json.dumps(request).encode(), out, err) == 0, err.getvalue()
    return json.loads(out.getvalue())


def test_every_table_rescored_by_the_engine_gives_the_apis_standings(proof):
    tournament = api_get(f"/tournaments/{proof.slug}")
    tables, rule_sets = [], {}
    for summary in tournament["rounds"]:
        round_ = Client().get(summary["url"]).json()
        rule_sets[round_["number"]] = round_["rule_set"]
        tables += [Client().get(table["url"]).json() for table in round_["tables"] if table["url"]]
    assert len(tables) == 6  # rounds 1 and 2; round 3 is in play

    results = []
    for table, scored in zip(tables, engine_scores([t["sheet"] for t in tables]), strict=True):
        assert scored == table["scored"]
        players = {player["name"]: str(player["player_id"]) for player in table["players"]}
        places = engine_places(scored["totals"], rule_sets[table["round"]])
        results += [
            RoundResult(
                player=players[name],
                round_number=table["round"],
                game_points=game_points,
                place_points=Fraction(places["place_points"][name]),
                place=int(places["places"][name].split("-")[0]),
            )
            for name, game_points in scored["totals"].items()
        ]
        assert [
            (name, scored["totals"][name], places["place_points"][name])
            for name in scored["totals"]
        ] == [(row["name"], row["game_points"], row["place_points"]) for row in table["results"]]

    standings = api_standings(proof.slug)
    names = {str(row["player_id"]): row["name"] for row in standings["results"]}
    ranked = rank_standings(results, names=names, order=standings["order"])

    assert [
        (row.rank, int(row.player), str(row.place_points), row.game_points, row.wins)
        for row in ranked
    ] == [
        (row["rank"], row["player_id"], row["place_points"], row["game_points"], row["wins"])
        for row in standings["results"]
    ]
    called = [table for table in tables if table["time_called"]]
    assert len(called) == 1 and len(called[0]["sheet"]["deals"]) < 13
