"""A whole round of a table of four entered on a referee's phone (360x740) that loses the
connection for most of it: every deal is written on the phone at once and shown with its
running scores, the phone survives a reload and a restarted browser with no network, and once
the connection is back the server holds each deal once, in order, and the phone's sheet is the
server's. Also two phones on one link, an answer lost after the server stored the entries, and
(tests/e2e/test_offline_server_restart.py) the server restarted mid-round."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import DealResult, TableHeard
from tests.factories import make_published_round, make_tournament
from tournaments.models import TableToken

from .conftest import (
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    RECORD_VIOLATIONS,
    assert_fits_the_phone,
    no_violations,
)
from .table_phone import (
    DEALS,
    enter_deal,
    enter_deals,
    opened,
    planned_entry,
    scores,
    sheet_shown,
    wait_until_sent,
    waiting_on_the_phone,
)

pytestmark = pytest.mark.django_db(transaction=True)

CONTROLLED = "() => navigator.serviceWorker.controller !== null"


@pytest.fixture
def four_table(live_server):
    """A published round with one table of four playing 28 deals; its link."""
    round_ = make_published_round(make_tournament(table_size=4, deals_per_round=DEALS), players=4)
    table = round_.tables.get()
    token = TableToken.objects.get(table=table, revoked_at__isnull=True).token
    return table, f"{live_server.url}/r/{token}/"


@pytest.fixture
def phone_profile(browser, tmp_path):
    """`launch(offline=False)`: the phone's browser on its own profile (a folder kept between
    launches: its service worker, its caches, its IndexedDB), at 360x740, in Latvian."""
    contexts = []

    def launch(offline: bool = False):
        # Offline from its very start: Playwright's switch reaches the service worker only once
        # it is attached, and a worker woken at the browser's start (Background Sync) would
        # reach the server before; every request then goes to a proxy that is not there.
        no_network = ["--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>"]
        context = browser.browser_type.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS + (no_network if offline else []),
            viewport=PHONE,
            locale="lv-LV",
            offline=offline,
        )
        context.add_init_script(RECORD_VIOLATIONS)
        contexts.append(context)
        page = context.pages[0] if context.pages else context.new_page()
        page.set_default_timeout(15_000)
        return page

    yield launch
    for context in contexts:
        context.close()  # nothing when the test closed it already


def stored_deals(table) -> list[tuple[int, int, str, str, str]]:
    """The server's entries of the table: position, version, kind, game, client key."""
    return list(
        DealResult.objects.filter(table=table)
        .order_by("position", "version")
        .values_list("position", "version", "kind", "game", "client_key")
    )


def assert_the_server_holds_the_round_once_in_order(table) -> None:
    stored = stored_deals(table)
    assert [row[0] for row in stored] == list(range(1, DEALS + 1))  # each position once
    assert {row[1] for row in stored} == {1}  # no version written over another
    assert len({row[4] for row in stored}) == DEALS  # each submission once
    planned = [planned_entry(number) for number in range(1, DEALS + 1)]
    assert [row[2:4] for row in stored] == planned  # in the order entered


def the_servers_sheet(browser, link: str, locale: str) -> dict[str, object]:
    """The sheet as the server shows it to a phone that never saw the table."""
    context = browser.new_context(viewport=PHONE, locale=locale, service_workers="block")
    try:
        page = context.new_page()
        page.goto(link)
        return sheet_shown(page)
    finally:
        context.close()


def assert_the_phone_shows_the_servers_sheet(page, browser, link: str) -> None:
    phone = sheet_shown(page)
    assert not [row for row in phone["rows"] if row["phone"]]  # nothing left "on this phone"
    server = the_servers_sheet(browser, link, page.evaluate("navigator.language"))
    assert len(server["rows"]) == DEALS
    assert server["totals"]  # the sheet is complete: settled, with its totals
    phone_rows, server_rows = scores(phone)["rows"], scores(server)["rows"]
    differing = [
        (index + 1, mine, theirs)
        for index, (mine, theirs) in enumerate(zip(phone_rows, server_rows, strict=False))
        if mine != theirs
    ]
    assert not differing and len(phone_rows) == len(server_rows), (
        len(phone_rows),
        differing[:2],
    )
    assert scores(phone) == scores(server)


def rows_on_the_phone(page) -> int:
    return page.locator(".entry-sheet tbody tr.on-phone").count()


