"""Who holds which role, and what each account organises or referees."""

import pytest
from django.utils import translation

from accounts import selectors
from tests.factories import make_published_round, make_tournament, make_user
from tournaments.models import Role, RoundStatus

pytestmark = pytest.mark.django_db


def test_the_holders_of_a_role_read_in_the_readers_order_of_their_usernames():
    tournament = make_tournament()
    for username in ("zane", "Ābele", "anna"):
        tournament.chief_referees.add(make_user(username=username))

    def usernames() -> list[str]:
        holders = selectors.role_holders(tournament=tournament, role=Role.CHIEF_REFEREE)
        return [user.username for user in holders]

    with translation.override("lv"):
        assert usernames() == ["anna", "Ābele", "zane"]  # ā is a letter of its own, after a
    with translation.override("en"):
        assert usernames() == ["Ābele", "anna", "zane"]


def test_a_tournaments_people_are_listed_under_each_role_even_when_none_holds_it():
    tournament = make_tournament()
    organiser = make_user()
    tournament.organisers.add(organiser)

    people = selectors.tournament_people(tournament=tournament)

    assert people == {Role.ORGANISER: [organiser], Role.CHIEF_REFEREE: [], Role.REFEREE: []}


def test_a_chief_referee_who_also_organises_finds_the_tournament_among_those_he_organises():
    both, chief = make_user(), make_user()
    tournament = make_tournament()
    tournament.organisers.add(both)
    tournament.chief_referees.add(both, chief)

    assert list(selectors.organised_tournaments(user=both)) == [tournament]
    assert list(selectors.chief_refereed_tournaments(user=both)) == []
    assert list(selectors.chief_refereed_tournaments(user=chief)) == [tournament]


def test_a_referee_writes_his_tables_and_a_chief_referee_all_while_the_round_is_played():
    round_ = make_published_round(players=7)
    first, second = round_.tables.order_by("number")
    referee, chief = make_user(), make_user()
    first.referees.add(referee)
    round_.tournament.chief_referees.add(chief)

    assert selectors.refereed_tables(user=referee) == [first]
    assert selectors.refereed_tables(user=chief) == [first, second]
    assert selectors.round_referee_assignments(round_=round_) == [
        (first, [referee.pk]),
        (second, []),
    ]

    round_.status = RoundStatus.CLOSED
    round_.save()
    assert selectors.refereed_tables(user=referee) == []
