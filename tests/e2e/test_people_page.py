"""The tournament's people page in Latvian: a chief referee appoints a second chief referee from
his phone, the organiser sees on a desktop that the chief referees are not his to appoint. Both
pages say who appoints each role, fit the screen, and break no Content-Security-Policy rule.

Screenshots go to $E2E_SCREENSHOTS (a directory) when set, else to the test's tmp_path."""

from __future__ import annotations

import pytest

from tests.factories import make_tournament, make_user

from .conftest import assert_fits_the_phone, no_violations, sign_in, t

pytestmark = pytest.mark.django_db(transaction=True)


def test_who_appoints_whom_on_a_phone_and_a_desktop(live_server, open_page, shots):
    tournament = make_tournament(slug="tiesnesu-kauss", name="Tiesnešu kauss")
    organiser, chief = make_user(username="rita"), make_user(username="galvenais")
    make_user(username="palīgs")
    tournament.organisers.add(organiser)
    tournament.chief_referees.add(chief)
    people_url = "/organise/t/tiesnesu-kauss/people/"

    phone = open_page()
    sign_in(phone, live_server, "galvenais", "/organise/")
    phone.click(f"a:has-text('{t('Chief referees')}')")
    phone.wait_for_url(f"{live_server.url}{people_url}")
    phone.fill("#id_username", "palīgs")
    phone.click(f"button:has-text('{t('Add')}')")
    phone.wait_for_url(f"{live_server.url}{people_url}")
    chiefs = phone.locator("#role-chief_referee")
    assert chiefs.get_by_text("palīgs", exact=True).is_visible()
    referees = phone.locator("#role-referee")
    assert referees.get_by_text(t("You cannot change this list.")).is_visible()
    assert_fits_the_phone(phone)
    no_violations(phone)
    phone.screenshot(path=shots / "people-chief-360.png", full_page=True)

    desktop = open_page(1280, 800)
    sign_in(desktop, live_server, "rita", people_url)
    chiefs = desktop.locator("#role-chief_referee")
    assert chiefs.get_by_text(t("You cannot change this list.")).is_visible()
    assert chiefs.locator("button").count() == 0  # no remove button for the chief referees
    options = desktop.locator("#id_role option").all_inner_texts()
    assert len(options) == 1  # the table referees only
    no_violations(desktop)
    desktop.screenshot(path=shots / "people-organiser-1280.png", full_page=True)
    assert list(tournament.chief_referees.values_list("username", flat=True).order_by("pk")) == [
        "galvenais",
        "palīgs",
    ]
