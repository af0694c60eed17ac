"""The register: a player added or changed, a club added, each in the audit log (which names no
tournament: the register belongs to none)."""

import pytest

from tests.factories import make_organiser, make_player
from tournaments import services
from tournaments.models import AuditRecord, Player

pytestmark = pytest.mark.django_db


def test_a_new_player_is_logged_with_what_was_given():
    organiser = make_organiser()
    player = services.player_save(player=Player(), values={"full_name": "Inese Ēķe"}, by=organiser)
    assert Player.objects.get(pk=player.pk).full_name == "Inese Ēķe"
    line = AuditRecord.objects.get(action=AuditRecord.Action.PLAYER_SAVED)
    assert line.tournament is None and line.user == organiser
    assert line.detail["created"] is True
    assert line.detail["after"] == {"full_name": "Inese Ēķe"}


def test_a_change_logs_only_what_changed_and_saving_the_same_logs_nothing():
    player = make_player(full_name="Jānis Bērziņš")
    services.player_save(player=player, values={"full_name": "Jānis Bērziņš"}, by=None)
    assert not AuditRecord.objects.exists()
    services.player_save(player=player, values={"full_name": "Jānis Bērziņš-Ozols"}, by=None)
    line = AuditRecord.objects.get()
    assert line.detail["before"] == {"full_name": "Jānis Bērziņš"}
    assert line.detail["after"] == {"full_name": "Jānis Bērziņš-Ozols"}


def test_a_club_added_is_logged_with_its_city():
    club = services.club_create(name="Dūzis", city="Valmiera", by=None)
    line = AuditRecord.objects.get(action=AuditRecord.Action.CLUB_ADDED)
    assert (club.name, line.detail) == ("Dūzis", {"club": "Dūzis", "city": "Valmiera"})
