"""Scoring services: entering deals at the table, corrections, conflicts, confirmation, unlock."""

import ast
import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest

from archive.export import tournament_archive
from archive.writing import tournament_import
from engine import Pass, PenaltyPule, Play, dealer_for
from engine.rules import Game
from engine.standings import round_results
from scoring import services
from scoring.models import DealResult, SeatResult, TableResult
from scoring.selectors import standings_before
from scoring.services import (
    ConflictError,
    KeyReusedError,
    LockedError,
    Writer,
    round_generate_seating,
)
from scoring.sheet.reader import table_sheet
from tests.factories import (
    deals_on_sheet,
    make_organiser,
    make_tournament,
    play_round_with,
    seat_keys,
)
from tournaments.models import AuditEntry, Round, RoundStatus
from tournaments.services import ServiceError, seating_scores

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
keys = (f"key-{number}" for number in itertools.count())
REFEREE = Writer(ip_address="10.0.0.7")


def lielais(declarer, points=75, tricks=5):
    return Play(Game.LIELAIS, declarer, tricks=tricks, points=points)


def record(table, entry, position, writer=REFEREE):
    return services.deal_record(
        table=table, entry=entry, position=position, client_key=next(keys), writer=writer
    )


def play_full_round(table, deals=24):
    """Every deal a won Lielais of a player who is not dealing."""
    players = seat_keys(table)
    for index in range(deals):
        dealer = dealer_for(players, players[0], index)
        declarer = next(p for p in players if p != dealer)
        record(table, lielais(declarer), index + 1)


