"""A player's phone asks for messages on his own page, and stops them: only by his own link,
only with a subscription at a known push service, never too often; hostile bodies refused."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from notices.models import PushSubscription
from tests.factories import make_registrations, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna():
    return make_registrations(make_tournament(slug="kauss"), 2)[0]


def url(registration, name="public:my_notices_subscribe"):
    return reverse(name, args=[registration.tournament.slug, registration.check_in_token])


def post(client, address, body, **headers):
    return client.post(
        address,
        body if isinstance(body, str) else json.dumps(body),
        content_type="application/json",
        **headers,
    )


def test_a_phone_subscribes_and_unsubscribes_on_the_players_page(client, push_service, anna):
    browser = push_service.subscribe()
    answer = post(client, url(anna), browser, HTTP_ACCEPT_LANGUAGE="ru")
    assert answer.status_code == 201
    assert answer.json() == {"receiving": True}
    subscription = PushSubscription.objects.get()
    assert (subscription.registration, subscription.language) == (anna, "ru")
    answer = post(
        client, url(anna, "public:my_notices_unsubscribe"), {"endpoint": browser["endpoint"]}
    )
    assert answer.json() == {"receiving": False}
    assert not PushSubscription.objects.exists()


def test_another_players_link_changes_only_his_own(client, push_service, anna):
    juris = anna.tournament.registrations.exclude(pk=anna.pk).get()
    browser = push_service.subscribe()
    post(client, url(anna), browser)
    post(client, url(juris, "public:my_notices_unsubscribe"), {"endpoint": browser["endpoint"]})
    assert PushSubscription.objects.get().registration == anna


def test_an_unknown_link_is_not_found_and_counted(client, push_service, anna, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "check-in": {"failures": 2, "seconds": 600}}
    address = reverse("public:my_notices_subscribe", args=["kauss", "not-a-token"])
    statuses = [post(client, address, push_service.subscribe()).status_code for _ in range(3)]
    assert statuses == [404, 404, 429]
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        "not json",
        "[]",
        "{}",
        {"endpoint": 5, "keys": {"p256dh": "a", "auth": "b"}},
        {"endpoint": "https://fcm.googleapis.com/x", "keys": "x"},
        {"endpoint": "x" * 5000, "keys": {}},
    ],
)
def test_a_body_that_is_no_subscription_is_refused(client, push_service, anna, body):
    answer = post(client, url(anna), body)
    assert answer.status_code == 400
    assert "detail" in answer.json()
    assert not PushSubscription.objects.exists()


def test_a_forged_subscription_is_refused(client, push_service, anna):
    browser = push_service.subscribe()
    internal = {**browser, "endpoint": "http://127.0.0.1:5432/"}  # not the push service
    answer = post(client, url(anna), internal)
    assert answer.status_code == 400
    assert "push service" in answer.json()["detail"]
    broken = {**browser, "keys": {**browser["keys"], "p256dh": "BAAA"}}
    assert post(client, url(anna), broken).status_code == 400
    assert not PushSubscription.objects.exists()


def test_a_flood_of_subscriptions_is_stopped(client, push_service, anna, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "push": {"failures": 3, "seconds": 3600}}
    statuses = [post(client, url(anna), push_service.subscribe()).status_code for _ in range(5)]
    assert statuses == [201, 201, 201, 429, 429]
    assert PushSubscription.objects.count() == 3


def test_without_a_form_token_a_cross_site_post_is_refused(push_service, anna):
    answer = post(Client(enforce_csrf_checks=True), url(anna), push_service.subscribe())
    assert answer.status_code == 403
    assert not PushSubscription.objects.exists()


def test_a_site_without_keys_takes_no_subscription(client, anna):
    answer = post(client, url(anna), {"endpoint": "https://fcm.googleapis.com/x", "keys": {}})
    assert answer.status_code == 409
