"""The offline round in Safari's engine (WebKitGTK's MiniBrowser; many referees carry iPhones):
a referee's phone (360 px, in Latvian) enters deals while the server is down, reloads the page
from its service worker, enters more, and once the server is back the page's own retries send
what waits (WebKit has no Background Sync): the server holds each deal once, in order, and the
phone's sheet is the server's. The server is really unreachable: the phone reaches the test's
live server through a relay (tests/e2e/webkit.py) that refuses every connection while cut."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.conf import settings

from .table_phone import (
    DEALS,
    enter_deals,
    opened,
    planned_entry,
    scores,
    sheet_shown,
    wait_until_sent,
)
from .test_offline_round import (  # noqa: F401
    assert_the_server_holds_the_round_once_in_order,
    four_table,
    stored_deals,
)
from .webkit import LineToServer

pytestmark = pytest.mark.django_db(transaction=True)

CONTROLLED = "() => navigator.serviceWorker.controller !== null"
# Neither the page nor its worker can ask the browser to send later (Chromium's Background Sync).
NO_BACKGROUND_SYNC = """
() => !("SyncManager" in window) && !("sync" in ServiceWorkerRegistration.prototype)
"""
# The page came from the worker's copy: the note it shows then is visible.
FROM_THE_WORKERS_COPY = """
() => {
  const note = document.querySelector("[data-offline-note]");
  return note !== null && !note.hidden;
}
"""
WAITING = """
() => Number(document.querySelector("[data-queue-status]").dataset.waiting)
"""


@pytest.fixture
def line(live_server):
    """The phone's way to the live server, which the test cuts and restores."""
    server = urlsplit(live_server.url)
    relay = LineToServer((server.hostname, server.port))
    yield relay
    relay.close()


def prefer_latvian(page, origin: str) -> None:
    """The site's own language choice, its cookie (for every port of the host): WebKitGTK takes
    the browser's language from the system's locale, and a CI machine has none but C."""
    page.goto(f"{origin}/healthz")
    page.driver.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": "lv", "path": "/"})


def the_servers_sheet(page, link: str) -> dict[str, object]:
    """The sheet as the server shows it to a phone that never saw the table: the live server's
    own address, another origin, so none of the phone's worker and storage."""
    page.goto(link)
    opened(page)
    return sheet_shown(page)


def test_a_round_entered_in_webkit_with_the_server_down_lands_once_in_order(
    four_table,  # noqa: F811
    line,
    webkit_phone,
    live_server,
    tmp_path,
):
    table, servers_link = four_table
    link = servers_link.replace(live_server.url, line.origin)
    page = webkit_phone
    prefer_latvian(page, line.origin)
    page.goto(link)
    # The worker's first install fetches and keeps every file of the page: on a busy machine the
    # MiniBrowser takes longer over it than Chromium.
    page.wait_for_function(CONTROLLED, timeout=30_000)
    assert page.evaluate("() => document.documentElement.lang") == "lv"
    assert page.evaluate(NO_BACKGROUND_SYNC)
    enter_deals(page, (1, 2, 3))
    wait_until_sent(page)

    line.cut()  # the server is down: every connection refused
    enter_deals(page, range(4, 10))
    assert page.evaluate(WAITING) == 6
    assert len(stored_deals(table)) == 3

    page.reload()  # no server: the worker's copy, with the phone's queue laid on it
    opened(page)
    assert page.evaluate(FROM_THE_WORKERS_COPY)
    assert page.evaluate(WAITING) == 6
    enter_deals(page, (10, 11))
    assert page.evaluate(WAITING) == 8
    page.screenshot(str(tmp_path / "webkit-offline-11.png"))
    scored_on_the_phone = scores(sheet_shown(page))["rows"]
    assert len(scored_on_the_phone) == 11
    assert len(stored_deals(table)) == 3  # nothing reached the server while it was down

    line.restore()
    # Nothing touched: no tap, no "online" event (the phone's network never changed), no
    # Background Sync. The page's own retry sends the queue once the server answers, within
    # its longest pause (30 s), or two should one answer be an error.
    wait_until_sent(page, timeout=90_000)
    stored = stored_deals(table)
    assert [row[0] for row in stored] == list(range(1, 12))  # each position once
    assert {row[1] for row in stored} == {1}  # no version written over another
    assert len({row[4] for row in stored}) == 11  # each submission once
    assert [row[2:4] for row in stored] == [planned_entry(number) for number in range(1, 12)]

    enter_deals(page, range(12, DEALS + 1))
    wait_until_sent(page)
    assert_the_server_holds_the_round_once_in_order(table)
    phone = sheet_shown(page)
    assert not [row for row in phone["rows"] if row["phone"]]  # nothing left "on this phone"
    server = the_servers_sheet(page, servers_link)  # the phone's page is left
    assert len(server["rows"]) == DEALS and server["totals"]
    assert scores(phone) == scores(server)
    # What the phone showed offline, deal by deal, is what the server made of the same deals.
    assert scored_on_the_phone == scores(phone)["rows"][:11]