def test_a_round_entered_offline_through_a_reload_and_a_restarted_browser_lands_once(
    four_table, phone_profile, browser, tmp_path
):
    table, link = four_table
    page = phone_profile()
    page.goto(link)
    page.wait_for_function(CONTROLLED)
    enter_deals(page, (1, 2))
    wait_until_sent(page)

    page.context.set_offline(True)
    enter_deals(page, range(3, 9))
    # Every deal is on the sheet with its running scores, marked as still on this phone; the
    # count beside Save says so, in view on the phone.
    assert rows_on_the_phone(page) == 6
    assert waiting_on_the_phone(page) == 6
    expect(page.locator("[data-queue-status]").first).to_be_in_viewport()
    assert page.locator("#entry-form").get_attribute("data-queue") == "waiting"
    assert len(stored_deals(table)) == 2

    page.reload()  # offline: the worker's copy, with the phone's queue laid on it
    opened(page)
    assert rows_on_the_phone(page) == 6
    assert waiting_on_the_phone(page) == 6
    assert sheet_shown(page)["rows"][7]["number"] == "8"
    enter_deals(page, range(9, 15))
    assert_fits_the_phone(page)
    page.screenshot(path=str(tmp_path / "offline-14.png"), full_page=True)
    page.context.close()

    page = phone_profile(offline=True)  # the browser restarted, still with no network
    page.goto(link)
    opened(page)
    assert rows_on_the_phone(page) == 12
    assert waiting_on_the_phone(page) == 12
    enter_deals(page, range(15, 21))
    assert waiting_on_the_phone(page) == 18
    assert len(stored_deals(table)) == 2  # nothing reached the server while offline
    scored_on_the_phone = scores(sheet_shown(page))["rows"]

    page.context.close()
    page = phone_profile()  # back online (the browser started again, with the network)
    page.goto(link)
    opened(page)
    enter_deals(page, range(21, DEALS + 1))
    wait_until_sent(page)
    assert waiting_on_the_phone(page) == 0
    # The chief referee's round page says so too: nothing waits on the phone.
    heard = TableHeard.objects.get(table=table)
    assert (heard.waiting, heard.refused) == (0, 0)
    assert_the_server_holds_the_round_once_in_order(table)
    assert_the_phone_shows_the_servers_sheet(page, browser, link)
    # What the phone showed offline, deal by deal, is what the server made of the same deals.
    assert scored_on_the_phone == scores(sheet_shown(page))["rows"][:20]
    no_violations(page)


@pytest.fixture
def phones(browser):
    """`phones(2)`: that many phones (each its own browser storage) on a table's link."""
    contexts = []

    def open_phones(count: int):
        pages = []
        for _ in range(count):
            context = browser.new_context(viewport=PHONE, locale="lv-LV")
            contexts.append(context)
            page = context.new_page()
            page.set_default_timeout(15_000)
            pages.append(page)
        return pages

    yield open_phones
    for context in contexts:
        context.close()


def test_two_phones_on_one_link_offline_keep_both_versions_of_deal_7(
    four_table, phones, browser, tmp_path
):
    table, link = four_table
    first, second = phones(2)
    for phone in (first, second):
        phone.goto(link)
        phone.wait_for_function(CONTROLLED)
    enter_deals(first, (1, 2))
    wait_until_sent(first)

    # Both lose the connection; the first phone enters deals 3 to 6 and sends them when back.
    for phone in (first, second):
        phone.context.set_offline(True)
    enter_deals(first, range(3, 7))
    first.context.set_offline(False)
    wait_until_sent(first)
    assert len(stored_deals(table)) == 6

    # The second phone, back on the link, enters deals 7 to 10 offline; the first, offline
    # again, enters its own deal 7 (another game, another declarer).
    second.context.set_offline(False)
    second.reload()
    opened(second)
    assert len(sheet_shown(second)["rows"]) == 6
    second.context.set_offline(True)
    enter_deals(second, range(7, 11))
    first.context.set_offline(True)
    enter_deal(first, 7, game="zole", choice=2, points=20, tricks=1)
    assert waiting_on_the_phone(second) == 4
    assert waiting_on_the_phone(first) == 1

    second.context.set_offline(False)
    wait_until_sent(second)
    first.context.set_offline(False)
    # The first phone's deal 7 came second: the server's row, then the phone's own version,
    # kept and marked with the reason, until the referee removes it.
    conflict = first.locator(".entry-sheet tbody tr.on-phone.refused.conflict")
    conflict.wait_for()
    rows = sheet_shown(first)["rows"]
    assert [row["number"] for row in rows[:7]] == [str(number) for number in range(1, 8)]
    servers_seventh = scores(sheet_shown(second))["rows"][6]
    assert scores({**sheet_shown(first), "rows": rows[6:7]})["rows"] == [servers_seventh]
    assert not rows[6]["phone"]  # the server's deal 7 (the second phone's)
    assert rows[7]["conflict"] and rows[7]["refused"]  # right after it, the phone's own
    assert len(rows) == 11  # and the second phone's deals 8 to 10
    assert conflict.locator(".entry-refusal").inner_text().strip()
    assert first.locator("[data-queue-status]").first.get_attribute("data-refused") == "1"
    assert len(stored_deals(table)) == 10  # the phone's version did not replace the other
    first.screenshot(path=str(tmp_path / "two-phones-conflict.png"), full_page=True)
    first.locator("button[data-queue-remove]").click()
    conflict.wait_for(state="detached")
    assert first.locator("[data-queue-status]").first.get_attribute("data-refused") == "0"

    enter_deals(first, range(11, DEALS + 1))
    wait_until_sent(first)
    assert_the_server_holds_the_round_once_in_order(table)
    assert_the_phone_shows_the_servers_sheet(first, browser, link)
    second.reload()
    opened(second)
    assert_the_phone_shows_the_servers_sheet(second, browser, link)


