"""The notices' writes, by concern: `records` (a notice written in the transaction of what
happened, and the organiser's announcement), `subscriptions` (a phone asks for messages or
stops), `expansion` (a notice becomes one delivery per phone or address), `sending`
(deliveries sent, their answers recorded, retried with backoff) and `sender` (who sends,
off the request path: a thread woken at the commit, or `manage.py send_notices`)."""

from notices.services.expansion import notices_expand
from notices.services.records import announcement_send, notice_record
from notices.services.sending import deliveries_send_due
from notices.services.subscriptions import (
    MAX_PHONES,
    SubscriptionRefusedError,
    push_subscribe,
    push_unsubscribe,
)

__all__ = [
    "MAX_PHONES",
    "SubscriptionRefusedError",
    "announcement_send",
    "deliveries_send_due",
    "notice_record",
    "notices_expand",
    "push_subscribe",
    "push_unsubscribe",
]
