"""The organiser's searches for players read a name as the public round search does
(`engine.names.search_key`): without its Latvian marks, in either case, in the other script;
and a search that finds nobody says so, unlike a register that is empty."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from engine.names import search_key
from organise.forms.registrations import RegisterPlayersForm
from tests.factories import make_club, make_organiser, make_player, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff() -> Client:
    client = Client()
    client.force_login(make_organiser())
    return client


@pytest.fixture
def berzins():
    make_player(full_name="Anna Liepa", club=make_club(name="Rīgas Zoles klubs"))
    return make_player(
        full_name="Jānis Bērziņš", club=make_club(name="Cēsu Dūzis"), licence_number="LV-0042"
    )


def listed(response) -> list[str]:
    return [player.full_name for player in response.context["table"].data]


@pytest.mark.parametrize(
    "typed", ["berzins", "BERZINS", "Bērziņš", "jānis bērziņ", "cesu", "Cēsu dūz", "lv-0042"]
)
def test_the_register_finds_a_player_typed_without_marks(staff, berzins, typed):
    response = staff.get(reverse("organise:players"), {"q": typed})

    assert listed(response) == ["Jānis Bērziņš"]


def test_the_register_finds_a_name_in_the_other_script(staff):
    make_player(full_name="Иван Петров")

    response = staff.get(reverse("organise:players"), {"q": "petrovs"})

    assert listed(response) == ["Иван Петров"]


def test_a_search_that_finds_nobody_says_so(staff, berzins):
    response = staff.get(reverse("organise:players"), {"q": "ozols"})

    content = response.content.decode()
    assert listed(response) == []
    assert "Nothing matches “ozols”." in content
    assert "No players yet." not in content


def test_an_empty_register_says_it_is_empty(staff):
    content = staff.get(reverse("organise:players")).content.decode()

    assert "No players yet." in content
    assert "Nothing matches" not in content


def test_the_entries_filter_carries_each_players_search_key(berzins):
    """The registrations page filters its list in the browser: each player carries his key, and the
    page's script keys what is typed the same way (tests/e2e)."""
    form = RegisterPlayersForm(tournament=make_tournament())

    html = str(form["players"])

    assert f'data-search="{search_key("Jānis Bērziņš Cēsu Dūzis")}"' in html
