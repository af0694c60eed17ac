"""The registrations' old addresses (under `entries/`) send their visitors on: a bookmark opens
the page, and a form posted from a page still open from before arrives whole."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import make_organiser, make_registrations, make_tournament
from tournaments.models import Registration

pytestmark = pytest.mark.django_db

MOVED = [
    ("/organise/t/kauss/entries/", "/organise/t/kauss/registrations/"),
    ("/organise/t/kauss/entries/7/", "/organise/t/kauss/registrations/7/"),
    ("/organise/t/kauss/entries/fee-category/", "/organise/t/kauss/registrations/fee-category/"),
    ("/organise/t/kauss/entries/online/", "/organise/t/kauss/sign-ups/"),
    ("/organise/t/kauss/entries/online/accept/", "/organise/t/kauss/sign-ups/accept/"),
]


@pytest.mark.parametrize(("old", "new"), MOVED)
def test_an_old_address_sends_on_to_the_new_one_with_its_query(old, new):
    response = Client().get(f"{old}?q=B%C4%93rzi%C5%86%C5%A1")
    assert response.status_code == 308
    assert response["Location"] == f"{new}?q=B%C4%93rzi%C5%86%C5%A1"


def test_a_bookmark_of_the_registrations_opens_the_page_for_its_organiser():
    tournament = make_tournament(slug="kauss")
    organiser = make_organiser()
    tournament.organisers.add(organiser)
    client = Client()
    client.force_login(organiser)
    response = client.get("/organise/t/kauss/entries/", follow=True)
    assert response.redirect_chain == [("/organise/t/kauss/registrations/", 308)]
    assert response.status_code == 200


def test_a_form_posted_to_an_old_address_is_carried_on_whole():
    tournament = make_tournament(slug="kauss")
    organiser = make_organiser()
    tournament.organisers.add(organiser)
    registration = make_registrations(tournament, 1)[0]
    client = Client()
    client.force_login(organiser)
    response = client.post(
        f"/organise/t/kauss/entries/{registration.pk}/",
        {"withdraw-after_round": "0"},
        follow=True,
    )
    assert response.redirect_chain[0] == (
        f"/organise/t/kauss/registrations/{registration.pk}/",
        308,
    )
    assert Registration.objects.get(pk=registration.pk).withdrawn_after_round == 0
