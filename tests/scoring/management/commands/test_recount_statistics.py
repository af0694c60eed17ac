"""`manage.py recount_statistics` counts every confirmed table's deals again: a database whose
seat results carry no counts (from before they were stored) gets the same counts as a
confirmation writes."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from demo.simulation import simulate_tournament
from engine.statistics import TALLY_FIELDS
from scoring.models import SeatResult

pytestmark = pytest.mark.django_db


def stored_counts() -> list[tuple[int, ...]]:
    return list(SeatResult.objects.order_by("pk").values_list(*TALLY_FIELDS))


def test_counts_wiped_are_counted_again_as_the_confirmation_wrote_them():
    simulate_tournament(players=7, rounds=2, deals=9, seed=2)
    confirmed = stored_counts()
    assert any(any(row) for row in confirmed)
    SeatResult.objects.update(**dict.fromkeys(TALLY_FIELDS, 0))
    output = io.StringIO()
    call_command("recount_statistics", stdout=output)
    assert stored_counts() == confirmed
    assert "4 confirmed tables counted" in output.getvalue()
