"""The referee's phone takes every entry first (static/js/table/page.js): scored at once on the
phone, kept in its storage, shown on the sheet marked "on this phone", and sent to the server in
the background, once, when the connection allows. A refusal is shown with its reason and kept
until the referee removes it. Latvian pages at 360x740, as a referee sees them."""

import datetime
import json
import os
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.utils import translation
from playwright.sync_api import expect

from engine import PenaltyPule, Play
from engine.rules import Game
from scoring import services
from scoring.models import DealResult, TableHeard, TableResult
from scoring.services import Writer
from scoring.sheet.reader import table_sheet
from tests.factories import (
    make_organiser,
    make_published_round,
    make_tournament,
    play_round_with,
    seat_keys,
)
from tournaments import services as round_services
from tournaments.models import TableToken
from tournaments.services import ServiceError

from .conftest import RECORD_VIOLATIONS, assert_fits_the_phone, no_violations, sign_in, t

pytestmark = pytest.mark.django_db(transaction=True)

IDLE = "#entry-form[data-queue='idle']"
STATUS = "#entry-form .entry-deal-form [data-queue-status]"
SAVE = f"button:has-text('{t('Save the deal')}')"
OTHER_DEVICE = Writer(ip_address="10.0.0.7")
SHOTS = Path(os.environ.get("E2E_SCREENSHOTS") or "/tmp/offline-client")


def a_table(players: int = 3, **options):
    round_ = make_published_round(make_tournament(table_size=players, **options), players=players)
    table = round_.tables.get()
    token = TableToken.objects.get(table=table, revoked_at__isnull=True).token
    return table, f"/r/{token}/"


def open_offline(page, url: str) -> None:
    """The table's page opened while online, then the connection cut."""
    page.goto(url)
    ready(page)
    page.context.set_offline(True)


def ready(page) -> None:
    """The page's script has laid the phone's queue over the sheet."""
    page.wait_for_selector("#entry-form[data-queue]", state="attached")


def lielais(page, declarer: str, points: int = 75, tricks: int = 5) -> None:
    page.check("input[name='deal-game'][value='lielais']")
    page.check(f"input[name='deal-declarer'][value='{declarer}']")
    page.fill("input[name='deal-points']", str(points))
    page.fill("input[name='deal-tricks']", str(tricks))
    rows = page.locator(".entry-sheet tbody tr").count()
    page.click(SAVE)
    # Taken (a row more, and the next entry's form in place and open) or refused: a referee's
    # next tap comes after that, never within the frame in which the next form is made.
    page.wait_for_function(
        """(rows) => {
            const forms = document.getElementById("entry-form");
            const taken = document.querySelectorAll(".entry-sheet tbody tr").length > rows;
            const next = forms && forms.querySelector("form:not([data-taken]) .entry-submit");
            const waits = forms && forms.querySelector(".entry-confirm-waits");
            const refused = forms && forms.querySelector(".errors");
            return (taken && (next || waits)) || refused;
        }""",
        arg=rows,
    )


def sync_posts(page) -> list[dict]:
    """The bodies of the syncs the server answered (an attempt offline never left the phone)."""
    posts: list[dict] = []
    page.context.on(
        "requestfinished",
        lambda request: (
            posts.append(json.loads(request.post_data))
            if request.method == "POST" and request.url.endswith("/entries/")
            else None
        ),
    )
    return posts


