"""`manage.py export_tournament`: the archive re-scores, table by table, to the stored results."""

import io
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from archive.export import tournament_archive
from demo.simulation import simulate_tournament
from engine import PlaceScheme, Play, rank_standings, round_results
from engine.json_contract import score_json
from engine.rules import Game
from scoring import services
from scoring.models import SeatResult
from scoring.selectors import tournament_standings
from scoring.services import Writer
from tests.factories import (
    deals_on_sheet,
    make_player,
    make_published_round,
    make_registrations,
    make_tournament,
)
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

RULE_SETS = {
    "pules": {"all_pass": "pule", "small_zole": False},
    "galdins and mazā zole": {"all_pass": "galdins", "small_zole": True},
}


def simulated(rule_set: str = "pules") -> Tournament:
    # 10 players: a table of 4 and two of 3 every round.
    return simulate_tournament(players=10, rounds=2, deals=8, seed=13, **RULE_SETS[rule_set])


@pytest.fixture(params=list(RULE_SETS))
def tournament(request) -> Tournament:
    return simulated(request.param)


@pytest.fixture
def pule_tournament() -> Tournament:
    return simulated()


def export(slug: str, *arguments: str) -> str:
    out = io.StringIO()
    call_command("export_tournament", slug, *arguments, stdout=out)
    return out.getvalue()


def stored_totals(table: dict) -> dict[str, int]:
    """The table's confirmed game points from the database, by the archive's names."""
    names = {player["entry"]: player["name"] for player in table["players"]}
    rows = SeatResult.objects.filter(
        table_result__table__round__number=table["round"],
        table_result__table__number=table["number"],
        registration_id__in=names,
    ).values_list("registration_id", "game_points")
    return {names[registration_id]: game_points for registration_id, game_points in rows}


def archive_tables(archive: dict) -> list[dict]:
    return [
        {**table, "round": round_["number"]}
        for round_ in archive["rounds"]
        for table in round_["tables"]
    ]


class TestRoundTrip:
    def test_every_sheet_rescores_to_the_stored_game_points(self, tournament):
        archive = json.loads(export(tournament.slug))
        tables = archive_tables(archive)
        assert len(tables) == 2 * 3
        for table in tables:
            assert table["confirmed"] and table["sheet"]["closed"]
            assert table["sheet"]["players"] == [player["name"] for player in table["players"]]
            assert table["sheet"]["first_dealer"] == table["first_dealer"]
            rescored = score_json(table["sheet"])["totals"]
            assert rescored == table["totals"] == stored_totals(table)

    def test_a_sheet_rescores_with_the_engines_command_line(self, tournament):
        archive = json.loads(export(tournament.slug))
        table = next(t for t in archive_tables(archive) if len(t["players"]) == 4)
        finished = subprocess.run(
            [sys.executable, "-m", "engine", "score", "-"],
            input=json.dumps(table["sheet"], ensure_ascii=False).encode(),
            capture_output=True,
            cwd=settings.BASE_DIR,
            check=True,
        )
        assert json.loads(finished.stdout)["totals"] == table["totals"] == stored_totals(table)

    def test_standings_from_the_archive_equal_the_stored_standings(self, tournament):
        archive = json.loads(export(tournament.slug))
        settings_ = archive["tournament"]
        scheme = PlaceScheme.from_text(
            settings_["place_points_three"], settings_["place_points_four"]
        )
        results = []
        for table in archive_tables(archive):
            entry_of = {player["name"]: str(player["entry"]) for player in table["players"]}
            totals = {entry_of[name]: points for name, points in table["totals"].items()}
            results += round_results(table["round"], totals, scheme)
        from_archive = rank_standings(
            results,
            players=[str(entry["id"]) for entry in archive["entries"]],
            order=settings_["standings_order"].split(","),
        )
        stored = tournament_standings(tournament=tournament).rows
        assert [(int(s.player), s.rank, s.place_points, s.game_points) for s in from_archive] == [
            (row.registration_id, row.rank, row.place_points, row.game_points) for row in stored
        ]

    def test_each_tables_results_are_the_stored_seat_results(self, tournament):
        archive = json.loads(export(tournament.slug))
        for table in archive_tables(archive):
            for result in table["results"]:
                stored = SeatResult.objects.get(
                    registration_id=result["entry"], round_number=table["round"]
                )
                assert (
                    result["game_points"],
                    Fraction(result["place_points"]),
                    result["place"],
                ) == (
                    stored.game_points,
                    stored.place_points,
                    stored.place,
                )

    def test_the_sheet_holds_the_corrected_deals_and_the_penalty(self):
        tournament = simulate_tournament(players=9, rounds=2, deals=6, seed=13)
        archive = json.loads(export(tournament.slug))
        deals = [deal for table in archive_tables(archive) for deal in table["sheet"]["deals"]]
        assert len([deal for deal in deals if "penalty" in deal]) == 1
        assert len([deal for deal in deals if "game" in deal]) == 3 * 2 * 6  # corrections: once