class TestEnteringDeals:
    def test_a_deal_is_stored_and_the_round_is_in_play(self, table_of_three):
        _a, b, _c = seat_keys(table_of_three)
        result = record(table_of_three, lielais(b), 1)
        assert (result.position, result.version, result.kind, result.game) == (
            1,
            1,
            "play",
            "lielais",
        )
        table_of_three.round.refresh_from_db()
        assert table_of_three.round.status == RoundStatus.IN_PLAY
        audit = AuditEntry.objects.get(action="deal.entered")
        assert audit.ip_address == "10.0.0.7"
        assert audit.detail["after"]["points"] == 75

    def test_a_bad_deal_is_refused_with_the_engines_message_and_nothing_is_saved(
        self, table_of_three
    ):
        _a, b, c = seat_keys(table_of_three)
        record(table_of_three, lielais(b), 1)
        with pytest.raises(ServiceError, match="deal 2: points must be 0-120, got 130"):
            record(table_of_three, lielais(c, points=130), 2)
        assert DealResult.objects.count() == 1

    def test_the_sitting_out_dealer_cannot_declare(self, table_of_four):
        dealer = seat_keys(table_of_four)[0]
        with pytest.raises(ServiceError, match="sits it out"):
            record(table_of_four, lielais(dealer), 1)

    def test_the_same_client_key_records_once(self, table_of_three):
        _a, b, _c = seat_keys(table_of_three)
        first = services.deal_record(
            table=table_of_three, entry=lielais(b), position=1, client_key="tap", writer=REFEREE
        )
        again = services.deal_record(
            table=table_of_three, entry=lielais(b), position=1, client_key="tap", writer=REFEREE
        )
        assert first.pk == again.pk
        assert DealResult.objects.count() == 1

    def test_another_entry_under_a_used_client_key_is_a_conflict_and_writes_nothing(
        self, table_of_three
    ):
        _a, b, c = seat_keys(table_of_three)
        record = {"table": table_of_three, "client_key": "tap", "writer": REFEREE}
        services.deal_record(entry=lielais(b), position=1, **record)
        for entry, position in ((lielais(c), 1), (lielais(b), 2), (PenaltyPule(b), 1)):
            with pytest.raises(KeyReusedError, match="key of entry 1 of table 1") as refused:
                services.deal_record(entry=entry, position=position, **record)
            assert refused.value.position == 1
        assert DealResult.objects.count() == 1

    def test_a_correction_resent_with_another_reason_is_no_resend(self, table_of_three):
        _a, b, c = seat_keys(table_of_three)
        services.deal_record(
            table=table_of_three, entry=lielais(b), position=1, client_key="d", writer=REFEREE
        )
        correct = {"table": table_of_three, "position": 1, "base_version": 1, "writer": REFEREE}
        services.deal_correct(entry=lielais(c), client_key="fix", reason="C played", **correct)
        services.deal_correct(entry=lielais(c), client_key="fix", reason="C played", **correct)
        with pytest.raises(KeyReusedError):
            services.deal_correct(entry=lielais(c), client_key="fix", reason="typo", **correct)
        with pytest.raises(KeyReusedError):
            services.deal_correct(entry=None, client_key="fix", reason="C played", **correct)
        assert DealResult.objects.count() == 2

    def test_an_entry_beyond_the_next_is_refused_as_a_gap(self, table_of_three):
        _a, b, _c = seat_keys(table_of_three)
        with pytest.raises(
            ServiceError,
            match="entry 1 is the next on the sheet of table 1: entries 1-2 are missing",
        ):
            record(table_of_three, lielais(b), 3)
        with pytest.raises(
            ServiceError, match=r"entry 2 was sent, but entry 1 is the next .*: entry 1 is missing"
        ):
            record(table_of_three, lielais(b), 2)
        assert not DealResult.objects.exists()

    def test_the_write_hands_back_the_sheet_as_a_read_after_it_finds_it(self, table_of_three):
        """deal_record_on_sheet: the sheet it read under the lock with the new entry, its
        versions in the order the sheet reads them and scored as a read scores them, after a
        removal and for a resent request alike."""
        a, b, c = seat_keys(table_of_three)
        record(table_of_three, lielais(b), 1)
        record(table_of_three, lielais(c), 2)
        services.deal_correct(
            table=table_of_three,
            position=2,
            entry=None,
            base_version=1,
            client_key="gone",
            reason="typed twice",
            writer=REFEREE,
        )

        def on_sheet(client_key):
            return services.deal_record_on_sheet(
                table=table_of_three,
                entry=lielais(a),
                position=2,
                client_key=client_key,
                writer=REFEREE,
            )

        recorded = on_sheet("again")
        stored = list(DealResult.objects.order_by("position", "version"))
        assert list(recorded.sheet.results) == stored and stored[-1] == recorded.result
        read = table_sheet(table_id=table_of_three.pk)
        assert recorded.sheet.rows == read.rows and recorded.sheet.totals == read.totals
        assert recorded.sheet.last_result_id == read.last_result_id == recorded.result.pk
        replayed = on_sheet("again")
        assert replayed.result == recorded.result and list(replayed.sheet.results) == stored

    def test_the_first_deal_hands_back_a_sheet_of_a_round_in_play(self, table_of_three):
        assert table_of_three.round.status == RoundStatus.PUBLISHED
        recorded = services.deal_record_on_sheet(
            table=table_of_three,
            entry=lielais(seat_keys(table_of_three)[1]),
            position=1,
            client_key="first",
            writer=REFEREE,
        )
        assert recorded.sheet.round.status == RoundStatus.IN_PLAY
        assert Round.objects.get(pk=table_of_three.round_id).status == RoundStatus.IN_PLAY

    def test_a_second_device_writing_the_same_deal_gets_a_conflict(self, table_of_three):
        _a, b, c = seat_keys(table_of_three)
        record(table_of_three, lielais(b), 1)
        with pytest.raises(ConflictError, match="already has entry 1"):
            record(table_of_three, lielais(c), 1)
        assert DealResult.objects.get().player_id == int(b)

    def test_no_more_deals_than_the_round_has(self, table_of_three):
        play_round_with(table_of_three.round, deals_per_round=3)
        play_full_round(table_of_three, deals=3)
        with pytest.raises(ServiceError, match="all 3 deals"):
            record(table_of_three, Pass(), 4)

    def test_a_draft_round_takes_no_deals(self):
        tournament = make_tournament()
        from tests.factories import make_registrations
        from tournaments import services as tournament_services

        make_registrations(tournament, 3)
        round_ = tournament_services.round_create(tournament=tournament)
        round_generate_seating(round_=round_, seed=1, by=None)
        with pytest.raises(ServiceError, match="draft"):
            record(round_.tables.get(), Pass(), 1)

    def test_a_penalty_pule_uses_no_deal(self, table_of_three):
        a, b, _c = seat_keys(table_of_three)
        record(table_of_three, PenaltyPule(a), 1)
        record(table_of_three, lielais(b), 2)
        assert AuditEntry.objects.filter(action="penalty.given").count() == 1