def heard(table) -> TableHeard:
    """What the chief referee's round page says is on the table's phone."""
    return TableHeard.objects.get(table=table)


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_an_offline_deal_is_on_the_sheet_at_once_and_reaches_the_server_once(live_server, browser):
    table, link = a_table()
    seats = seat_keys(table)
    # No service worker: every sync is the page's own, and each is seen here.
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, locale="lv-LV", service_workers="block"
    )
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    posts = sync_posts(page)
    open_offline(page, live_server.url + link)

    lielais(page, seats[1])

    row = page.locator("tr.on-phone").first
    expect(row).to_be_visible()
    expect(row).to_contain_text(t("on this phone"))
    # Lielais won 75/5 at a table of three: +2 for the declarer, -1 each for the others.
    expect(row.locator("td.entry-cell .total")).to_have_text(["-1", "2", "-1"])
    # The form is the next deal's, empty, with a key of its own.
    expect(page.locator("input[name='deal-position']")).to_have_value("2")
    expect(page.locator("input[name='deal-game']:checked")).to_have_count(0)
    status = page.locator(STATUS)
    expect(status).to_have_attribute("data-waiting", "1")
    expect(status).to_contain_text(t("No connection"))
    expect(status).to_contain_text(t("Waiting on this phone: %(count)s") % {"count": 1})
    expect(page.locator("#entry-form")).to_have_attribute("data-queue", "waiting")
    assert DealResult.objects.filter(table=table).count() == 0
    shot(page, "offline-deal-360")
    assert_fits_the_phone(page)

    page.context.set_offline(False)
    page.wait_for_selector(IDLE + " .entry-deal-form [data-queue-status][data-waiting='0']")
    expect(page.locator("tr.on-phone")).to_have_count(0)
    expect(page.locator("#entry-1")).to_be_visible()
    stored = DealResult.objects.get(table=table)
    sent = [entry for post in posts for entry in post["entries"]]
    assert [entry["key"] for entry in sent] == [stored.client_key]
    assert sent[0]["scores"] == {seats[0]: -1, seats[1]: 2, seats[2]: -1}
    expect(status).to_contain_text(t("Every entry is on the server."))
    expect(status).not_to_contain_text(t("No connection"))
    no_violations(page)
    context.close()


def test_the_count_of_waiting_entries_is_beside_the_save_button(live_server, open_page):
    table, link = a_table()
    seats = seat_keys(table)
    page = open_page()
    open_offline(page, live_server.url + link)
    for number in range(3):
        lielais(page, seats[1])
        expect(page.locator("tr.on-phone")).to_have_count(number + 1)

    status = page.locator(STATUS)
    expect(status).to_have_attribute("data-waiting", "3")
    expect(status).to_contain_text(t("Waiting on this phone: %(count)s") % {"count": 3})
    button = page.locator(SAVE)
    button.scroll_into_view_if_needed()
    for seen in (button, status):
        box = seen.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 740, seen
    # Three won Lielais by the same declarer: the running totals are the phone's own.
    expect(page.locator("tr.on-phone").nth(2).locator(".total")).to_have_text(["-3", "6", "-3"])
    shot(page, "waiting-three-360")
    assert_fits_the_phone(page)

    page.set_viewport_size({"width": 1366, "height": 900})
    page.locator("tr.on-phone").first.scroll_into_view_if_needed()
    shot(page, "waiting-three-1366")
    no_violations(page)


def test_a_retry_while_offline_leaves_the_next_entrys_form_in_place(live_server, open_page):
    """Each retry with no connection reads the phone's queue again; the form the referee is
    about to fill in (his focus, the button under his thumb) is the same element after it."""
    table, link = a_table()
    seats = seat_keys(table)
    page = open_page()
    open_offline(page, live_server.url + link)
    lielais(page, seats[1])
    expect(page.locator(STATUS)).to_have_attribute("data-waiting", "1")
    button = page.locator(SAVE).element_handle()
    page.locator("input[name='deal-points']").focus()

    # Coming back into view, the page reads the queue again and tries to send (and fails, and
    # reads the queue once more): done when the state goes from "sending" back to "waiting".
    page.evaluate(
        """() => new Promise((done) => {
            const forms = document.getElementById("entry-form");
            let sent = false;
            new MutationObserver(() => {
                sent = sent || forms.dataset.queue === "sending";
                if (sent && forms.dataset.queue === "waiting") done();
            }).observe(forms, { attributes: true, attributeFilter: ["data-queue"] });
            document.dispatchEvent(new Event("visibilitychange"));
        })"""
    )
    assert button.evaluate("(node) => node.isConnected")
    assert page.evaluate("document.activeElement.name") == "deal-points"
    lielais(page, seats[2])
    expect(page.locator("tr.on-phone")).to_have_count(2)