class TestDocument:
    def test_settings_players_and_entries(self, pule_tournament):
        archive = json.loads(export(pule_tournament.slug))
        assert archive["format"] == "zole-tournament-archive"
        settings_ = archive["tournament"]
        assert settings_["slug"] == pule_tournament.slug
        assert settings_["deals_per_round"] == 8
        assert settings_["all_pass"] == pule_tournament.all_pass
        assert settings_["starts_on"] == pule_tournament.starts_on.isoformat()
        for option in ("personal_pule_payment", "standings_order", "later_rounds_seating"):
            assert settings_[option] == getattr(pule_tournament, option)
        assert archive["rules"]["small_zole"] == pule_tournament.small_zole
        assert len(archive["players"]) == len(archive["entries"]) == 10
        clubs = {club["name"] for club in archive["clubs"]}
        assert {p["club"] for p in archive["players"]} - {None} <= clubs
        assert all(player["licence"].startswith("LV-") for player in archive["players"])
        entry = archive["entries"][0]
        assert set(entry) == {
            "id",
            "player",
            "name",
            "team",
            "first_round",
            "withdrawn_after_round",
            "fixed_table",
            "registered_at",
            "fee_category",
            "fee_paid_at",
            "fee_paid_to",
        }
        round_ = archive["rounds"][1]
        assert (round_["number"], round_["status"], round_["seating_mode"]) == (
            2,
            "closed",
            "swiss",
        )
        assert round_["seed"] == pule_tournament.rounds.get(number=2).seed

    def test_latvian_letters_are_written_as_letters(self, pule_tournament):
        text = export(pule_tournament.slug)
        assert "simulācija" in text
        assert "\\u" not in text
        assert text.startswith("{\n  ")  # indented

    def test_output_writes_the_file_in_utf8(self, pule_tournament, tmp_path: Path):
        target = tmp_path / "archive.json"
        assert export(pule_tournament.slug, "--output", str(target)) == ""
        archive = json.loads(target.read_text(encoding="utf-8"))
        assert archive["tournament"]["slug"] == pule_tournament.slug
        assert "simulācija" in target.read_bytes().decode("utf-8")

    def test_an_unwritable_output_is_a_clear_error(self, tmp_path: Path):
        tournament = make_tournament()
        with pytest.raises(CommandError, match="cannot write"):
            export(tournament.slug, "--output", str(tmp_path / "missing" / "archive.json"))

    def test_an_unknown_slug_is_a_command_error(self):
        with pytest.raises(CommandError, match='no tournament with the slug "nav-tada"'):
            export("nav-tada")

    def test_the_number_of_queries_does_not_grow_with_the_tournament(self):
        small = simulate_tournament(players=6, rounds=1, deals=3, seed=1)
        large = simulate_tournament(players=31, rounds=3, deals=12, seed=2, fast=True)
        counts = []
        for tournament in (small, large):
            with CaptureQueriesContext(connection) as queries:
                tournament_archive(tournament)
            counts.append(len(queries))
        # The entries, signups, rounds with check-ins, check-outs, tables with seats, deal
        # versions, confirmations, late players, referee calls, audit, roles, fee categories.
        assert counts[0] == counts[1] <= 12


class TestTablesInPlay:
    def test_an_unconfirmed_table_is_open_and_has_no_totals(self):
        round_ = make_published_round(players=7)
        table = round_.tables.get(number=2)
        keys = [str(seat.registration_id) for seat in table.seats.order_by("position")]
        services.deal_record(
            table=table,
            entry=Play(Game.LIELAIS, keys[1], tricks=5, points=75),
            position=1,
            client_key="k1",
            writer=Writer(),
        )
        archive = tournament_archive(round_.tournament)
        sheet_table = next(t for t in archive["rounds"][0]["tables"] if t["number"] == 2)
        assert (sheet_table["confirmed"], sheet_table["totals"], sheet_table["results"]) == (
            False,
            None,
            None,
        )
        assert sheet_table["sheet"]["closed"] is False
        assert len(sheet_table["sheet"]["deals"]) == 1
        assert archive["rounds"][0]["status"] == "in_play"
        rescored = score_json(sheet_table["sheet"])["totals"]
        assert sum(rescored.values()) == 0

    def test_namesakes_at_one_table_are_told_apart(self):
        tournament = make_tournament(deals_per_round=3)
        for licence in ("LV-000001", ""):
            tournament.registrations.create(
                player=make_player(full_name="Jānis Bērziņš", licence_number=licence)
            )
        make_registrations(tournament, 1)
        round_ = make_published_round(tournament)
        table = round_.tables.get()
        keys = [str(seat.registration_id) for seat in table.seats.order_by("position")]
        for position in (1, 2, 3):
            declarer = keys[position % 3]
            services.deal_record(
                table=table,
                entry=Play(Game.LIELAIS, declarer, tricks=6, points=80),
                position=position,
                client_key=f"k{position}",
                writer=Writer(),
            )
        services.table_confirm(
            table=table,
            writer=Writer(),
            confirmer=table.seats.first().registration,
            deals_seen=deals_on_sheet(table),
        )
        archive = tournament_archive(tournament)
        sheet_table = archive["rounds"][0]["tables"][0]
        names = sheet_table["sheet"]["players"]
        assert len(set(names)) == 3
        assert "Jānis Bērziņš (LV-000001)" in names
        assert any(name.startswith("Jānis Bērziņš (#") for name in names)
        assert score_json(sheet_table["sheet"])["totals"] == sheet_table["totals"]
