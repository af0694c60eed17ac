"""Browser tests: Debian's Chromium driven by Playwright against pytest-django's live server."""

import os
import shutil
from collections.abc import Iterator

import pytest

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