def test_an_entry_the_scoring_refuses_is_shown_with_the_engines_message_and_not_kept(
    live_server, open_page
):
    table, link = a_table()
    seats = seat_keys(table)
    page = open_page()
    open_offline(page, live_server.url + link)
    for _ in range(4):
        page.click(f"summary:has-text('{t('Give a penalty pule')}')")
        page.check(f"input[name='penalty-player'][value='{seats[0]}']")
        page.click(f"button:has-text('{t('Give the penalty pule')}')")

    refusal = page.locator("[data-phone-refusal]")
    expect(refusal).to_be_visible()
    expect(page.locator("tr.on-phone")).to_have_count(3)
    expect(page.locator(STATUS)).to_have_attribute("data-waiting", "3")
    shot(page, "scoring-refusal-360")

    page.context.set_offline(False)
    page.wait_for_selector(IDLE)
    with translation.override("lv"), pytest.raises(ServiceError) as server:
        services.deal_record(
            table=table,
            entry=PenaltyPule(seats[0]),
            position=4,
            client_key="the-fourth-penalty",
            writer=OTHER_DEVICE,
        )
    assert refusal.inner_text() == str(server.value)
    assert DealResult.objects.filter(table=table).count() == 3


def test_a_deal_another_device_entered_first_is_kept_refused_until_removed(live_server, open_page):
    table, link = a_table()
    seats = seat_keys(table)
    page = open_page()
    open_offline(page, live_server.url + link)
    lielais(page, seats[1])
    lielais(page, seats[2])
    services.deal_record(
        table=table,
        entry=Play(Game.ZOLE, seats[0], tricks=6, points=80),
        position=1,
        client_key="the-other-phone",
        writer=OTHER_DEVICE,
    )

    page.context.set_offline(False)
    conflict = page.locator("tr.on-phone.refused.conflict")
    expect(conflict).to_be_visible()
    # The server's deal 1, then this phone's own version of it, with the reason.
    expect(page.locator("#entry-1 + tr.on-phone.refused.conflict")).to_have_count(1)
    expect(conflict.locator(".entry-refusal")).not_to_be_empty()
    # Deal 2 waits behind the refused one: it is not sent.
    status = page.locator(STATUS)
    expect(status).to_have_attribute("data-refused", "1")
    expect(status).to_have_attribute("data-waiting", "1")
    assert DealResult.objects.filter(table=table).count() == 1
    shot(page, "conflict-360")
    assert_fits_the_phone(page)

    assert (heard(table).waiting, heard(table).refused) == (1, 1)  # as the chief referee sees
    conflict.locator("button[data-queue-remove]").click()
    page.wait_for_selector(IDLE + " .entry-deal-form [data-queue-status][data-waiting='0']")
    expect(page.locator("tr.on-phone")).to_have_count(0)
    keys = (
        DealResult.objects.filter(table=table)
        .order_by("position")
        .values_list("client_key", flat=True)
    )
    assert len(keys) == 2
    assert keys[0] == "the-other-phone"  # the server's deal 1 stays; this phone's deal 2 follows
    assert (heard(table).waiting, heard(table).refused) == (0, 0)
    no_violations(page)


def test_the_server_is_told_when_a_refused_entry_leaves_the_phone(live_server, open_page):
    """Nothing is left to send once the referee removes the phone's refused deal: the server is
    told all the same, and the chief referee's page no longer says an entry was refused."""
    table, link = a_table()
    seats = seat_keys(table)
    page = open_page()
    open_offline(page, live_server.url + link)
    lielais(page, seats[1])
    services.deal_record(
        table=table,
        entry=Play(Game.ZOLE, seats[0], tricks=6, points=80),
        position=1,
        client_key="the-other-phone",
        writer=OTHER_DEVICE,
    )
    page.context.set_offline(False)
    conflict = page.locator("tr.on-phone.refused.conflict")
    expect(conflict).to_be_visible()
    assert (heard(table).waiting, heard(table).refused) == (0, 1)

    with page.expect_response(lambda response: response.url.endswith("/entries/")) as answer:
        conflict.locator("button[data-queue-remove]").click()
    assert answer.value.request.post_data_json == {"entries": [], "waiting": 0, "refused": 0}
    assert (heard(table).waiting, heard(table).refused) == (0, 0)
    expect(page.locator(STATUS)).to_contain_text(t("Every entry is on the server."))


