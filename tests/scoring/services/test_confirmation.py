"""A table's confirmation (its lock, its unlock, its seat results)."""

import ast
import json
from dataclasses import asdict
from fractions import Fraction
from pathlib import Path

import pytest

from archive.export import tournament_archive
from archive.writing import tournament_import
from engine import Pass, score_sheet
from engine.standings import round_results
from engine.statistics import TALLY_FIELDS, SeatTally, seat_tallies
from scoring import services
from scoring.models import SeatResult, TableResult
from scoring.services import LockedError, Writer
from scoring.sheet.reader import table_sheet
from tests.factories import deals_on_sheet, make_organiser, play_round_with, seat_keys
from tests.scoring.sheet_play import REFEREE, lielais, play_full_round, record
from tournaments.models import AuditRecord
from tournaments.services import ServiceError

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]


class TestConfirmation:
    def test_all_deals_must_be_in(self, table_of_three):
        _a, b, _c = seat_keys(table_of_three)
        record(table_of_three, lielais(b), 1)
        confirmer = table_of_three.seats.first().registration
        with pytest.raises(ServiceError, match="1 of 24 deals"):
            services.table_confirm(
                table=table_of_three,
                writer=REFEREE,
                confirmer=confirmer,
                deals_seen=deals_on_sheet(table_of_three),
            )

    def test_a_player_at_the_table_confirms_and_the_table_locks(self, table_of_three):
        play_full_round(table_of_three)
        confirmer = table_of_three.seats.last().registration
        services.table_confirm(
            table=table_of_three,
            writer=REFEREE,
            confirmer=confirmer,
            deals_seen=deals_on_sheet(table_of_three),
        )
        results = {str(r.registration_id): r for r in SeatResult.objects.all()}
        assert sum(r.game_points for r in results.values()) == 0
        assert sum(r.place_points for r in results.values()) == 12  # 6 + 4 + 2
        with pytest.raises(LockedError):
            record(table_of_three, Pass(), 25)

    def test_a_stranger_cannot_confirm(self, table_of_three):
        play_full_round(table_of_three)
        other_table = table_of_three.round.tables.exclude(pk=table_of_three.pk).get()
        stranger = other_table.seats.first().registration
        with pytest.raises(ServiceError, match="a player at this table"):
            services.table_confirm(
                table=table_of_three,
                writer=REFEREE,
                confirmer=stranger,
                deals_seen=deals_on_sheet(table_of_three),
            )
        assert not TableResult.objects.exists()

    def test_only_the_chief_referee_unlocks_and_says_why(self, table_of_three):
        play_full_round(table_of_three)
        chief = make_organiser()
        table_of_three.round.tournament.chief_referees.add(chief)
        services.table_confirm(
            table=table_of_three,
            writer=Writer(user=chief),
            deals_seen=deals_on_sheet(table_of_three),
        )
        with pytest.raises(ServiceError, match="only the chief referee"):
            services.table_unlock(
                table=table_of_three, writer=Writer(user=make_organiser()), reason="x"
            )
        with pytest.raises(ServiceError, match="say why"):
            services.table_unlock(table=table_of_three, writer=Writer(user=chief), reason=" ")
        services.table_unlock(
            table=table_of_three, writer=Writer(user=chief), reason="deal 7 wrong"
        )
        assert not TableResult.objects.exists()
        assert not SeatResult.objects.exists()
        audit = AuditRecord.objects.get(action="table.unlocked")
        assert audit.detail["reason"] == "deal 7 wrong"
        assert sum(audit.detail["before"].values()) == 0

    def test_tied_players_share_place_points_exactly(self, table_of_three):
        play_round_with(table_of_three.round, deals_per_round=3)
        for position in (1, 2, 3):
            record(table_of_three, Pass(), position)
        services.table_confirm(
            table=table_of_three,
            writer=REFEREE,
            confirmer=table_of_three.seats.first().registration,
            deals_seen=deals_on_sheet(table_of_three),
        )
        assert {r.place_points for r in SeatResult.objects.all()} == {Fraction(4)}


def stored_rows(tournament):
    """A tournament's seat results by player name: what the standings and statistics read."""
    return sorted(
        (
            row.registration.player.full_name,
            row.round_number,
            row.game_points,
            row.place_points_twelfths,
            row.place,
            *(getattr(row, name) for name in TALLY_FIELDS),
        )
        for row in SeatResult.objects.filter(registration__tournament=tournament).select_related(
            "registration__player"
        )
    )


class TestSeatResults:
    """A confirmed table's seat results are built by `services.seat_results` alone."""

    def test_each_row_is_the_engine_round_result_in_twelfths(self):
        table_result = TableResult(last_position=0, last_version_id=0)
        tallies = {player: SeatTally(deals=24, lielais_win=int(player)) for player in "789"}
        tallies["10"] = SeatTally(deals=24, passed=3)
        rows = services.seat_results(
            table_result,
            round_results(2, {"7": 10, "8": 10, "9": -20, "10": 0}),
            tallies=tallies,
        )
        assert [
            (r.registration_id, r.round_number, r.game_points, r.place_points_twelfths, r.place)
            for r in rows
        ] == [(7, 2, 10, 60, 1), (8, 2, 10, 60, 1), (9, 2, -20, 0, 4), (10, 2, 0, 24, 3)]
        assert all(r.table_result is table_result for r in rows)
        # Each row carries its player's counts at the table.
        assert [(r.deals, r.lielais_win, r.passed) for r in rows] == [
            (24, 7, 0),
            (24, 8, 0),
            (24, 9, 0),
            (24, 0, 3),
        ]

    def test_a_confirmed_tables_rows_count_its_sheet(self, table_of_three):
        play_full_round(table_of_three)
        services.table_confirm(
            table=table_of_three,
            writer=REFEREE,
            confirmer=table_of_three.seats.first().registration,
            deals_seen=deals_on_sheet(table_of_three),
        )
        rows = SeatResult.objects.filter(table_result__table=table_of_three)
        stored = {str(row.registration_id): row for row in rows}
        expected = seat_tallies(score_sheet(table_sheet(table_id=table_of_three.pk).engine_sheet()))
        for player, tally in expected.items():
            assert {name: getattr(stored[player], name) for name in TALLY_FIELDS} == asdict(tally)
        assert sum(row.deals for row in rows) == 3 * deals_on_sheet(table_of_three)

    def test_an_imported_archive_has_the_confirmed_tables_rows(self, table_of_three):
        play_full_round(table_of_three)
        services.table_confirm(
            table=table_of_three,
            writer=REFEREE,
            confirmer=table_of_three.seats.first().registration,
            deals_seen=deals_on_sheet(table_of_three),
        )
        tournament = table_of_three.round.tournament
        imported = tournament_import(
            json.loads(json.dumps(tournament_archive(tournament))), slug="imported"
        )
        assert len(stored_rows(tournament)) == 3
        assert stored_rows(imported) == stored_rows(tournament)

    def test_no_other_code_builds_a_seat_result(self):
        """The confirmation, the archive's import, the simulation and the ranking's synthetic
        tournaments all call the builder: no other `SeatResult(...)` in the project."""
        builders = []
        for package in ("core", "engine", "ranking", "scoring", "tournaments", "zole_site"):
            for path in sorted((ROOT / package).rglob("*.py")):
                for node in ast.walk(ast.parse(path.read_text())):
                    if (
                        isinstance(node, ast.Call)
                        and isinstance(node.func, ast.Name)
                        and node.func.id == "SeatResult"
                    ):
                        builders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
        assert [place.split(":")[0] for place in builders] == ["scoring/services/confirmation.py"]
