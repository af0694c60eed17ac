"""The phone sends its entries again by itself when the connection breaks or the server answers
503 (the database away for a moment), with the same client keys: each is stored once, and the
referee sees it saved without doing anything. Meanwhile the entry is on the sheet, marked as on
this phone, and the next deal can be entered at once."""

import pytest
from playwright.sync_api import expect

from scoring.models import DealResult
from tests.factories import make_published_round, make_tournament
from tournaments.models import TableToken

from .conftest import assert_fits_the_phone, send_entry
from .table_phone import enter_deal, wait_until_sent, waiting_on_the_phone

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def link_of_a_table(live_server):
    round_ = make_published_round(make_tournament(table_size=3), players=3)
    table = round_.tables.get()
    token = TableToken.objects.get(table=table, revoked_at__isnull=True).token
    return table, f"{live_server.url}/r/{token}/"


def test_a_deal_whose_answer_is_lost_then_503_is_sent_again_and_stored_once(
    link_of_a_table, phone, tmp_path
):
    table, link = link_of_a_table
    sent: list[list[str]] = []

    def network(route) -> None:
        """1st send: it reaches the server (the deal is stored), then the connection breaks
        before the answer; 2nd: the server answers 503; 3rd: through."""
        if route.request.method != "POST":
            route.continue_()
            return
        sent.append([entry["key"] for entry in route.request.post_data_json["entries"]])
        if len(sent) == 1:
            route.fetch()
            route.abort("connectionreset")
        elif len(sent) == 2:
            route.fulfill(status=503, headers={"Retry-After": "1"}, body="try again")
        else:
            route.continue_()

    phone.context.route("**/entries/", network)
    phone.goto(link)
    enter_deal(phone, 1)
    wait_until_sent(phone)

    assert len(sent) == 3
    assert sent[0] == sent[1] == sent[2]  # the very same entry each time, by its key
    assert DealResult.objects.filter(table=table).count() == 1
    assert phone.locator("#entry-1").is_visible()
    assert phone.locator(".entry-sheet tbody tr.on-phone").count() == 0
    assert waiting_on_the_phone(phone) == 0
    assert_fits_the_phone(phone)
    phone.screenshot(path=str(tmp_path / "resent.png"), full_page=True)


def test_while_the_server_is_away_the_next_deal_is_entered_at_once(link_of_a_table, phone):
    table, link = link_of_a_table
    phone.context.route(
        "**/entries/",
        lambda route: (
            route.fulfill(status=503, headers={"Retry-After": "10"}, body="try again")
            if route.request.method == "POST"
            else route.continue_()
        ),
    )
    phone.goto(link)
    enter_deal(phone, 1)
    row = phone.locator(".entry-sheet tbody tr.on-phone")
    expect(row).to_have_count(1)
    assert row.locator(".entry-cell .total").count() == 3  # with its running scores
    status = phone.locator("[data-queue-status]").first
    expect(status).to_have_attribute("data-waiting", "1")
    expect(status).to_be_in_viewport()  # beside Save, on the phone's screen
    assert status.inner_text().strip()
    expect(phone.locator("#entry-form")).to_have_attribute("data-queue", "waiting")
    # The next deal's form is there at once, and takes the next deal.
    expect(phone.locator("#entry-form input[name='deal-position']").first).to_have_value("2")
    assert phone.locator("#entry-form .entry-deal-form .entry-submit").is_enabled()
    enter_deal(phone, 2)
    expect(status).to_have_attribute("data-waiting", "2")
    assert not DealResult.objects.filter(table=table).exists()


def test_a_stored_deal_is_put_in_place_without_loading_the_page(link_of_a_table, phone):
    """The sheet the server answers takes the place of the phone's rows: the page is not
    loaded again, and the next deal is entered on the same page."""
    table, link = link_of_a_table
    page = phone
    page.goto(link)
    page.evaluate("window.sameDocument = true")
    for position in (1, 2):
        enter_deal(page, position)
        wait_until_sent(page)
        assert page.locator(f"#entry-{position}").is_visible()
        assert page.locator(".entry-row").count() == position
        assert page.locator(".entry-empty").count() == 0
        form = page.locator("form.entry-deal-form")
        assert form.locator("input[name='deal-position']").input_value() == str(position + 1)
        assert form.locator("input[type=radio]:checked").count() == 0
        assert page.evaluate("window.sameDocument === true")  # put in place, not loaded
    assert DealResult.objects.filter(table=table).count() == 2
    assert "Deal 3 of" in page.locator(".entry-progress").inner_text()
    assert_fits_the_phone(page)


def test_a_correction_is_sent_through_the_queue_and_stored_once(link_of_a_table, phone):
    table, link = link_of_a_table
    phone.goto(link)
    enter_deal(phone, 1)
    wait_until_sent(phone)
    phone.goto(f"{link}?correct=1#entry-form")
    phone.fill("[name='fix-reason']", "Tricks miscounted")
    phone.fill("input[name='fix-tricks']", "6")
    send_entry(phone, "form.entry-deal-form button.entry-submit")
    versions = list(DealResult.objects.filter(table=table).values_list("position", "version"))
    assert versions == [(1, 1), (1, 2)]