def test_at_a_table_of_four_the_dealer_sits_out_deal_after_deal_offline(live_server, open_page):
    table, link = a_table(players=4)
    seats = seat_keys(table)
    page = open_page()
    open_offline(page, live_server.url + link)
    first = table.first_dealer_position - 1
    for deal in range(6):
        dealer = seats[(first + deal) % 4]
        expect(page.locator("input[name='deal-sits_out']")).to_have_value(dealer)
        offered = page.locator("input[name='deal-declarer']")
        expect(offered).to_have_count(3)
        assert dealer not in [offered.nth(i).get_attribute("value") for i in range(3)]
        declarer = seats[(first + deal + 1) % 4]
        lielais(page, declarer)
        row = page.locator("tr.on-phone").nth(deal)
        expect(row.locator("td.sits-out")).to_have_count(1)
    shot(page, "four-table-offline-360")
    assert_fits_the_phone(page)

    page.context.set_offline(False)
    page.wait_for_selector(IDLE + " .entry-deal-form [data-queue-status][data-waiting='0']")
    sheet = table_sheet(table_id=table.pk)
    assert [row.sitting_out.key for row in sheet.rows] == [
        seats[(first + deal) % 4] for deal in range(6)
    ]
    assert [row.declarer.key for row in sheet.rows] == [
        seats[(first + deal + 1) % 4] for deal in range(6)
    ]


def test_a_confirmation_given_offline_is_sent_behind_the_deals(live_server, open_page):
    table, link = a_table()
    play_round_with(table.round, deals_per_round=3)
    seats = seat_keys(table)
    page = open_page()
    open_offline(page, live_server.url + link)
    for number in range(3):
        lielais(page, seats[number % 3])
    confirm = page.locator(".entry-confirm-form")
    expect(confirm).to_be_visible()
    expect(confirm.locator("input[name='confirm-deals']")).to_have_value("3")
    confirm.locator(f"input[name='confirm-confirmer'][value='{seats[2]}']").check()
    confirm.locator("button.entry-submit").click()
    expect(page.locator(".entry-confirm-waits")).to_be_visible()
    shot(page, "confirmation-waits-360")
    assert not TableResult.objects.filter(table=table).exists()

    page.context.set_offline(False)
    expect(page.locator(".entry-locked-badge")).to_be_visible()
    result = TableResult.objects.get(table=table)
    assert result.confirmed_by_registration_id == int(seats[2])
    assert DealResult.objects.filter(table=table).count() == 3
    expect(page.locator("tr.on-phone")).to_have_count(0)


def test_once_time_is_called_the_phone_takes_only_the_deal_under_way(live_server, open_page):
    table, link = a_table(round_time_limit=50)
    organiser = make_organiser()
    round_services.round_clock_start(round_=table.round, by=organiser)
    seats = seat_keys(table)
    services.deal_record(
        table=table,
        entry=Play(Game.LIELAIS, seats[1], tricks=5, points=75),
        position=1,
        client_key="deal-one",
        writer=OTHER_DEVICE,
    )
    round_services.round_time_call(round_=table.round, by=organiser)
    page = open_page()
    open_offline(page, live_server.url + link)

    lielais(page, seats[2])  # the deal under way
    expect(page.locator("tr.on-phone")).to_have_count(1)
    # The phone's sheet is at the limit: the confirmation, not another deal, is offered.
    expect(page.locator(".entry-confirm-form")).to_be_visible()
    expect(page.locator("input[name='deal-game']")).to_have_count(0)
    shot(page, "time-up-offline-360")

    heading = t("Time is up: the table's round ends after deal %(number)s", number=2)
    expect(page.get_by_role("heading", name=heading)).to_be_visible()
    expect(page.locator("input[name='confirm-deals']")).to_have_value("2")

    page.context.set_offline(False)
    page.wait_for_selector(IDLE + " [data-queue-status][data-waiting='0']")
    assert DealResult.objects.filter(table=table).count() == 2
    expect(page.get_by_role("heading", name=heading)).to_be_visible()


