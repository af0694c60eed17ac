"""A player signs up online in Latvian and hears by mail that he is on the list and then
accepted, with his own page's link; on that page (a 360 px phone) one tap switches messages
on; he then receives, through the suite's own push service (VAPID checked, payload decrypted),
his seating, his table's confirmation and the round's close. The page's service worker shows a
pushed message as a notification, and a tap on it opens his page.

The browser cannot reach a real push service here: its PushManager is given the test push
service's subscription (what Chrome would get from Google's service), and the messages the
server sent are delivered to the worker through the DevTools protocol
(ServiceWorker.deliverPushMessage), as the push service would."""

from __future__ import annotations

import datetime
import json
import re

import pytest
from django.db import transaction
from django.utils import timezone
from playwright.sync_api import expect

from scoring import reactions
from scoring.models import TableResult
from scoring.services import Writer, round_close, round_generate_seating
from signups.models import SignUp
from tests.factories import make_registrations, make_tournament, make_user, seat_keys
from tests.servers import SmtpServer
from tests.tournament_play import confirm_with_totals
from tournaments import services
from tournaments.models import Seat

from .conftest import assert_fits_the_phone, no_violations, register, sign_in, t

pytestmark = pytest.mark.django_db(transaction=True)

# The browser's PushManager, given the test push service's subscription.
FAKE_PUSH_MANAGER = """
(() => {
  const given = %s;
  let current = null;
  const subscription = {
    endpoint: given.endpoint,
    toJSON: () => given,
    unsubscribe: async () => { current = null; return true; },
  };
  PushManager.prototype.subscribe = async function (options) {
    if (!options.userVisibleOnly || !(options.applicationServerKey instanceof Uint8Array)) {
      throw new Error("subscribe() without a visible-only promise or the site's key");
    }
    window.__applicationServerKey = Array.from(options.applicationServerKey);
    current = subscription;
    return subscription;
  };
  PushManager.prototype.getSubscription = async function () { return current; };
})();
"""


@pytest.fixture
def smtp_server(settings, tmp_path):
    server = SmtpServer(tmp_path)
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.DEFAULT_FROM_EMAIL = "zole@example.lv"
    yield server
    server.stop()


