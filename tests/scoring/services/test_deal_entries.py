"""Entering deals and penalty pules at the table: positions, conflicts, resends, the time limit."""

import pytest

from engine import Pass, PenaltyPule
from scoring import services
from scoring.models import DealResult
from scoring.services import ConflictError, KeyReusedError, round_generate_seating
from scoring.sheet.reader import table_sheet
from tests.factories import make_tournament, play_round_with, seat_keys
from tests.scoring.sheet_play import REFEREE, lielais, play_full_round, record
from tournaments.models import AuditRecord, Round, RoundStatus
from tournaments.services import ServiceError

pytestmark = pytest.mark.django_db


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
        audit = AuditRecord.objects.get(action="deal.entered")
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
        assert AuditRecord.objects.filter(action="penalty.given").count() == 1
