"""A push service of the suite's own on loopback (demo/push_service.py), the site's VAPID keys
made for the test, and a player with a phone subscribed to it."""

import pytest

from demo.push_service import PushService
from notices.push import vapid_keys_make

VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY = vapid_keys_make()


@pytest.fixture
def push_service(settings):
    with PushService(vapid_public_key=VAPID_PUBLIC_KEY) as service:
        settings.VAPID_PUBLIC_KEY = VAPID_PUBLIC_KEY
        settings.VAPID_PRIVATE_KEY = VAPID_PRIVATE_KEY
        settings.VAPID_SUBJECT = "mailto:organiser@example.lv"
        settings.PUSH_SERVICES = [service.origin]
        yield service


def subscribe(push_service, registration, *, language="lv"):
    """The player's phone subscribes on his page (the service's subscription, kept)."""
    from notices.services import push_subscribe

    browser = push_service.subscribe()
    push_subscribe(
        registration=registration,
        endpoint=browser["endpoint"],
        p256dh=browser["keys"]["p256dh"],
        auth=browser["keys"]["auth"],
        language=language,
    )
    return browser
