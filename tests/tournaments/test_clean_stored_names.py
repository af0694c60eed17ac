"""The migration that cleans the names stored before every door cleaned them: what shows stays,
the invisible characters go, and no unique name is made to collide."""

from __future__ import annotations

import importlib

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.utils import timezone

from signups.models import SignUp
from tests.factories import make_club, make_player, make_registrations, make_tournament
from tournaments.models import Club, FeeCategory, Player

pytestmark = pytest.mark.django_db

clean_stored_names = importlib.import_module(
    "tournaments.migrations.0024_clean_stored_names"
).clean_stored_names


def models_at_the_migration():
    """The models as the migration saw them (sign-ups were then the tournaments app's): the
    same tables the rows below are written to by today's models."""
    loader = MigrationLoader(connection)
    return loader.project_state(("tournaments", "0024_clean_stored_names")).apps


def test_stored_names_lose_their_invisible_characters_and_odd_spaces():
    player = make_player(
        full_name="\u202eJā\u200bnis  Bērziņš\u202c",
        licence_number="LV\u200b-1",
        club=make_club(name="Rīgas\u00a0Zoles klubs\u2060"),
    )
    (entry,) = make_registrations(make_tournament(), 1)
    entry.team = "Ogres\u2003 komanda"
    entry.save()
    signup = SignUp.objects.create(
        tournament=entry.tournament,
        full_name="Anna\u00ad Ozola",
        club="Ogre\ufeff",
        queued_at=timezone.now(),
    )

    clean_stored_names(models_at_the_migration(), None)

    player.refresh_from_db()
    entry.refresh_from_db()
    signup.refresh_from_db()
    assert (player.full_name, player.licence_number, player.club.name) == (
        "Jānis Bērziņš",
        "LV-1",
        "Rīgas Zoles klubs",
    )
    assert entry.team == "Ogres komanda"
    assert (signup.full_name, signup.club) == ("Anna Ozola", "Ogre")


def test_a_clean_name_another_club_or_category_has_is_left_as_it_was():
    make_club(name="Rīga")
    hidden = make_club(name="Rī\u200bga")
    tournament = make_tournament()
    FeeCategory.objects.create(tournament=tournament, name="Dāmām", amount=10, order=0)
    twin = FeeCategory.objects.create(tournament=tournament, name="Dāmām\u200b", amount=9, order=1)

    clean_stored_names(models_at_the_migration(), None)

    assert Club.objects.get(pk=hidden.pk).name == "Rī\u200bga"
    assert FeeCategory.objects.get(pk=twin.pk).name == "Dāmām\u200b"


def test_a_name_of_invisible_characters_alone_and_a_mixed_word_are_left_alone():
    blank = make_player(full_name="\u200b\u200b")
    mixed = make_player(full_name="Jānis Bērziņš Rīgа")  # a Cyrillic а

    clean_stored_names(models_at_the_migration(), None)

    assert Player.objects.get(pk=blank.pk).full_name == "\u200b\u200b"
    assert Player.objects.get(pk=mixed.pk).full_name == "Jānis Bērziņš Rīgа"