def test_a_deal_is_corrected_offline_and_the_rows_after_it_follow(live_server, open_page):
    table, link = a_table()
    seats = seat_keys(table)
    for position, declarer in ((1, seats[1]), (2, seats[2])):
        services.deal_record(
            table=table,
            entry=Play(Game.LIELAIS, declarer, tricks=5, points=75),
            position=position,
            client_key=f"deal-{position}",
            writer=OTHER_DEVICE,
        )
    page = open_page()
    open_offline(page, live_server.url + link)

    page.click("#entry-1 a.entry-no-link")
    form = page.locator("#entry-form form.entry-deal-form")
    expect(page.get_by_role("heading", name=t("Correct deal %(number)s", number=1))).to_be_visible()
    expect(form.locator("input[name='fix-game'][value='lielais']")).to_be_checked()
    expect(form.locator(f"input[name='fix-declarer'][value='{seats[1]}']")).to_be_checked()
    expect(form.locator("input[name='fix-points']")).to_have_value("75")
    expect(form.locator("input[name='fix-base_version']")).to_have_value("1")
    form.locator("input[name='fix-points']").fill("95")
    form.locator("input[name='fix-tricks']").fill("7")
    form.locator("input[name='fix-reason']").fill("95 acis, ne 75")
    form.locator(f"button:has-text('{t('Save the correction')}')").click()

    corrected = page.locator("tr.on-phone.entry-corrected")
    expect(corrected).to_have_count(1)
    # Won with 91 points or more: +4 for the declarer; deal 2's running totals follow it.
    expect(corrected.locator(".total")).to_have_text(["-2", "4", "-2"])
    expect(page.locator("tr[data-phone-row]").nth(1).locator(".total")).to_have_text(
        ["-3", "3", "0"]
    )
    expect(page.locator("input[name='deal-position']")).to_have_value("3")
    shot(page, "correction-offline-360")

    page.context.set_offline(False)
    page.wait_for_selector(IDLE + " .entry-deal-form [data-queue-status][data-waiting='0']")
    assert list(
        DealResult.objects.filter(table=table, position=1).values_list("version", "points")
    ) == [(1, 75), (2, 95)]
    expect(page.locator("tr.on-phone")).to_have_count(0)
    no_violations(page)


def remove_last(page) -> None:
    page.click(f"summary:has-text('{t('Remove the last entry')}')")
    page.fill("input[name='remove-reason']", "ievadīts divreiz")
    page.click(f"button.entry-submit:has-text('{t('Remove the last entry')}')")


def test_the_last_entry_is_removed_on_the_phone_or_queued_for_the_server(live_server, open_page):
    table, link = a_table()
    seats = seat_keys(table)
    services.deal_record(
        table=table,
        entry=Play(Game.LIELAIS, seats[1], tricks=5, points=75),
        position=1,
        client_key="deal-1",
        writer=OTHER_DEVICE,
    )
    page = open_page()
    open_offline(page, live_server.url + link)

    # Still only on this phone: it leaves the phone, nothing is sent.
    lielais(page, seats[2])
    expect(page.locator("tr.on-phone")).to_have_count(1)
    remove_last(page)
    expect(page.locator("tr.on-phone")).to_have_count(0)
    expect(page.locator(STATUS)).to_have_attribute("data-waiting", "0")

    # On the server: the removal waits on the phone, the row is off the phone's sheet.
    remove_last(page)
    expect(page.locator("#entry-1")).to_be_hidden()
    expect(page.locator(STATUS)).to_have_attribute("data-waiting", "1")
    expect(page.locator("input[name='deal-position']")).to_have_value("1")

    page.context.set_offline(False)
    page.wait_for_selector(IDLE + " .entry-deal-form [data-queue-status][data-waiting='0']")
    assert table_sheet(table_id=table.pk).rows == ()
    assert DealResult.objects.filter(table=table).count() == 2  # the removed version is kept


def test_the_signed_in_door_takes_entries_on_the_phone_alike(live_server, open_page):
    table, _ = a_table()
    seats = seat_keys(table)
    make_organiser(username="sheet-organiser")
    page = open_page()
    sheet = f"/organise/tables/{table.pk}/sheet/"
    sign_in(page, live_server, "sheet-organiser", sheet)
    ready(page)
    page.context.set_offline(True)
    lielais(page, seats[1])
    expect(page.locator("tr.on-phone")).to_have_count(1)

    page.context.set_offline(False)
    page.wait_for_selector(IDLE + " .entry-deal-form [data-queue-status][data-waiting='0']")
    assert DealResult.objects.get(table=table).entered_by.username == "sheet-organiser"
    expect(page.locator("tr.on-phone")).to_have_count(0)
    no_violations(page)


