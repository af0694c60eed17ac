"""A player's phone asks for messages on his own page, or stops them."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from notices.models import PushSubscription
from notices.push import endpoint_allowed, subscription_keys_valid
from tournaments.models import Registration
from tournaments.services.refusal import ServiceError

# The phones one player may have subscribed at once; a further one replaces the oldest, so a
# page asked again and again never grows the table.
MAX_PHONES = 5
ENDPOINT_MAX_LENGTH = 1000


class SubscriptionRefusedError(ServiceError):
    """The subscription cannot be used: what is wrong, for the page to say."""


@transaction.atomic
def push_subscribe(
    *, registration: Registration, endpoint: str, p256dh: str, auth: str, language: str
) -> PushSubscription:
    """Keep the browser's push subscription for the player (again: its keys renewed). Refused
    when the address is not at a known push service or the keys cannot encrypt a message."""
    if not endpoint or len(endpoint) > ENDPOINT_MAX_LENGTH or not endpoint_allowed(endpoint):
        raise SubscriptionRefusedError(
            _("This browser's push service is not one the site sends to.")
        )
    if not subscription_keys_valid(p256dh, auth):
        raise SubscriptionRefusedError(_("The browser's keys for messages are not valid."))
    # The player's row: two subscriptions at once count against one another's place.
    Registration.objects.select_for_update().filter(pk=registration.pk).exists()
    subscription, _created = PushSubscription.objects.update_or_create(
        registration=registration,
        endpoint=endpoint,
        defaults={"p256dh": p256dh, "auth": auth, "language": language},
    )
    kept = PushSubscription.objects.filter(registration=registration).order_by("-created_at", "-pk")
    PushSubscription.objects.filter(
        pk__in=list(kept.values_list("pk", flat=True)[MAX_PHONES:])
    ).delete()
    return subscription


def push_unsubscribe(*, registration: Registration, endpoint: str) -> int:
    """Forget the browser's subscription for the player; how many were forgotten (0: none)."""
    deleted, _by_model = PushSubscription.objects.filter(
        registration=registration, endpoint=endpoint
    ).delete()
    return deleted
