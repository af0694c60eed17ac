"""A round closed once every table is confirmed, and its confirmed results seating the next."""

import pytest

from scoring import services
from scoring.models import SeatResult
from scoring.selectors import standings_before
from tests.factories import deals_on_sheet
from tests.scoring.sheet_play import REFEREE, play_full_round
from tournaments.models import RoundStatus
from tournaments.services import ServiceError, seating_scores

pytestmark = pytest.mark.django_db


class TestRoundWrites:
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
