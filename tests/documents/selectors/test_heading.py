"""The heading every printed document opens with: the event's name and venue, its dates (one day,
or the first and last joined by a dash), and the variant its level prints in."""

from __future__ import annotations

import datetime

import pytest
from django.utils import translation
from django.utils.formats import date_format

from documents.selectors import event_info
from tests.factories import make_tournament
from tournaments.models import Level

pytestmark = pytest.mark.django_db

FIRST_DAY = datetime.date(2026, 12, 5)
LAST_DAY = datetime.date(2026, 12, 6)


def test_the_heading_names_the_event_and_its_venue():
    tournament = make_tournament(name="Rīgas kauss", venue="Rīga, Kaļķu iela 1")

    heading = event_info(tournament)

    assert (heading.name, heading.venue) == ("Rīgas kauss", "Rīga, Kaļķu iela 1")


@pytest.mark.parametrize("ends_on", [None, FIRST_DAY], ids=["no last day", "the same day"])
def test_an_event_of_one_day_is_dated_by_that_day(ends_on):
    tournament = make_tournament(starts_on=FIRST_DAY, ends_on=ends_on)

    with translation.override("en"):
        assert event_info(tournament).dates == date_format(FIRST_DAY, "DATE_FORMAT")


def test_an_event_of_several_days_is_dated_from_its_first_to_its_last():
    tournament = make_tournament(starts_on=FIRST_DAY, ends_on=LAST_DAY)

    with translation.override("en"):
        first, last = (date_format(day, "DATE_FORMAT") for day in (FIRST_DAY, LAST_DAY))
        assert event_info(tournament).dates == f"{first} – {last}"


@pytest.mark.parametrize(
    ("level", "control_totals"),
    [(Level.CLUB, False), (Level.DISTRICT, False), (Level.NATIONAL, True)],
)
def test_only_a_national_event_prints_the_control_totals(level, control_totals):
    tournament = make_tournament(level=level)

    assert event_info(tournament).variant.control_totals is control_totals