def test_a_player_signs_up_and_follows_his_round_on_his_phone(
    live_server, browser, open_page, push_service, smtp_server, settings, shots
):
    # Sent at each commit (the suite's NOTICES_SENDER): the sender's thread is tested on its
    # own (tests/notices/services/test_sender.py), and SQLite's in-memory test database takes
    # one thread's writes at a time.
    settings.SITE_URL = live_server.url
    tournament = make_tournament(
        slug="ogres-kauss",
        name="Ogres kauss",
        rounds_planned=2,
        signup_until=timezone.now() + datetime.timedelta(days=3),
    )
    make_registrations(tournament, 5)
    organiser = make_user(username="rita")
    tournament.organisers.add(organiser)

    # He signs up on his phone with his mail address: a mail says where he is.
    phone = open_page()
    phone.goto(f"{live_server.url}/t/ogres-kauss/register/")
    register(phone, "Anna Ozoliņa", "Ogres Zole", contact="anna@example.lv")
    (listed,) = smtp_server.mails(1)
    assert listed["To"] == "anna@example.lv"
    assert listed["Subject"].strip() == t("%(tournament)s: you are on the list of players") % {
        "tournament": "Ogres kauss"
    }

    # The organiser accepts him: the mail gives his own page.
    desktop = open_page(1366, 900)
    sign_in(desktop, live_server, "rita", "/organise/t/ogres-kauss/sign-ups/")
    desktop.locator("table.signups tr", has_text="Anna Ozoliņa").locator(
        f"button:has-text('{t('Accept')}')"
    ).click()
    desktop.wait_for_load_state()
    accepted = smtp_server.mails(2)[-1]
    assert accepted["Subject"].strip() == t("%(tournament)s: you are registered") % {
        "tournament": "Ogres kauss"
    }
    body = accepted.get_content()
    own_page = re.search(rf"{re.escape(live_server.url)}/t/ogres-kauss/me/[\w-]+/", body).group(0)
    anna = SignUp.objects.get(full_name="Anna Ozoliņa").registration

    # On his page, one tap switches messages on.
    browser_subscription = push_service.subscribe()
    phone.context.add_init_script(FAKE_PUSH_MANAGER % json.dumps(browser_subscription))
    phone.context.grant_permissions(["notifications"], origin=live_server.url)
    phone.goto(own_page)
    switch = phone.locator("#my-notices button[data-toggle]")
    expect(switch).to_have_text(t("Receive messages on this phone"))
    switch.click()
    expect(phone.locator("#my-notices [data-status]")).to_have_text(
        t("Messages are on for this phone.")
    )
    assert anna.push_subscriptions.get().language == "lv"
    assert bytes(phone.evaluate("window.__applicationServerKey")) == _raw_key(
        settings.VAPID_PUBLIC_KEY
    )
    assert_fits_the_phone(phone)
    no_violations(phone)
    phone.screenshot(path=shots / "my-notices-on-360.png", full_page=True)

    # The round: seating, his table confirmed, the round closed.
    round_ = services.round_create(tournament=tournament, by=organiser)
    round_generate_seating(round_=round_, seed=3, by=organiser)
    services.round_publish(round_=round_, by=organiser)
    seat = Seat.objects.select_related("table").get(registration=anna, table__round=round_)
    seating = t("Round %(number)d: table %(table)d, seat %(seat)d.") % {
        "number": 1,
        "table": seat.table.number,
        "seat": seat.position,
    }
    with transaction.atomic():
        keys = seat_keys(seat.table)
        result = confirm_with_totals(
            seat.table, {key: (2 * (len(keys) - 1) if key == str(anna.pk) else -2) for key in keys}
        )
        reactions.table_confirmed.send(TableResult, table_result=result)
    for table in round_.tables.exclude(pk=seat.table_id):
        confirm_with_totals(table, dict.fromkeys(seat_keys(table), 0))
    round_close(round_=round_, writer=Writer(user=organiser))

    bodies = _bodies_when(push_service, browser_subscription["endpoint"], count=4)
    assert bodies[0] == t("Check-in for round %(number)d is open: tap to check in.", number=1)
    assert bodies[1].startswith(seating)
    confirmed = t(
        "Round %(number)d, table %(table)d is confirmed: %(points)s points, place %(place)d at "
        "the table, %(place_points)s place points."
    )
    assert bodies[2].startswith(
        confirmed.split("%(points)s")[0] % {"number": 1, "table": seat.table.number}
    )
    assert bodies[3].startswith(t("Round %(number)d is closed.", number=1))

    # The worker shows a pushed message, and a tap on it opens his page.
    message = push_service.messages_for(browser_subscription["endpoint"])[1]
    _deliver_to_worker(phone, live_server.url, message)
    assert _notifications(phone) == [[message["title"], message["body"], message["tag"]]]
    # A tap (the notification's click, dispatched in the worker): the page it names, open
    # already on the phone, is loaded anew (the window's mark of before is gone).
    phone.evaluate("window.__before_the_tap = true")
    (worker,) = phone.context.service_workers
    worker.evaluate(
        "async () => { const [n] = await self.registration.getNotifications();"
        " self.dispatchEvent(new NotificationEvent('notificationclick', {notification: n})); }"
    )
    phone.wait_for_function("() => window.__before_the_tap === undefined")
    assert phone.url == own_page
    assert (
        phone.evaluate(
            "async () => (await (await navigator.serviceWorker.ready).getNotifications()).length"
        )
        == 0
    )  # the tapped one is closed


def _raw_key(base64url: str) -> bytes:
    import base64

    return base64.urlsafe_b64decode(base64url + "=" * (-len(base64url) % 4))


def _bodies_when(push_service, endpoint: str, *, count: int) -> list[str]:
    push_service.wait_for(count, timeout=20)
    return [message["body"] for message in push_service.messages_for(endpoint)]


def _deliver_to_worker(page, origin: str, message: dict) -> None:
    """The push service delivers the message to the browser's worker (DevTools protocol)."""
    session = page.context.new_cdp_session(page)
    registrations: list[dict] = []
    session.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    session.send("ServiceWorker.enable")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    for _ in range(50):
        if registrations:
            break
        page.wait_for_timeout(100)
    (registration,) = {r["registrationId"] for r in registrations if not r["isDeleted"]}
    session.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": origin, "registrationId": registration, "data": json.dumps(message)},
    )
    for _ in range(100):  # a promise is truthy: wait_for_function cannot await the list
        if _notifications(page):
            return
        page.wait_for_timeout(100)


def _notifications(page) -> list[list[str]]:
    return page.evaluate(
        "async () => (await (await navigator.serviceWorker.ready).getNotifications())"
        ".map(n => [n.title, n.body, n.tag])"
    )
