"""Demo data loading and the player licence-number constraint."""

import pytest
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError

from tournaments.models import Club, Player
from tournaments.services import DEMO_CLUBS, DEMO_PLAYERS, demo_load

pytestmark = pytest.mark.django_db


def test_demo_load_is_idempotent():
    first = demo_load()
    counts_after_first = (Club.objects.count(), Player.objects.count())

    second = demo_load()

    assert first == {"clubs": len(DEMO_CLUBS), "players": len(DEMO_PLAYERS)}
    assert second == {"clubs": 0, "players": 0}
    assert (Club.objects.count(), Player.objects.count()) == counts_after_first
    assert counts_after_first == (4, 12)


def test_demo_players_are_spread_over_every_club():
    demo_load()

    for club in Club.objects.all():
        assert club.players.count() == 3


def test_licence_number_is_unique_when_set():
    Player.objects.create(full_name="Jānis Bērziņš", licence_number="LV-0001")

    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(full_name="Anna Ozoliņa", licence_number="LV-0001")

    assert Player.objects.filter(licence_number="LV-0001").count() == 1


def test_many_players_may_have_no_licence_number():
    for full_name in ["Līga Liepiņa", "Ģirts Šteins", "Ērika Žagare"]:
        Player.objects.create(full_name=full_name, licence_number="")

    assert Player.objects.filter(licence_number="").count() == 3


def test_club_with_players_cannot_be_deleted():
    club = Club.objects.create(name="Cēsu Pule", city="Cēsis")
    Player.objects.create(full_name="Dace Krūmiņa", club=club)

    with pytest.raises(ProtectedError):
        club.delete()