def test_entries_whose_answer_is_lost_are_sent_again_and_stored_once(four_table, phone, browser):
    """The connection breaks after the server received the phone's entries and before the
    phone got the answer, twice: the phone keeps them waiting and sends them again with the
    same keys; the server stores each once."""
    table, link = four_table
    sent: list[list[str]] = []
    lost: list[list[str]] = []

    def answer_lost(route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        keys = [entry["key"] for entry in route.request.post_data_json["entries"]]
        sent.append(keys)
        if len(lost) < 2:
            route.fetch()  # the server receives it and answers...
            lost.append(keys)
            route.abort("connectionreset")  # ...but the answer never reaches the phone
        else:
            route.continue_()

    phone.context.route("**/entries/", answer_lost)
    phone.goto(link)
    phone.wait_for_function(CONTROLLED)
    enter_deal(phone, 1)
    phone.wait_for_function("() => document.querySelector('[data-queue-status]')")
    for _attempt in range(100):
        if lost:
            break
        phone.wait_for_timeout(50)
    # The server has deal 1; the phone does not know it yet and keeps it waiting.
    assert len(stored_deals(table)) == 1
    assert waiting_on_the_phone(phone) >= 1
    enter_deals(phone, range(2, DEALS + 1))
    wait_until_sent(phone)

    assert len(lost) == 2 and len(sent) > 2
    resent = {key for keys in sent[2:] for key in keys}
    assert set(lost[0]) <= resent  # the very same entries again, by their keys
    assert_the_server_holds_the_round_once_in_order(table)
    assert_the_phone_shows_the_servers_sheet(phone, browser, link)


# The phone's own sends fail from now on (its requests never reach the server) and it has no
# Background Sync: whatever sends its entries is the test, calling the queue as the service
# worker does.
PAGE_SENDS_NOTHING = """
() => {
  window.realFetch = window.fetch;
  window.fetch = () => Promise.reject(new TypeError("this page has no network"));
  navigator.serviceWorker.getRegistration = () => Promise.resolve(undefined);
}
"""

# The service worker's send (Background Sync): the same queue, the real network.
SENT_BY_THE_WORKER = """
async (link) => {
  const failing = window.fetch;
  window.fetch = window.realFetch;
  try {
    const outcome = await window.ZoleQueue.sendOnce(link);
    return Boolean(outcome.answer);
  } finally {
    window.fetch = failing;
  }
}
"""


def test_entries_another_sender_stored_show_as_the_servers_rows_at_once(four_table, phone):
    """The service worker sent the entry waiting on the phone and the page has not been told
    yet: when the page then finds nothing left to send, it shows the sheet the worker kept,
    with the entry on it, never the older sheet without it (nor the form for a deal that is
    already in)."""
    table, link = four_table
    phone.goto(link)
    phone.wait_for_function(CONTROLLED)
    enter_deal(phone, 1)
    wait_until_sent(phone)
    phone.evaluate(PAGE_SENDS_NOTHING)
    enter_deal(phone, 2)
    phone.wait_for_function(
        "() => document.getElementById('entry-form').dataset.queue === 'waiting'"
    )

    assert phone.evaluate(SENT_BY_THE_WORKER, phone.evaluate("location.pathname"))
    assert len(stored_deals(table)) == 2
    phone.evaluate("() => { window.fetch = window.realFetch; }")
    phone.evaluate("() => window.dispatchEvent(new Event('online'))")  # the page tries again
    wait_until_sent(phone)

    rows = sheet_shown(phone)["rows"]
    assert [(row["number"], row["phone"]) for row in rows] == [("1", False), ("2", False)]
    positions = phone.locator("#entry-form input[name='deal-position']")
    offered = positions.evaluate_all("(fields) => fields.map((field) => Number(field.value))")
    assert offered == [3]  # the form for the next deal, none for one already in
