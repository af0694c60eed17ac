"""Web Push with the real protocols against the suite's own push service: the VAPID signature
it checks, the payload it decrypts (RFC 8291), and its answers turned into what the sender
does next."""

import datetime

import pytest
import requests
from django.utils import timezone

from notices.push import (
    PushAnswer,
    endpoint_allowed,
    push_send,
    retry_after,
    subscription_keys_valid,
    vapid_keys_make,
)


def send(push_service, browser, message=None, **options):
    return push_send(
        endpoint=browser["endpoint"],
        p256dh=browser["keys"]["p256dh"],
        auth=browser["keys"]["auth"],
        message=message or {"title": "Zole", "body": "3. kārta: 7. galds, 2. vieta."},
        ttl_seconds=options.get("ttl_seconds", 600),
    )


def test_a_message_arrives_signed_and_decrypts_with_the_subscription_keys(push_service):
    browser = push_service.subscribe()
    result = send(push_service, browser)
    assert result.answer == PushAnswer.DELIVERED
    (received,) = push_service.wait_for(1)
    assert received.payload == {"title": "Zole", "body": "3. kārta: 7. galds, 2. vieta."}
    assert received.claims["aud"] == push_service.origin
    assert received.claims["sub"] == "mailto:organiser@example.lv"
    assert received.ttl == 600
    assert push_service.refused == []


def test_a_message_signed_with_another_key_is_refused(push_service, settings):
    settings.VAPID_PRIVATE_KEY, _public = vapid_keys_make()
    result = send(push_service, push_service.subscribe())
    assert result.answer == PushAnswer.REFUSED
    assert result.detail.startswith("403")
    assert push_service.received == []
    assert "another key" in push_service.refused[0].reason


def test_a_gone_subscription_is_told_apart(push_service):
    browser = push_service.subscribe()
    push_service.forget(browser["endpoint"])
    assert send(push_service, browser).answer == PushAnswer.GONE


def test_too_many_requests_is_tried_later_after_the_retry_after(push_service):
    browser = push_service.subscribe()
    push_service.answer_next(browser["endpoint"], 429, {"Retry-After": "120"})
    result = send(push_service, browser)
    assert result.answer == PushAnswer.LATER
    assert result.retry_after == datetime.timedelta(seconds=120)


def test_a_server_error_is_tried_later(push_service):
    browser = push_service.subscribe()
    push_service.answer_next(browser["endpoint"], 503)
    assert send(push_service, browser).answer == PushAnswer.LATER


def test_a_push_service_that_does_not_answer_is_tried_later(push_service, settings):
    browser = push_service.subscribe()
    push_service.stop()
    assert send(push_service, browser).answer == PushAnswer.LATER


def test_an_address_outside_the_push_services_is_never_called(push_service, monkeypatch):
    def no_post(*args, **kwargs):
        raise AssertionError("posted to an address the settings do not allow")

    monkeypatch.setattr(requests.Session, "post", no_post)
    monkeypatch.setattr(requests, "post", no_post)
    browser = push_service.subscribe()
    browser["endpoint"] = "http://127.0.0.1:1/push/internal"
    assert send(push_service, browser).answer == PushAnswer.REFUSED


@pytest.mark.parametrize(
    ("endpoint", "allowed"),
    [
        ("https://fcm.googleapis.com/fcm/send/abc", True),
        ("https://wns2-par02p.notify.windows.com/w/?token=x", True),
        ("https://web.push.apple.com/QO", True),
        ("http://fcm.googleapis.com/fcm/send/abc", False),  # not https
        ("https://fcm.googleapis.com.evil.example/x", False),
        ("https://evilnotify.windows.com/x", False),  # not a subdomain
        ("https://user@fcm.googleapis.com/x", False),
        ("https://fcm.googleapis.com:8443/x", False),
        ("https://10.0.0.1/x", False),
        ("file:///etc/passwd", False),
        ("https://[::1", False),
        ("", False),
    ],
)
def test_only_the_settings_push_services_are_allowed(settings, endpoint, allowed):
    settings.PUSH_SERVICES = [
        "https://fcm.googleapis.com",
        "https://web.push.apple.com",
        "https://*.notify.windows.com",
    ]
    assert endpoint_allowed(endpoint) is allowed


def test_a_browser_key_must_be_a_point_of_the_curve_and_its_secret_16_bytes(push_service):
    keys = push_service.subscribe()["keys"]
    assert subscription_keys_valid(keys["p256dh"], keys["auth"])
    assert not subscription_keys_valid(keys["p256dh"], keys["auth"][:-2])
    assert not subscription_keys_valid("BA" + "A" * 85, keys["auth"])  # not on the curve
    assert not subscription_keys_valid("not base64!", keys["auth"])
    assert not subscription_keys_valid("", "")


def test_retry_after_reads_seconds_and_dates():
    now = timezone.now().replace(microsecond=0)
    assert retry_after("30", now=now) == datetime.timedelta(seconds=30)
    later = now + datetime.timedelta(minutes=2)
    http_date = later.strftime("%a, %d %b %Y %H:%M:%S GMT")
    assert retry_after(http_date, now=now) == datetime.timedelta(minutes=2)
    assert retry_after("soon", now=now) is None
    assert retry_after(None, now=now) is None
