"""The player licence-number constraint, and the organisers' accounts."""

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError

from accounts.services.organisers import organiser_account_create
from tournaments.models import Club, Player
from tournaments.services import ServiceError

pytestmark = pytest.mark.django_db


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


class TestOrganiserAccountName:
    """The staff account's username: cleaned as names are, one alphabet a word, a valid
    username."""

    def test_a_hidden_letter_is_no_second_account(self):
        organiser_account_create(username="organiser")
        account = organiser_account_create(username="orga\u200bniser\u2060")
        assert account.username == "organiser" and account.password is None
        assert User.objects.count() == 1

    def test_the_staff_imports_hidden_override_is_refused_as_no_username(self):
        # Cleaned it is "Zwsp evil": a space is no letter of a username.
        with pytest.raises(ServiceError, match="valid username"):
            organiser_account_create(username="Zw\u200bsp \u202eevil")
        assert not User.objects.exists()

    def test_a_word_of_two_alphabets_is_refused_naming_the_field(self):
        with pytest.raises(ServiceError, match="Username: the word “оrganiser” mixes"):
            organiser_account_create(username="оrganiser")  # a Cyrillic о
        assert not User.objects.exists()
