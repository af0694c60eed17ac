"""The organiser's forms that take a name (a player, a club, a team, a fee category): what is
typed is stored cleaned, a word of two alphabets is refused naming the field, and a name that
reads as one the register has is that one."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from organise.forms.fees import FeeCategoryForm
from organise.forms.register import ClubForm, PlayerForm
from organise.forms.registrations import RegistrationForm
from tests.factories import make_club, make_registrations, make_tournament
from tests.hostile import hidden_variants
from tournaments.models import Club

pytestmark = pytest.mark.django_db

MIXED = "the word “%s” mixes %s letters; type it again in one alphabet"
NAME_SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


class TestPlayerForm:
    @NAME_SETTINGS
    @given(name=hidden_variants("Jānis Bērziņš"), licence=hidden_variants("LV-7"))
    def test_an_invisible_variant_is_stored_as_the_name_itself(self, name, licence):
        form = PlayerForm({"full_name": name, "licence_number": licence, "is_active": "on"})
        assert form.is_valid(), form.errors
        assert form.cleaned_data["full_name"] == "Jānis Bērziņš"
        assert form.cleaned_data["licence_number"] == "LV-7"

    def test_the_staff_imports_hidden_override_is_cleaned(self):
        form = PlayerForm({"full_name": "Zw\u200bsp \u202eevil", "is_active": "on"})
        assert form.is_valid(), form.errors
        assert form.cleaned_data["full_name"] == "Zwsp evil"

    @pytest.mark.parametrize(
        ("name", "word", "alphabets"),
        [
            ("Jānis Bērziņš Rīgа", "Rīgа", "Latin and Cyrillic"),  # a Cyrillic а
            ("Jānis Bērziņš Zοles", "Zοles", "Latin and Greek"),  # a Greek ο
            ("Иван Пeтров", "Пeтров", "Cyrillic and Latin"),  # a Latin e
        ],
    )
    def test_a_word_of_two_alphabets_is_refused_naming_the_field(self, name, word, alphabets):
        form = PlayerForm({"full_name": name, "is_active": "on"})
        assert form.errors["full_name"] == [f"Full name: {MIXED % (word, alphabets)}"]

    def test_a_cyrillic_name_is_taken(self):
        form = PlayerForm({"full_name": "Иван Петров", "is_active": "on"})
        assert form.is_valid(), form.errors


class TestClubForm:
    @NAME_SETTINGS
    @given(name=hidden_variants("Rīgas Zoles klubs"))
    def test_a_variant_of_a_club_of_the_register_is_refused(self, name):
        Club.objects.get_or_create(name="Rīgas Zoles klubs")
        form = ClubForm({"name": name, "city": "Rīga"})
        assert not form.is_valid()
        assert form.errors["name"]

    @pytest.mark.parametrize("name", ["rīgas zoles klubs", "Rigas Zoles Klubs"])
    def test_a_club_that_reads_as_one_of_the_register_is_refused_naming_it(self, name):
        make_club(name="Rīgas Zoles klubs")
        form = ClubForm({"name": name})
        assert not form.is_valid()
        assert any("Rīgas Zoles klubs" in error for error in form.errors["name"])

    def test_a_stored_club_with_a_look_alike_letter_is_found_too(self):
        make_club(name="Rīgа")  # a Cyrillic а, stored before names were checked
        assert not ClubForm({"name": "Rīga"}).is_valid()

    def test_a_word_of_two_alphabets_is_refused_naming_the_field(self):
        form = ClubForm({"name": "Cēsu Pulе"})  # a Cyrillic е
        assert form.errors["name"] == [f"Club: {MIXED % ('Pulе', 'Latin and Cyrillic')}"]

    def test_a_new_club_is_stored_cleaned(self):
        form = ClubForm({"name": "Ogres\u00a0\u200bKārts", "city": ""})
        assert form.is_valid(), form.errors
        assert form.cleaned_data["name"] == "Ogres Kārts"


class TestRegistrationForm:
    @pytest.fixture
    def entries(self):
        return make_registrations(make_tournament(), 2)

    @NAME_SETTINGS
    @given(team=st.one_of(hidden_variants("Rīgas Dūži"), st.just("rīgas dūži")))
    def test_a_team_that_reads_as_the_tournaments_is_that_team(self, entries, team):
        first, second = entries
        first.team = "Rīgas Dūži"
        first.save()
        form = RegistrationForm({"team": team, "first_round": 1}, instance=second)
        assert form.is_valid(), form.errors
        assert form.cleaned_data["team"] == "Rīgas Dūži"

    def test_a_team_of_two_alphabets_is_refused_naming_the_field(self, entries):
        form = RegistrationForm({"team": "Rīgаs Dūži", "first_round": 1}, instance=entries[0])
        assert form.errors["team"] == [f"Team: {MIXED % ('Rīgаs', 'Latin and Cyrillic')}"]


class TestFeeCategoryForm:
    def test_a_name_is_stored_cleaned(self):
        form = FeeCategoryForm({"name": "\u200bDāmām\u00a0 ", "amount": "10"})
        assert form.is_valid(), form.errors
        assert form.cleaned_data["name"] == "Dāmām"

    def test_a_name_of_two_alphabets_is_refused_naming_the_field(self):
        form = FeeCategoryForm({"name": "Skоlēniem", "amount": "5"})  # a Cyrillic о
        assert form.errors["name"] == [f"Category: {MIXED % ('Skоlēniem', 'Latin and Cyrillic')}"]
