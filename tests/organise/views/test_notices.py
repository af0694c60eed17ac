"""The organiser's page of messages to players: how many receive them, and an announcement
sent to all of them; a bad announcement refused with nothing sent."""

import pytest
from django.urls import reverse

from notices.models import Notice
from tests.factories import make_organiser, make_registrations, make_tournament, subscribe_phone

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def tournament():
    return make_tournament(slug="kauss")


@pytest.fixture
def organiser_client(client, tournament):
    user = make_organiser()
    tournament.organisers.add(user)
    client.force_login(user)
    return client


def test_the_page_says_how_many_players_receive_messages(
    organiser_client, push_service, tournament
):
    anna, juris, _liga = make_registrations(tournament, 3)
    subscribe_phone(push_service, anna)
    subscribe_phone(push_service, anna)
    subscribe_phone(push_service, juris)
    page = organiser_client.get(reverse("organise:notices", args=["kauss"]))
    assert page.status_code == 200
    assert "2 of 3 (3 phones)" in page.content.decode()


def test_an_announcement_reaches_the_players_phones(organiser_client, push_service, tournament):
    phone = subscribe_phone(push_service, make_registrations(tournament, 1)[0])
    answer = organiser_client.post(
        reverse("organise:notices", args=["kauss"]), {"text": "Pusdienas 30 min"}
    )
    assert answer.status_code == 302
    assert push_service.messages_for(phone["endpoint"])[0]["body"] == "Pusdienas 30 min"
    page = organiser_client.get(answer["Location"]).content.decode()
    assert "Pusdienas 30 min" in page
    assert "1 phone" in page


@pytest.mark.parametrize("text", ["", "   ", "x" * 201])
def test_a_bad_announcement_is_refused_and_nothing_sent(
    organiser_client, push_service, tournament, text
):
    subscribe_phone(push_service, make_registrations(tournament, 1)[0])
    answer = organiser_client.post(reverse("organise:notices", args=["kauss"]), {"text": text})
    assert answer.status_code == 400
    assert 'class="errorlist' in answer.content.decode()
    assert not Notice.objects.exists()
    assert push_service.received == []


def test_without_keys_the_page_says_how_to_make_them(organiser_client):
    page = organiser_client.get(reverse("organise:notices", args=["kauss"])).content.decode()
    assert "make_vapid_keys" in page


def test_the_audit_log_says_who_announced_what(organiser_client, push_service, tournament):
    organiser_client.post(reverse("organise:notices", args=["kauss"]), {"text": "Sākam 10:30"})
    log = organiser_client.get(reverse("organise:audit", args=["kauss"])).content.decode()
    assert "announcement sent to the players" in log
    assert "Sākam 10:30" in log
