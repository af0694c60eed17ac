"""The entry page sends a deal again by itself when the connection breaks or the server answers
503 (the database away for a moment: issue 13, item 20), with the same client key: the deal is
stored once, and the referee sees it saved without doing anything."""

from urllib.parse import parse_qs

import pytest

from scoring.models import DealResult
from tests.factories import make_published_round, make_tournament, seat_keys
from tournaments.models import TableToken

from .conftest import assert_fits_the_phone, send_entry

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_deal_whose_answer_is_lost_then_503_is_sent_again_and_stored_once(
    live_server, phone, tmp_path
):
    round_ = make_published_round(make_tournament(table_size=3), players=3)
    table = round_.tables.get()
    token = TableToken.objects.get(table=table, revoked_at__isnull=True).token
    seats = seat_keys(table)
    page = phone
    page.goto(f"{live_server.url}/r/{token}/")
    posts: list[dict[str, list[str]]] = []

    def network(route) -> None:
        """1st send: it reaches the server (the deal is stored), then the connection breaks
        before the answer; 2nd: the server answers 503; 3rd: through."""
        if route.request.method != "POST":
            route.continue_()
            return
        posts.append(parse_qs(route.request.post_data))
        if len(posts) == 1:
            route.fetch()
            route.abort("connectionreset")
        elif len(posts) == 2:
            route.fulfill(status=503, headers={"Retry-After": "1"}, body="try again")
        else:
            route.continue_()

    page.route(lambda url: f"/r/{token}/" in url, network)
    page.check("input[name='deal-game'][value='lielais']")
    page.check(f"input[name='deal-declarer'][value='{seats[1]}']")
    page.fill("input[name='deal-points']", "75")
    page.fill("input[name='deal-tricks']", "5")
    send_entry(page, "button:has-text('Save the deal')")

    assert len(posts) == 3
    keys = {post["deal-client_key"][0] for post in posts}
    assert len(keys) == 1  # the very same submission each time
    assert list(DealResult.objects.filter(table=table).values_list("client_key", flat=True)) == [
        keys.pop()
    ]
    assert page.get_by_text("Deal saved.").is_visible()
    assert page.locator("#entry-1").is_visible()
    assert_fits_the_phone(page)
    page.screenshot(path=str(tmp_path / "resent.png"), full_page=True)


def test_the_page_says_it_sends_the_deal_again_while_the_server_is_away(live_server, phone):
    round_ = make_published_round(make_tournament(table_size=3), players=3)
    table = round_.tables.get()
    token = TableToken.objects.get(table=table, revoked_at__isnull=True).token
    page = phone
    page.goto(f"{live_server.url}/r/{token}/")
    page.route(
        lambda url: f"/r/{token}/" in url,
        lambda route: (
            route.fulfill(status=503, headers={"Retry-After": "10"}, body="try again")
            if route.request.method == "POST"
            else route.continue_()
        ),
    )
    page.check("input[name='deal-game'][value='lielais']")
    page.check(f"input[name='deal-declarer'][value='{seat_keys(table)[1]}']")
    page.fill("input[name='deal-points']", "75")
    page.fill("input[name='deal-tricks']", "5")
    page.click("button:has-text('Save the deal')")
    status = page.locator(".entry-deal-form [data-resend-status]")
    status.wait_for(state="visible")
    assert "sent again by itself" in status.inner_text()
    assert page.locator("button:has-text('Save the deal')").is_disabled()  # no second tap
    assert not DealResult.objects.exists()
