"""Browser tests: Debian's Chromium driven by Playwright against pytest-django's live server."""

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.utils import translation

# Playwright's sync API runs an event loop in the test thread; the ORM calls the tests make
# around it are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
PHONE = {"width": 360, "height": 740}


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not os.path.exists(CHROMIUM):
        message = "Debian's chromium is not installed (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)  # CI installs it: never skip silently there
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def phone_in(browser) -> Iterator[object]:
    """`phone_in("ru-RU")`: a page the size of a 360 px phone whose browser prefers that
    language (its Accept-Language header)."""
    contexts = []

    def open_phone(locale: str):
        context = browser.new_context(viewport=PHONE, locale=locale)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        return page

    yield open_phone
    for context in contexts:
        context.close()


@pytest.fixture
def phone(phone_in) -> object:
    """A 360 px phone in English, the language the tests are written in."""
    return phone_in("en-GB")


def assert_fits_the_phone(page) -> None:
    """Nothing makes the page scroll sideways on a 360 px phone (wide tables scroll inside)."""
    overflow = page.evaluate("document.documentElement.scrollWidth")
    assert overflow <= PHONE["width"], f"{page.url} is {overflow}px wide"


# --- Pages in Latvian, the site's own language ------------------------------------------------

RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(event.violatedDirective + " " + (event.blockedURI || "inline"));
});
"""


def t(message: str, plural: str | None = None, count: int = 1, **params: object) -> str:
    """The Latvian of a catalogue text, refused if it is not translated."""
    with translation.override("lv"):
        text = (
            translation.ngettext(message, plural, count) if plural else translation.gettext(message)
        )
    assert text not in (message, plural), f"{message!r} is not translated to Latvian"
    return text % params if params else text


@pytest.fixture
def shots(tmp_path) -> Path:
    directory = Path(os.environ.get("E2E_SCREENSHOTS") or tmp_path)
    directory.mkdir(parents=True, exist_ok=True)
    return directory


@pytest.fixture
def open_page(browser):
    """`open_page(width, height)`: a Latvian browser page that records policy violations."""
    contexts = []

    def open_one(width: int = 360, height: int = 740):
        context = browser.new_context(viewport={"width": width, "height": height}, locale="lv-LV")
        context.add_init_script(RECORD_VIOLATIONS)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        return page

    yield open_one
    for context in contexts:
        context.close()


def sign_in(page, live_server, username: str, next_url: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/?next={next_url}")
    page.fill("#id_username", username)
    page.fill("#id_password", "zole-pass-123")
    page.click("form.stacked button[type=submit]")
    page.wait_for_url(f"{live_server.url}{next_url}")


def no_violations(page) -> None:
    assert page.evaluate("window.__violations") == [], page.url


def send_entry(page, button: str) -> None:
    """Clicks the button of an entry form (a deal, a correction) and waits for the page the
    server answers with: static/js/entry-resend.js sends the form, then loads that page."""
    with page.expect_navigation():
        page.click(button)
    page.wait_for_load_state()


def enter_lielais(page, declarer: str, points: int = 75, tricks: int = 5) -> None:
    page.check("input[name='deal-game'][value='lielais']")
    page.check(f"input[name='deal-declarer'][value='{declarer}']")
    page.fill("input[name='deal-points']", str(points))
    page.fill("input[name='deal-tricks']", str(tricks))
    send_entry(page, f"button:has-text('{t('Save the deal')}')")
