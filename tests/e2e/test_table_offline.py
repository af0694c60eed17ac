"""The table link opens with no network once it was opened online: a reload, a new tab and a
restarted browser show the sheet as the phone last saw it, with a note that says so. The
service worker serves it; without the network nothing else would."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.factories import make_published_round, make_tournament, seat_keys
from tournaments.models import TableToken

from .conftest import (
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    assert_fits_the_phone,
    enter_lielais,
    no_violations,
    t,
)

pytestmark = pytest.mark.django_db(transaction=True)

CONTROLLED = "() => navigator.serviceWorker.controller !== null"
# The worker's copy of this table's page holds the row of the deal saved in place.
KEPT_WITH_ROW = """
async (row) => {
  const cache = await caches.open("zole-table-pages");
  const kept = await cache.match(location.origin + location.pathname);
  return kept !== undefined && (await kept.text()).includes(row);
}
"""
KEPT_PAGES = """
async () => {
  const cache = await caches.open("zole-table-pages");
  return (await cache.keys()).map((request) => request.method + " " + request.url);
}
"""
NOTE = "No connection: the sheet as this phone last saw it."


def a_table_link(live_server) -> tuple[str, list[str]]:
    round_ = make_published_round(make_tournament(table_size=3), players=3)
    table = round_.tables.get()
    token = TableToken.objects.get(table=table, revoked_at__isnull=True).token
    return f"{live_server.url}/r/{token}/", seat_keys(table)


def open_and_save_a_deal(page, link: str, seats: list[str]) -> None:
    """The referee opens the link online and saves the first deal; the worker then keeps the
    page with its row."""
    page.goto(link)
    page.wait_for_function(CONTROLLED)
    enter_lielais(page, seats[1])
    assert page.locator("#entry-1").is_visible()
    wait_until_kept(page, 'id="entry-1"')


def wait_until_kept(page, row: str) -> None:
    # wait_for_function takes a promise for a true answer: the cache is read in a loop here.
    for _attempt in range(100):
        if page.evaluate(KEPT_WITH_ROW, row):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the worker never kept the page with {row}")


def assert_the_sheet_as_last_seen(page) -> None:
    assert page.locator("#entry-1").is_visible()  # the saved deal's row
    assert page.get_by_text(t(NOTE)).is_visible()
    # In view wherever the page opens (a saved deal's address opens at the form).
    expect(page.get_by_text(t(NOTE))).to_be_in_viewport()
    assert page.locator("link[rel=stylesheet]").count() == 1
    # The styles came too (from the worker): the note is styled as a warning.
    background = page.eval_on_selector(
        "[data-offline-note]", "note => getComputedStyle(note).backgroundColor"
    )
    assert background == "rgb(255, 248, 230)"


def test_online_the_note_stays_hidden(live_server, phone):
    link, _seats = a_table_link(live_server)
    phone.goto(link)
    phone.wait_for_function(CONTROLLED)
    phone.reload()
    assert phone.locator("[data-offline-note]").is_hidden()


def test_offline_a_reload_and_a_new_tab_show_the_sheet_as_last_seen(
    live_server, open_page, tmp_path
):
    link, seats = a_table_link(live_server)
    page = open_page()
    open_and_save_a_deal(page, link, seats)
    # One copy of the link, whatever address the saved deal gave the page; no answer to a POST.
    assert page.evaluate(KEPT_PAGES) == [f"GET {link}"]
    page.context.set_offline(True)
    page.reload()
    assert_the_sheet_as_last_seen(page)
    assert_fits_the_phone(page)
    no_violations(page)  # the kept copy keeps the page's strict policy

    page.close()
    tab = page.context.new_page()
    tab.goto(link)
    assert_the_sheet_as_last_seen(tab)
    no_violations(tab)
    tab.screenshot(path=str(tmp_path / "offline-tab.png"), full_page=True)


def test_back_online_the_phone_says_so_without_a_reload(live_server, open_page, shots):
    """The note of a copy opened offline goes once the server answers again; the state line
    beside Save says what is true: no connection, then every entry on the server."""
    link, seats = a_table_link(live_server)
    page = open_page()
    open_and_save_a_deal(page, link, seats)
    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector("#entry-form[data-queue]", state="attached")
    note = page.locator("[data-offline-note]")
    expect(note).to_be_visible()
    assert note.bounding_box()["height"] <= 56  # two short lines at most, on a 740 px screen
    state = page.locator("#entry-form .entry-deal-form [data-queue-status]")
    expect(state).to_contain_text(t("No connection"))
    expect(state).not_to_contain_text(t("Every entry is on the server."))
    page.screenshot(path=str(shots / "phone-offline-reload-360.png"))

    page.context.set_offline(False)
    expect(note).to_be_hidden()
    expect(state).to_contain_text(t("Every entry is on the server."))
    expect(state).not_to_contain_text(t("No connection"))
    state.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "phone-reconnected-360.png"))
    assert_fits_the_phone(page)
    no_violations(page)


def test_offline_the_restarted_browser_shows_the_sheet_as_last_seen(live_server, browser, tmp_path):
    link, seats = a_table_link(live_server)
    profile = tmp_path / "profile"

    def launch(**options):
        return browser.browser_type.launch_persistent_context(
            str(profile),
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            viewport=PHONE,
            locale="lv-LV",
            **options,
        )

    phone = launch()
    page = phone.pages[0] if phone.pages else phone.new_page()
    page.set_default_timeout(15_000)
    open_and_save_a_deal(page, link, seats)
    phone.close()

    phone = launch(offline=True)
    page = phone.pages[0] if phone.pages else phone.new_page()
    page.set_default_timeout(15_000)
    page.goto(link)
    assert_the_sheet_as_last_seen(page)
    phone.close()


def test_offline_another_tables_link_is_not_shown_from_the_phone(live_server, phone):
    """The worker keeps only the links this phone opened, each as its own copy."""
    link, _seats = a_table_link(live_server)
    phone.goto(link)
    phone.wait_for_function(CONTROLLED)
    phone.context.set_offline(True)
    other, _seats = a_table_link(live_server)  # another table, never opened on this phone
    with pytest.raises(Exception, match="net::ERR_"):
        phone.goto(other)


def test_offline_a_link_the_server_has_since_refused_is_not_shown(live_server, phone):
    """A link replaced or revoked (the table re-seated, the link withdrawn) answers 410 online;
    from then on the phone no longer shows its old sheet offline."""
    link, _seats = a_table_link(live_server)
    phone.goto(link)
    phone.wait_for_function(CONTROLLED)
    # The page's first sync answered: the live server's shared SQLite refuses a write while a
    # request of its own reads the table.
    phone.wait_for_selector("#entry-form[data-queue='idle']", state="attached")
    token = link.rstrip("/").rsplit("/", 1)[1]
    TableToken.objects.filter(token=token).update(revoked_at=timezone.now())
    assert phone.reload().status == 410
    phone.context.set_offline(True)
    with pytest.raises(Exception, match="net::ERR_"):
        phone.reload()