@pytest.mark.parametrize("without", ["javascript", "indexeddb"])
def test_without_javascript_or_storage_the_forms_post_as_plain_forms(live_server, browser, without):
    table, link = a_table()
    seats = seat_keys(table)
    context = browser.new_context(
        viewport={"width": 360, "height": 740},
        locale="lv-LV",
        java_script_enabled=without != "javascript",
    )
    if without == "indexeddb":
        context.add_init_script("Object.defineProperty(window, 'indexedDB', {value: undefined})")
    page = context.new_page()
    try:
        page.goto(live_server.url + link)
        page.check("input[name='deal-game'][value='lielais']")
        page.check(f"input[name='deal-declarer'][value='{seats[1]}']")
        page.fill("input[name='deal-points']", "75")
        page.fill("input[name='deal-tricks']", "5")
        with page.expect_navigation():
            page.click(SAVE)
        expect(page.get_by_text(t("Deal saved."))).to_be_visible()
        expect(page.locator("#entry-1")).to_be_visible()
        assert page.locator("[data-queue-status]").count() == 0
        assert DealResult.objects.filter(table=table).count() == 1
    finally:
        context.close()


def test_entries_sent_through_a_link_that_was_replaced_are_kept_refused(live_server, open_page):
    table, link = a_table()
    seats = seat_keys(table)
    page = open_page()
    open_offline(page, live_server.url + link)
    lielais(page, seats[1])
    round_services.table_token_revoke(table=table, by=None)

    page.context.set_offline(False)
    refused = page.locator("tr.on-phone.refused")
    expect(refused).to_have_count(1)
    expect(refused.locator(".entry-refusal")).to_have_text(
        t("This link was replaced: ask the organiser for the new one.")
    )
    expect(page.locator(STATUS)).to_have_attribute("data-refused", "1")
    assert not DealResult.objects.filter(table=table).exists()
    # Nothing waits: the sheet's progress is the server's again, as the forms are.
    progress = t("Deal %(number)s of %(total)s", number=1, total=24)
    expect(page.locator(".entry-progress")).to_have_text(progress)
    shot(page, "link-replaced-360")


def test_names_that_look_like_markup_are_written_as_text_on_the_phone(live_server, open_page):
    table, link = a_table()
    seats = seat_keys(table)
    hostile = '<img src=x onerror="document.title=1">&amp; "Ēriks"'
    first = table.seats.select_related("registration__player").get(registration_id=int(seats[1]))
    first.registration.player.full_name = hostile
    first.registration.player.save()
    page = open_page()
    open_offline(page, live_server.url + link)
    lielais(page, seats[1])

    row = page.locator("tr.on-phone")
    expect(row).to_have_count(1)
    assert row.locator("img").count() == 0
    assert page.locator("#entry-form img").count() == 0
    expect(row.locator(".declarer abbr")).to_have_attribute("title", hostile)
    expect(
        page.locator(f"input[name='deal-declarer'][value='{seats[1]}'] >> xpath=..")
    ).to_contain_text(hostile)
    no_violations(page)


def test_the_phone_waits_as_the_server_asks_and_sends_again(live_server, browser):
    table, link = a_table()
    seats = seat_keys(table)
    # No service worker (its Background Sync would send it again too): the page's own backoff.
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, locale="lv-LV", service_workers="block"
    )
    page = context.new_page()
    page.goto(live_server.url + link)
    ready(page)
    answers: list[int] = []

    def busy_once(route) -> None:
        """The server's database away for a moment: 503, Retry-After 1, then through."""
        if not answers:
            answers.append(503)
            route.fulfill(status=503, headers={"Retry-After": "1"}, body="try again")
        else:
            answers.append(200)
            route.continue_()

    page.route(lambda url: url.endswith("/entries/"), busy_once)
    lielais(page, seats[1])
    expect(page.locator("tr.on-phone")).to_have_count(1)
    page.wait_for_selector(IDLE + " .entry-deal-form [data-queue-status][data-waiting='0']")
    assert answers == [503, 200]
    assert DealResult.objects.filter(table=table).count() == 1
    expect(page.locator("tr.on-phone")).to_have_count(0)
    context.close()


def test_the_phone_writes_times_in_the_tournaments_time_zone(live_server, browser):
    """A phone set to another time zone still writes the hall's time, as the server does."""
    _table, link = a_table()
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, locale="lv-LV", timezone_id="America/New_York"
    )
    page = context.new_page()
    page.goto(live_server.url + link)
    ready(page)
    heard = json.loads(page.locator("#table-state").text_content())["heard"]
    answered = datetime.datetime.fromisoformat(heard.replace("Z", "+00:00"))
    hall = answered.astimezone(ZoneInfo(settings.TIME_ZONE)).strftime("%H:%M")
    expect(page.locator(STATUS)).to_contain_text(
        t("Server's last answer: %(time)s") % {"time": hall}
    )
    context.close()
