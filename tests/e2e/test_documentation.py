"""The rules and the organiser's guide on a 360 px phone, in Latvian and in Russian: reached
from the footer, in the reader's language, no sideways scrolling (the wide tables scroll
inside), nothing the security policy blocks."""

import pytest

from .conftest import assert_fits_the_phone, no_violations, t

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_docs_are_reached_from_the_footer_and_fit_the_phone(live_server, open_page, shots):
    page = open_page()
    page.goto(f"{live_server.url}/")
    page.click(f".site-footer a:has-text('{t('Scoring rules')}')")
    page.wait_for_url(f"{live_server.url}/rules/")
    assert page.locator("h1").first.inner_text().startswith("Zoles skaitīšanas noteikumi")
    assert page.get_by_text(t("This page is written in English.")).count() == 0
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


def test_a_russian_reader_gets_the_rules_in_russian(live_server, phone_in, browser, shots):
    page = phone_in("ru-RU")
    page.goto(f"{live_server.url}/rules/")
    assert page.locator("h1").first.inner_text().startswith("Правила подсчёта очков в золе")
    assert page.locator("article.doc[lang=ru] h3#presets").count() == 1  # the original's anchor
    assert page.locator("article.doc[lang=ru] table").count() == 6
    assert_fits_the_phone(page)
    page.screenshot(path=str(shots / "rules-ru-phone.png"), full_page=False)

    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="ru-RU")
    desktop = context.new_page()
    desktop.goto(f"{live_server.url}/rules/#presets")
    desktop.screenshot(path=str(shots / "rules-ru-desktop.png"))
    context.close()
