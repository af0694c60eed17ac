"""The API's documentation page on a 360 px phone and at desktop width, in Latvian: reached from
the footer, no sideways scrolling (its tables scroll inside), nothing the security policy
blocks."""

import pytest

from .conftest import assert_fits_the_phone, no_violations, t

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_api_docs_are_reached_from_the_footer_and_fit_the_phone(live_server, open_page, shots):
    page = open_page()
    page.goto(f"{live_server.url}/")
    page.click(f".site-footer a:has-text('{t('JSON API')}')")
    page.wait_for_url(f"{live_server.url}/api/v1/docs/")
    assert page.locator("h2#example").inner_text() == t("A worked example")
    assert page.locator("section.api-operation").count() >= 10
    assert "/api/v1/tournaments/{slug}/standings" in page.locator("article").inner_text()
    assert_fits_the_phone(page)
    no_violations(page)
    page.screenshot(path=str(shots / "api-docs-phone.png"), full_page=False)
    page.locator("#example").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "api-docs-example-phone.png"), full_page=False)
    page.locator("#op-api-v1-tournaments--slug--standings table").first.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "api-docs-table-phone.png"), full_page=False)

    desktop = open_page(1366, 900)
    desktop.goto(f"{live_server.url}/api/v1/docs/#op-api-v1-tournaments--slug--standings")
    no_violations(desktop)
    desktop.screenshot(path=str(shots / "api-docs-desktop.png"))
