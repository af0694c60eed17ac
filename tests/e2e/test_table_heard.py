"""The chief referee's view of the tables' phones on the round page: when each was last heard
from and what waits or was refused on it, in view on a 360 px phone beside each table's link."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_organiser, make_published_round, make_user
from tournaments.models import TableToken

from .conftest import assert_fits_the_phone, no_violations, sign_in, t

pytestmark = pytest.mark.django_db(transaction=True)


def heard(table, *, waiting, refused):
    token = TableToken.objects.get(table=table, revoked_at=None).token
    body = json.dumps({"entries": [], "waiting": waiting, "refused": refused})
    url = reverse("entry:token_sync", args=[token])
    assert Client().post(url, body, content_type="application/json").status_code == 200


@pytest.mark.parametrize("width", [360, 1280])
def test_the_round_page_says_which_phones_wait_or_were_refused(
    live_server, open_page, shots, width
):
    make_organiser(username="rita")
    round_ = make_published_round(players=9)
    one, two, three = round_.tables.order_by("number")
    heard(one, waiting=0, refused=0)
    heard(two, waiting=3, refused=0)
    heard(three, waiting=1, refused=2)
    round_url = f"/organise/t/{round_.tournament.slug}/rounds/1/"
    page = open_page(width)
    sign_in(page, live_server, "rita", round_url)

    alert = page.locator("#table-link-3 .table-heard-alert")
    alert.scroll_into_view_if_needed()
    assert t("%(counter)s refused", "%(counter)s refused", 2, counter=2) in alert.inner_text()
    box = alert.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width  # on screen, no swipe
    waiting = t("%(counter)s entry waiting", "%(counter)s entries waiting", 3, counter=3)
    assert waiting in page.locator("#table-link-2 .table-heard").inner_text()
    assert t("last heard from just now") in page.locator("#table-link-1").inner_text()
    assert not page.locator("#table-link-1 .table-heard-alert").count()
    if width == 360:
        assert_fits_the_phone(page)
    page.locator("#entry-links").screenshot(path=str(shots / f"tables-heard-{width}.png"))
    no_violations(page)


def test_the_chief_referees_dashboard_says_it_too(live_server, open_page, shots):
    round_ = make_published_round(players=9)
    chief = make_user(username="galvenais")
    round_.tournament.chief_referees.add(chief)
    _, two, three = round_.tables.order_by("number")
    heard(two, waiting=3, refused=0)
    heard(three, waiting=1, refused=2)
    page = open_page(360)
    sign_in(page, live_server, "galvenais", "/organise/")

    tables = page.locator("ul.chief-tables li")
    assert tables.count() == 3
    assert not tables.nth(0).locator(".table-heard").count()  # never heard from
    assert t("last heard from just now") in tables.nth(1).inner_text()
    alert = tables.nth(2).locator(".table-heard-alert")
    assert t("%(counter)s refused", "%(counter)s refused", 2, counter=2) in alert.inner_text()
    assert_fits_the_phone(page)
    page.screenshot(path=str(shots / "chief-dashboard-heard-360.png"), full_page=True)
    no_violations(page)