class TestCorrections:
    def test_a_correction_is_a_new_version_and_the_old_one_is_kept(self, table_of_three):
        _a, b, _c = seat_keys(table_of_three)
        record(table_of_three, lielais(b), 1)
        services.deal_correct(
            table=table_of_three,
            position=1,
            entry=lielais(b, points=95, tricks=6),
            base_version=1,
            client_key="fix-1",
            reason="95, not 75",
            writer=REFEREE,
        )
        versions = list(DealResult.objects.order_by("version").values_list("version", "points"))
        assert versions == [(1, 75), (2, 95)]
        audit = AuditEntry.objects.get(action="deal.corrected")
        assert (audit.detail["before"]["points"], audit.detail["after"]["points"]) == (75, 95)
        assert audit.detail["reason"] == "95, not 75"

    def test_correcting_an_outdated_version_is_a_conflict(self, table_of_three):
        a, b, c = seat_keys(table_of_three)
        record(table_of_three, lielais(b), 1)
        correct = {"table": table_of_three, "position": 1, "reason": "", "writer": REFEREE}
        services.deal_correct(entry=lielais(c), base_version=1, client_key="one", **correct)
        with pytest.raises(ConflictError):
            services.deal_correct(entry=lielais(a), base_version=1, client_key="two", **correct)

    def test_a_correction_that_breaks_a_later_deal_is_refused(self, table_of_four):
        players = seat_keys(table_of_four)
        # Deal 2 is dealt by the second player; the first player declares it.
        record(table_of_four, lielais(players[1]), 1)
        record(table_of_four, lielais(players[0]), 2)
        # Making the whole sheet shorter is impossible; re-declaring deal 1 by its dealer is not.
        with pytest.raises(ServiceError, match="deal 1: declarer"):
            services.deal_correct(
                table=table_of_four,
                position=1,
                entry=lielais(players[0]),
                base_version=1,
                client_key="k",
                reason="",
                writer=REFEREE,
            )

    def test_only_the_last_entry_can_be_removed(self, table_of_three):
        a, b, c = seat_keys(table_of_three)
        record(table_of_three, lielais(b), 1)
        record(table_of_three, lielais(c), 2)
        remove = {
            "table": table_of_three,
            "entry": None,
            "reason": "typed twice",
            "writer": REFEREE,
        }
        with pytest.raises(ServiceError, match="only the last entry"):
            services.deal_correct(position=1, base_version=1, client_key="r1", **remove)
        services.deal_correct(position=2, base_version=1, client_key="r2", **remove)
        record(table_of_three, lielais(a), 2)
        assert list(DealResult.objects.filter(position=2).values_list("version", "kind")) == [
            (1, "play"),
            (2, "void"),
            (3, "play"),
        ]


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
        audit = AuditEntry.objects.get(action="table.unlocked")
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

    def test_a_round_closes_when_every_table_is_confirmed(self, table_of_three):
        round_ = table_of_three.round
        with pytest.raises(ServiceError, match="not confirmed"):
            services.round_close(round_=round_, writer=REFEREE)
        for table in round_.tables.all():
            play_full_round(table)
            services.table_confirm(
                table=table,
                writer=REFEREE,
                confirmer=table.seats.first().registration,
                deals_seen=deals_on_sheet(table),
            )
        services.round_close(round_=round_, writer=REFEREE)
        round_.refresh_from_db()
        assert round_.status == RoundStatus.CLOSED

    def test_confirmed_results_order_the_next_swiss_round(self, table_of_three):
        round_ = table_of_three.round
        for table in round_.tables.all():
            play_full_round(table)
            services.table_confirm(
                table=table,
                writer=REFEREE,
                confirmer=table.seats.first().registration,
                deals_seen=deals_on_sheet(table),
            )
        scores = seating_scores(standings_before(tournament=round_.tournament, before_round=2))
        best = SeatResult.objects.order_by("-place_points_twelfths", "-game_points").first()
        assert scores[best.registration_id] == max(scores.values())
        assert len(scores) == 6


def stored_rows(tournament):
    """A tournament's seat results by player name: what the standings read."""
    return sorted(
        (
            row.registration.player.full_name,
            row.round_number,
            row.game_points,
            row.place_points_twelfths,
            row.place,
        )
        for row in SeatResult.objects.filter(registration__tournament=tournament).select_related(
            "registration__player"
        )
    )


class TestSeatResults:
    """A confirmed table's seat results are built by `services.seat_results` alone."""

    def test_each_row_is_the_engine_round_result_in_twelfths(self):
        table_result = TableResult(last_position=0, last_version_id=0)
        rows = services.seat_results(
            table_result, round_results(2, {"7": 10, "8": 10, "9": -20, "10": 0})
        )
        assert [
            (r.registration_id, r.round_number, r.game_points, r.place_points_twelfths, r.place)
            for r in rows
        ] == [(7, 2, 10, 60, 1), (8, 2, 10, 60, 1), (9, 2, -20, 0, 4), (10, 2, 0, 24, 3)]
        assert all(r.table_result is table_result for r in rows)

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
        assert [place.split(":")[0] for place in builders] == ["scoring/services.py"]
