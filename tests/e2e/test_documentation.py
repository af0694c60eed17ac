"""The rules and the organiser's guide on a 360 px phone, in Latvian: reached from the footer,
no sideways scrolling (the wide tables scroll inside), nothing the security policy blocks."""

import pytest

from .conftest import assert_fits_the_phone, no_violations, t

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_docs_are_reached_from_the_footer_and_fit_the_phone(live_server, open_page, shots):
    page = open_page()
    page.goto(f"{live_server.url}/")
    page.click(f".site-footer a:has-text('{t('Scoring rules')}')")
    page.wait_for_url(f"{live_server.url}/rules/")
    assert page.locator("h1").first.inner_text().startswith("The scoring rules of Zole")
    assert_fits_the_phone(page)
    no_violations(page)
    page.screenshot(path=str(shots / "rules-phone.png"), full_page=False)

    page.click(f".doc-nav a:has-text('{t('Running a tournament')}')")
    page.wait_for_url(f"{live_server.url}/rules/organising/")
    assert_fits_the_phone(page)
    no_violations(page)
    page.screenshot(path=str(shots / "organising-phone.png"), full_page=False)

    desktop = open_page(1280, 900)
    desktop.goto(f"{live_server.url}/rules/")
    desktop.locator("#words").scroll_into_view_if_needed()
    desktop.screenshot(path=str(shots / "rules-desktop.png"))
