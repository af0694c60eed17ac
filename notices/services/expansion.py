"""A notice becomes its deliveries: one message per subscribed phone of each player it
concerns (or one mail), each in its reader's language, written once so that a retry sends the
same words. Runs off the request path (notices.services.sender)."""

from __future__ import annotations

import datetime

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import connection, transaction
from django.utils import timezone

from notices import selectors
from notices.models import Delivery, Notice, NoticeKind
from notices.wording import push_message, signup_mail
from signups.models import SignUp
from signups.selectors import signup_lists

# How long a message is worth sending: a seating or a call for time an hour late misleads; the
# standings and a mail keep.
PUSH_LIFETIME: dict[str, datetime.timedelta] = {
    NoticeKind.FINAL_STANDINGS: datetime.timedelta(days=1),
    NoticeKind.ROUND_CLOSED: datetime.timedelta(hours=6),
    NoticeKind.TABLE_CONFIRMED: datetime.timedelta(hours=6),
}
PUSH_LIFETIME_DEFAULT = datetime.timedelta(hours=1)
MAIL_LIFETIME = datetime.timedelta(days=2)
SIGNUP_KINDS = frozenset(
    {
        NoticeKind.SIGNUP_LISTED,
        NoticeKind.SIGNUP_WAITING,
        NoticeKind.SIGNUP_ACCEPTED,
        NoticeKind.SIGNUP_MOVED_UP,
        NoticeKind.SIGNUP_REFUSED,
    }
)
NOTICES_PER_CLAIM = 20


def mail_address(contact: str) -> str | None:
    """The sign-up's private contact when it is a mail address (it may be a phone number)."""
    contact = contact.strip()
    try:
        validate_email(contact)
    except ValidationError:
        return None
    return contact


def _push_deliveries(notice: Notice) -> list[Delivery]:
    recipients = selectors.notice_recipients(notice)
    if not recipients:
        return []
    seats = {}
    lines = {}
    placings = {}
    prizes: dict[int, str] = {}
    if notice.kind == NoticeKind.SEATING_PUBLISHED and notice.round_id is not None:
        seats = selectors.round_seats(round_id=notice.round_id)
    if notice.kind == NoticeKind.TABLE_CONFIRMED and notice.table_id is not None:
        lines = selectors.table_lines(table_id=notice.table_id)
    if notice.kind in (
        NoticeKind.TABLE_CONFIRMED,
        NoticeKind.ROUND_CLOSED,
        NoticeKind.FINAL_STANDINGS,
    ):
        placings = selectors.standings_places(tournament=notice.tournament)
    if notice.kind == NoticeKind.FINAL_STANDINGS:
        prizes = selectors.prizes_won(tournament=notice.tournament)
    expires_at = notice.created_at + PUSH_LIFETIME.get(notice.kind, PUSH_LIFETIME_DEFAULT)
    deliveries = []
    for recipient in recipients:
        for subscription in recipient.subscriptions:
            message = push_message(
                notice,
                language=subscription.language,
                token=recipient.check_in_token,
                seat=seats.get(recipient.registration_id),
                line=lines.get(recipient.registration_id),
                placing=placings.get(recipient.registration_id),
                prize=prizes.get(recipient.registration_id, ""),
            )
            if message is not None:
                deliveries.append(
                    Delivery(
                        notice=notice,
                        subscription=subscription,
                        message=message,
                        expires_at=expires_at,
                    )
                )
    return deliveries


def _mail_deliveries(notice: Notice) -> list[Delivery]:
    signup: SignUp | None = notice.signup
    if signup is None:
        return []
    address = mail_address(signup.contact)
    if address is None:
        return []
    place = signup_lists(tournament=notice.tournament).place_of(signup)
    mail = signup_mail(notice, signup=signup, number=place[1] if place else None)
    return [
        Delivery(
            notice=notice,
            address=address,
            message=mail,
            expires_at=notice.created_at + MAIL_LIFETIME,
        )
    ]


def notice_deliveries(notice: Notice) -> list[Delivery]:
    """The deliveries the notice makes, unsaved."""
    if notice.kind in SIGNUP_KINDS:
        return _mail_deliveries(notice)
    return _push_deliveries(notice)


def notices_expand(*, limit: int = NOTICES_PER_CLAIM) -> int:
    """Write the deliveries of the notices not yet expanded, each notice with its deliveries
    in one transaction (a sender stopped halfway leaves it whole to the next). How many
    notices were expanded."""
    expanded = 0
    while expanded < limit:
        with transaction.atomic():
            waiting = Notice.objects.filter(expanded_at__isnull=True).order_by("pk")
            if connection.features.has_select_for_update_skip_locked:
                waiting = waiting.select_for_update(skip_locked=True, of=("self",))
            notice = waiting.select_related(
                "tournament", "round", "table", "signup__registration"
            ).first()
            if notice is None:
                break
            Delivery.objects.bulk_create(notice_deliveries(notice))
            notice.expanded_at = timezone.now()
            notice.save(update_fields=["expanded_at"])
        expanded += 1
    return expanded
