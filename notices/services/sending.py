"""Deliveries sent and their answers recorded: a batch of the due ones is claimed (a lease:
a sender that stops mid-batch leaves them to be tried again when it runs out), sent in
parallel, and each is then marked sent, forgotten with its phone (the push service says the
subscription is gone), tried again later with backoff (or after the push service's
Retry-After), or given up."""

from __future__ import annotations

import contextlib
import datetime
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import requests
from django.core.mail import EmailMessage, get_connection
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from notices.models import Delivery, DeliveryState, PushSubscription
from notices.push import PushAnswer, PushResult, push_send

BATCH = 200
PARALLEL_SENDS = 8
# How long a claimed batch is the claimer's: longer than a batch takes (a push service is
# waited for at most notices.push.SEND_TIMEOUT_SECONDS).
LEASE = datetime.timedelta(minutes=2)
MAX_ATTEMPTS = 8
FIRST_RETRY = datetime.timedelta(seconds=30)
LONGEST_RETRY = datetime.timedelta(hours=1)


def backoff(attempts: int) -> datetime.timedelta:
    """The wait after the `attempts`-th failed attempt: 30 s, 1 min, 2 min, … at most 1 hour."""
    return min(FIRST_RETRY * 2 ** (attempts - 1), LONGEST_RETRY)


@dataclass(frozen=True)
class SendReport:
    sent: int = 0
    retried: int = 0
    gone: int = 0
    failed: int = 0

    @property
    def tried(self) -> int:
        return self.sent + self.retried + self.gone + self.failed


def _claim(now: datetime.datetime, limit: int) -> list[Delivery]:
    """The due deliveries, leased to this sender (other senders skip them until the lease
    ends). Expired ones are given up on the way."""
    with transaction.atomic():
        Delivery.objects.filter(
            state=DeliveryState.PENDING, next_attempt_at__lte=now, expires_at__lte=now
        ).update(state=DeliveryState.FAILED, last_error="expired before it could be sent")
        due = Delivery.objects.filter(
            state=DeliveryState.PENDING, next_attempt_at__lte=now
        ).order_by("next_attempt_at", "pk")
        if connection.features.has_select_for_update_skip_locked:
            due = due.select_for_update(skip_locked=True, of=("self",))
        claimed = list(due.select_related("subscription")[:limit])
        Delivery.objects.filter(pk__in=[delivery.pk for delivery in claimed]).update(
            next_attempt_at=now + LEASE, attempts=F("attempts") + 1
        )
    for delivery in claimed:
        delivery.attempts += 1
    return claimed


_sessions = threading.local()


def _session() -> requests.Session:
    """One HTTP session per sending thread: its connections to a push service are kept."""
    session = getattr(_sessions, "session", None)
    if session is None:
        session = _sessions.session = requests.Session()
    return session


def _push(delivery: Delivery, now: datetime.datetime) -> PushResult:
    subscription = delivery.subscription
    if subscription is None:  # the phone unsubscribed since
        return PushResult(PushAnswer.GONE, "unsubscribed")
    return push_send(
        endpoint=subscription.endpoint,
        p256dh=subscription.p256dh,
        auth=subscription.auth,
        message=delivery.message,
        ttl_seconds=max(int((delivery.expires_at - now).total_seconds()), 0),
        session=_session(),
    )


def _mail(delivery: Delivery, mail_connection) -> PushResult:
    message = EmailMessage(
        subject=delivery.message["subject"],
        body=delivery.message["body"],
        to=[delivery.address],
        connection=mail_connection,
    )
    try:
        message.send()
    except OSError as failed:  # smtplib's errors are OSErrors, as are refused connections
        code = getattr(failed, "smtp_code", None)
        if isinstance(code, int) and 500 <= code < 600:
            return PushResult(PushAnswer.REFUSED, f"{code} {type(failed).__name__}")
        return PushResult(PushAnswer.LATER, type(failed).__name__)
    return PushResult(PushAnswer.DELIVERED)


def _record(delivery: Delivery, result: PushResult, now: datetime.datetime) -> str:
    """Write what the attempt gave; the delivery's new state."""
    deliveries = Delivery.objects.filter(pk=delivery.pk)
    if result.answer == PushAnswer.DELIVERED:
        deliveries.update(state=DeliveryState.SENT, sent_at=now, last_error="")
        return DeliveryState.SENT
    if result.answer == PushAnswer.GONE:
        deliveries.update(state=DeliveryState.GONE, last_error=result.detail[:300])
        if delivery.subscription_id is not None:
            PushSubscription.objects.filter(pk=delivery.subscription_id).delete()
        return DeliveryState.GONE
    if result.answer == PushAnswer.LATER and delivery.attempts < MAX_ATTEMPTS:
        wait = max(backoff(delivery.attempts), result.retry_after or datetime.timedelta(0))
        if now + wait < delivery.expires_at:
            deliveries.update(next_attempt_at=now + wait, last_error=result.detail[:300])
            return DeliveryState.PENDING
    deliveries.update(state=DeliveryState.FAILED, last_error=result.detail[:300])
    return DeliveryState.FAILED


def deliveries_send_due(*, now: datetime.datetime | None = None, limit: int = BATCH) -> SendReport:
    """Send a batch of the due deliveries; what became of them."""
    now = now or timezone.now()
    claimed = _claim(now, limit)
    if not claimed:
        return SendReport()
    pushes = [delivery for delivery in claimed if not delivery.address]
    mails = [delivery for delivery in claimed if delivery.address]
    results: list[tuple[Delivery, PushResult]] = []
    if pushes:
        with ThreadPoolExecutor(max_workers=min(PARALLEL_SENDS, len(pushes))) as pool:
            results.extend(
                zip(pushes, pool.map(lambda delivery: _push(delivery, now), pushes), strict=True)
            )
    if mails:
        try:
            mail_connection = get_connection()
            mail_connection.open()
        except OSError as failed:  # the mail server is not there: every mail waits
            results.extend(
                (mail, PushResult(PushAnswer.LATER, type(failed).__name__)) for mail in mails
            )
        else:
            try:
                results.extend((mail, _mail(mail, mail_connection)) for mail in mails)
            finally:
                with contextlib.suppress(OSError):
                    mail_connection.close()
    counts: dict[str, int] = dict.fromkeys(DeliveryState, 0)
    answered = timezone.now()
    with transaction.atomic():
        for delivery, result in results:
            counts[_record(delivery, result, answered)] += 1
    return SendReport(
        sent=counts[DeliveryState.SENT],
        retried=counts[DeliveryState.PENDING],
        gone=counts[DeliveryState.GONE],
        failed=counts[DeliveryState.FAILED],
    )
