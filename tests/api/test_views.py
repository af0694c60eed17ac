"""The organiser's page of his API tokens: he makes one and sees its secret once, lists his
tokens (never another's) and revokes them; other accounts are refused."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from api import services
from api.models import ApiToken
from tests.factories import make_tournament, make_user

pytestmark = pytest.mark.django_db

PAGE = "/organise/api-tokens/"
REVOKE = "/organise/api-tokens/revoke/"


def organiser_client():
    organiser = make_user()
    make_tournament().organisers.add(organiser)
    client = Client()
    client.force_login(organiser)
    return organiser, client


def test_the_page_has_its_address():
    assert (reverse("api_tokens:list"), reverse("api_tokens:revoke")) == (PAGE, REVOKE)


@pytest.mark.parametrize("token", ["", "abc", "-1", "99999999999999999999", "1e3"])
def test_an_odd_token_field_is_not_found(token):
    _organiser, client = organiser_client()

    assert client.post(REVOKE, {"token": token}).status_code == 404


def test_a_new_token_s_secret_is_shown_once_then_never_again():
    organiser, client = organiser_client()

    made = client.post(PAGE, {"name": "Federācijas vietne"}, follow=True)
    again = client.get(PAGE)

    secret = made.context["new_secret"]
    assert secret.startswith("zole_")
    assert secret in made.content.decode()
    assert "no-store" in made["Cache-Control"]
    assert secret not in again.content.decode()
    assert "Federācijas vietne" in again.content.decode()
    assert services.token_for_secret(secret).user == organiser


def test_the_page_lists_only_the_owner_s_tokens():
    _organiser, client = organiser_client()
    other, _client = organiser_client()
    services.api_token_create(user=other, name="Cita programma")

    page = client.get(PAGE)

    assert "Cita programma" not in page.content.decode()


def test_a_revoked_token_stays_listed_as_revoked():
    organiser, client = organiser_client()
    made = services.api_token_create(user=organiser, name="Vietne")

    answer = client.post(REVOKE, {"token": made.token.pk})

    assert answer.status_code == 302
    assert services.token_for_secret(made.secret) is None
    page = client.get(PAGE).content.decode()
    assert "Vietne" in page and REVOKE not in page


def test_another_s_token_is_not_found_and_stays_in_use():
    _organiser, client = organiser_client()
    other, _client = organiser_client()
    made = services.api_token_create(user=other, name="Cita programma")

    answer = client.post(REVOKE, {"token": made.token.pk})

    assert answer.status_code == 404
    assert services.token_for_secret(made.secret) is not None


def test_a_bad_name_is_refused_by_its_field_and_makes_nothing():
    _organiser, client = organiser_client()

    answer = client.post(PAGE, {"name": "x" * 81})

    assert answer.status_code == 200
    assert answer.context["form"].errors["name"]
    assert not ApiToken.objects.exists()


def test_an_account_that_organises_nothing_is_refused():
    client = Client()
    client.force_login(make_user())

    assert client.get(PAGE).status_code == 403
    assert client.post(PAGE, {"name": "Vietne"}).status_code == 403
    assert not ApiToken.objects.exists()


def test_a_visitor_is_sent_to_sign_in():
    answer = Client().get(PAGE)

    assert answer.status_code == 302 and answer.url.startswith(reverse("login"))
