"""Corrections and removals: a new version of an entry, the earlier ones kept, conflicts."""

import pytest

from scoring import services
from scoring.models import DealResult
from scoring.services import ConflictError
from tests.factories import seat_keys
from tests.scoring.sheet_play import REFEREE, lielais, record
from tournaments.models import AuditRecord
from tournaments.services import ServiceError

pytestmark = pytest.mark.django_db


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
        audit = AuditRecord.objects.get(action="deal.corrected")
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
