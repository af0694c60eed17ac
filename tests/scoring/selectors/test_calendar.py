"""The calendar's tournaments: every one not finished, soonest first, a level's or a club's."""

from __future__ import annotations

import datetime

import pytest

from scoring.selectors.calendar import calendar_tournaments, club_by_id
from tests.factories import make_club, make_player, make_tournament
from tournaments.models import Level, Registration, Round, RoundStatus

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 12, 5)
DAY = datetime.timedelta(days=1)


def names(**filters) -> list[str]:
    return [tournament.name for tournament in calendar_tournaments(today=TODAY, **filters)]


def test_soonest_first():
    make_tournament(name="Vēlāk", starts_on=TODAY + 9 * DAY)
    make_tournament(name="Drīz", starts_on=TODAY + DAY)
    make_tournament(name="Šodien", starts_on=TODAY)
    assert names() == ["Šodien", "Drīz", "Vēlāk"]


def test_a_tournament_whose_last_day_is_past_is_not_upcoming():
    make_tournament(name="Vakar", starts_on=TODAY - DAY)
    make_tournament(name="Vēl ilgst", starts_on=TODAY - 2 * DAY, ends_on=TODAY)
    assert names() == ["Vēl ilgst"]


def test_a_tournament_with_every_round_closed_is_not_upcoming():
    played = make_tournament(name="Izspēlēts", starts_on=TODAY, rounds_planned=2)
    playing = make_tournament(name="Spēlē", starts_on=TODAY, rounds_planned=2)
    for tournament, statuses in (
        (played, [RoundStatus.CLOSED, RoundStatus.CLOSED]),
        (playing, [RoundStatus.CLOSED, RoundStatus.IN_PLAY]),
    ):
        for number, status in enumerate(statuses, start=1):
            Round.objects.create(tournament=tournament, number=number, status=status)
    assert names() == ["Spēlē"]


def test_a_level():
    make_tournament(name="Kluba", starts_on=TODAY, level=Level.CLUB)
    make_tournament(name="Novada", starts_on=TODAY, level=Level.DISTRICT)
    assert names(level=Level.DISTRICT) == ["Novada"]


def test_a_club_is_the_tournaments_its_players_are_registered_for_once_each():
    ozols, liepa = make_club(), make_club()
    ours = make_tournament(name="Mūsējais", starts_on=TODAY)
    theirs = make_tournament(name="Citu", starts_on=TODAY)
    for _ in range(3):
        Registration.objects.create(tournament=ours, player=make_player(club=ozols))
    Registration.objects.create(tournament=theirs, player=make_player(club=liepa))
    assert names(club_id=ozols.pk) == ["Mūsējais"]


def test_a_club_by_its_id():
    club = make_club()
    assert club_by_id(club.pk) == club
    assert club_by_id(club.pk + 1) is None
