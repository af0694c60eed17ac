"""A phone asks for messages on the player's own page: only at a push service the site knows,
only with keys a message can be encrypted for, at most a few phones per player."""

import pytest

from notices.models import PushSubscription
from notices.services import (
    MAX_PHONES,
    SubscriptionRefusedError,
    push_subscribe,
    push_unsubscribe,
)
from tests.factories import make_registrations, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna():
    return make_registrations(make_tournament(), 2)[0]


def given(registration, browser, language="lv"):
    return push_subscribe(
        registration=registration,
        endpoint=browser["endpoint"],
        p256dh=browser["keys"]["p256dh"],
        auth=browser["keys"]["auth"],
        language=language,
    )


def test_a_phone_is_kept_with_its_keys_and_language(push_service, anna):
    browser = push_service.subscribe()
    subscription = given(anna, browser, language="ru")
    assert (subscription.registration, subscription.endpoint, subscription.language) == (
        anna,
        browser["endpoint"],
        "ru",
    )


def test_the_same_phone_again_renews_its_keys_without_a_second_row(push_service, anna):
    browser = push_service.subscribe()
    given(anna, browser)
    renewed = push_service.subscribe()["keys"]
    given(anna, {"endpoint": browser["endpoint"], "keys": renewed}, language="en")
    subscription = PushSubscription.objects.get()
    assert (subscription.p256dh, subscription.language) == (renewed["p256dh"], "en")


def test_an_address_at_an_unknown_service_is_refused(push_service, anna):
    browser = push_service.subscribe()
    for endpoint in ("http://10.0.0.5/admin", "https://evil.example/push", "x" * 2000, ""):
        with pytest.raises(SubscriptionRefusedError, match="push service"):
            given(anna, {**browser, "endpoint": endpoint})
    assert not PushSubscription.objects.exists()


def test_keys_that_cannot_encrypt_are_refused(push_service, anna):
    browser = push_service.subscribe()
    for keys in (
        {"p256dh": "AAAA", "auth": browser["keys"]["auth"]},
        {**browser["keys"], "auth": ""},
    ):
        with pytest.raises(SubscriptionRefusedError, match="keys"):
            given(anna, {**browser, "keys": keys})
    assert not PushSubscription.objects.exists()


def test_a_further_phone_replaces_the_oldest(push_service, anna):
    phones = [push_service.subscribe() for _ in range(MAX_PHONES + 2)]
    for phone in phones:
        given(anna, phone)
    kept = set(PushSubscription.objects.values_list("endpoint", flat=True))
    assert kept == {phone["endpoint"] for phone in phones[-MAX_PHONES:]}


def test_unsubscribing_forgets_only_that_players_phone(push_service, anna):
    other = anna.tournament.registrations.exclude(pk=anna.pk).get()
    browser = push_service.subscribe()
    given(anna, browser)
    given(other, browser)  # the same browser, for another player's page
    assert push_unsubscribe(registration=anna, endpoint=browser["endpoint"]) == 1
    assert push_unsubscribe(registration=anna, endpoint=browser["endpoint"]) == 0
    assert list(PushSubscription.objects.values_list("registration", flat=True)) == [other.pk]
