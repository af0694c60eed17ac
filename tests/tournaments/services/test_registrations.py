"""Registrations: a player is registered once, a late one plays from his first round, a change
and a withdrawal are in the audit log, and a withdrawal takes back his later check-ins."""

import pytest

from tests.factories import make_organiser, make_player, make_published_round, make_tournament
from tournaments import services
from tournaments.models import AuditRecord, CheckIn, Registration

pytestmark = pytest.mark.django_db


def test_a_player_is_registered_once_however_often_he_is_named():
    tournament = make_tournament()
    players = [make_player(full_name="Jānis Bērziņš"), make_player(full_name="Anna Kalniņa")]
    first = services.registrations_create(tournament=tournament, players=players)
    again = services.registrations_create(tournament=tournament, players=[*players, players[0]])
    assert len(first) == 2 and again == []
    assert tournament.registrations.count() == 2
    logged = AuditRecord.objects.filter(action=AuditRecord.Action.REGISTRATIONS_CREATED)
    assert [line.detail["players"] for line in logged] == [["Jānis Bērziņš", "Anna Kalniņa"]]


def test_a_late_registration_plays_from_the_round_it_is_made_for():
    tournament = make_tournament()
    (late,) = services.registrations_create(
        tournament=tournament, players=[make_player()], first_round=3
    )
    assert Registration.objects.get(pk=late.pk).first_round == 3


def test_a_change_is_logged_before_and_after_and_no_change_is_not_logged():
    tournament = make_tournament()
    (registration,) = services.registrations_create(tournament=tournament, players=[make_player()])
    organiser = make_organiser()
    assert services.registration_update(
        registration=registration, values={"team": "Rīga"}, by=organiser
    )
    assert not services.registration_update(
        registration=registration, values={"team": "Rīga"}, by=organiser
    )
    changed = AuditRecord.objects.filter(action=AuditRecord.Action.REGISTRATION_CHANGED)
    assert [(line.detail["before"], line.detail["after"]) for line in changed] == [
        ({"team": ""}, {"team": "Rīga"})
    ]


def test_a_withdrawal_keeps_the_rounds_played_and_drops_the_later_check_ins():
    round_one = make_published_round(make_tournament(table_size=3), players=9)
    tournament = round_one.tournament
    round_two = tournament.rounds.create(number=2, seating_mode=round_one.seating_mode)
    registration = tournament.registrations.first()
    CheckIn.objects.create(round=round_two, registration=registration)

    services.registration_withdraw(registration=registration, after_round=1, by=None)

    assert Registration.objects.get(pk=registration.pk).withdrawn_after_round == 1
    rounds_checked_in = CheckIn.objects.filter(registration=registration).values_list(
        "round__number", flat=True
    )
    assert list(rounds_checked_in) == [1]
    withdrawn = AuditRecord.objects.get(action=AuditRecord.Action.REGISTRATION_WITHDRAWN)
    assert withdrawn.detail == {"player": registration.player.full_name, "after_round": 1}
