"""Deliveries are sent off the request and their answers followed: delivered once, retried
with backoff or after the push service's Retry-After, a gone phone forgotten, a refused or
stale message given up, a batch claimed by a sender that stopped sent again after its lease;
mail reaches a real SMTP server."""

import datetime

import pytest
from django.utils import timezone

from notices.models import Delivery, DeliveryState, Notice, NoticeKind, PushSubscription
from notices.services import deliveries_send_due
from notices.services.sending import LEASE, MAX_ATTEMPTS, backoff
from tests.factories import make_registrations, make_tournament, subscribe_phone
from tests.servers import SmtpServer

pytestmark = pytest.mark.django_db


def waiting_delivery(push_service, *, minutes_to_live=60, mail=""):
    tournament = make_tournament()
    notice = Notice.objects.create(
        tournament=tournament,
        kind=NoticeKind.ANNOUNCEMENT,
        text="Sākam",
        expanded_at=timezone.now(),
    )
    subscription = None
    browser = None
    if not mail:
        browser = subscribe_phone(push_service, make_registrations(tournament, 1)[0])
        subscription = PushSubscription.objects.get(endpoint=browser["endpoint"])
    delivery = Delivery.objects.create(
        notice=notice,
        subscription=subscription,
        address=mail,
        message={"subject": "Zole", "body": "Sākam"}
        if mail
        else {"title": "Zole", "body": "Sākam"},
        expires_at=timezone.now() + datetime.timedelta(minutes=minutes_to_live),
    )
    return delivery, browser


def test_backoff_doubles_from_half_a_minute_up_to_an_hour():
    assert [backoff(n).total_seconds() for n in (1, 2, 3, 4)] == [30, 60, 120, 240]
    assert backoff(20) == datetime.timedelta(hours=1)


def test_a_delivered_message_is_sent_once(push_service):
    delivery, browser = waiting_delivery(push_service)
    assert deliveries_send_due().sent == 1
    assert deliveries_send_due().tried == 0
    delivery.refresh_from_db()
    assert (delivery.state, delivery.attempts) == (DeliveryState.SENT, 1)
    assert push_service.messages_for(browser["endpoint"]) == [{"title": "Zole", "body": "Sākam"}]


def test_too_many_requests_waits_as_long_as_the_push_service_says(push_service):
    delivery, browser = waiting_delivery(push_service)
    push_service.answer_next(browser["endpoint"], 429, {"Retry-After": "300"})
    before = timezone.now()
    assert deliveries_send_due().retried == 1
    delivery.refresh_from_db()
    assert delivery.state == DeliveryState.PENDING
    assert delivery.next_attempt_at >= before + datetime.timedelta(seconds=300)
    assert deliveries_send_due().tried == 0  # not due yet
    assert deliveries_send_due(now=delivery.next_attempt_at).sent == 1


def test_a_server_error_is_retried_after_the_backoff(push_service):
    delivery, browser = waiting_delivery(push_service)
    push_service.answer_next(browser["endpoint"], 500)
    before = timezone.now()
    deliveries_send_due()
    delivery.refresh_from_db()
    assert before + backoff(1) <= delivery.next_attempt_at <= timezone.now() + backoff(1)
    assert delivery.last_error.startswith("500")


def test_a_gone_phone_is_forgotten(push_service):
    delivery, browser = waiting_delivery(push_service)
    push_service.forget(browser["endpoint"])
    assert deliveries_send_due().gone == 1
    delivery.refresh_from_db()
    assert delivery.state == DeliveryState.GONE
    assert not PushSubscription.objects.exists()


def test_a_message_is_given_up_after_its_attempts(push_service):
    delivery, browser = waiting_delivery(push_service, minutes_to_live=24 * 60)
    now = timezone.now()
    for _attempt in range(MAX_ATTEMPTS):
        push_service.answer_next(browser["endpoint"], 503)
        deliveries_send_due(now=now)
        delivery.refresh_from_db()
        now = max(delivery.next_attempt_at, now)
    assert (delivery.state, delivery.attempts) == (DeliveryState.FAILED, MAX_ATTEMPTS)


def test_a_message_past_its_time_is_given_up_unsent(push_service):
    delivery, _browser = waiting_delivery(push_service, minutes_to_live=1)
    assert deliveries_send_due(now=timezone.now() + datetime.timedelta(minutes=2)).tried == 0
    delivery.refresh_from_db()
    assert delivery.state == DeliveryState.FAILED
    assert push_service.received == []


def test_a_batch_claimed_by_a_sender_that_stopped_is_sent_after_its_lease(push_service):
    delivery, browser = waiting_delivery(push_service)
    from notices.services.sending import _claim

    now = timezone.now()
    assert _claim(now, 10) == [delivery]  # the sender stops here, before sending
    assert deliveries_send_due(now=now).tried == 0  # leased: no other sender takes it
    assert deliveries_send_due(now=now + LEASE).sent == 1
    assert len(push_service.messages_for(browser["endpoint"])) == 1


@pytest.fixture
def smtp_server(settings, tmp_path):
    server = SmtpServer(tmp_path)
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.DEFAULT_FROM_EMAIL = "zole@example.lv"
    yield server
    server.stop()


def test_a_mail_reaches_the_smtp_server(push_service, smtp_server):
    _delivery, _browser = waiting_delivery(push_service, mail="anna@example.lv")
    assert deliveries_send_due().sent == 1
    (mail,) = smtp_server.mails()
    assert (mail["From"], mail["To"], mail["Subject"]) == (
        "zole@example.lv",
        "anna@example.lv",
        "Zole",
    )
    assert mail.get_content().strip() == "Sākam"


def test_a_mail_server_that_is_down_is_tried_again(push_service, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 1, 2
    settings.EMAIL_USE_TLS = False
    delivery, _browser = waiting_delivery(push_service, mail="anna@example.lv")
    assert deliveries_send_due().retried == 1
    delivery.refresh_from_db()
    assert delivery.state == DeliveryState.PENDING
