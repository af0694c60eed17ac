"""Browser tests: Debian's Chromium driven by Playwright against pytest-django's live server."""

import io
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
# Headless, and none of Chromium's own network traffic (this machine's network is closed).
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 360, "height": 740}


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not os.path.exists(CHROMIUM):
        message = "Debian's chromium is not installed (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)  # CI installs it: never skip silently there
        pytest.skip(message)
    from playwright.sync_api import expect, sync_playwright

    # The suite runs four processes on as few as two cores: an expectation waits as long as a
    # page's actions do (open_page's default), not Playwright's 5 s.
    expect.set_options(timeout=15_000)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
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


# Every element whose content is wider than its box (spilling out, clipped or scrolled) or that
# reaches past the screen's edges, outside a wide table's intentional scroller (.table-scroll).
OVERFLOWING_ELEMENTS = """
() => {
  const screen = document.documentElement.clientWidth;
  const name = (element) => element.tagName.toLowerCase()
    + (element.id ? "#" + element.id : "")
    + (typeof element.className === "string" && element.className.trim()
       ? "." + element.className.trim().split(/\\s+/).join(".") : "");
  const found = [];
  for (const element of document.body.querySelectorAll("*")) {
    if (element.parentElement.closest(".table-scroll")) continue;  // inside a scroller
    const style = getComputedStyle(element);
    if (style.display === "none" || style.visibility === "hidden") continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (box.left < -1 || box.right > screen + 1) {
      found.push(`${name(element)} spans ${Math.round(box.left)}..${Math.round(box.right)}px`);
    } else if (
      !element.matches(".table-scroll")
      && element.clientWidth > 0
      && element.scrollWidth > element.clientWidth + 1
    ) {
      found.push(
        `${name(element)} holds ${element.scrollWidth}px in ${element.clientWidth}px`
      );
    }
  }
  return found;
}
"""

# Each wide table scrolled to its far end inside its .table-scroll: the first cell of every row
# must still be on screen (a sticky first column), or the reader loses whose row it is.
FIRST_COLUMNS_HIDDEN_BY_SCROLLING = """
() => {
  const hidden = [];
  for (const scroller of document.querySelectorAll(".table-scroll")) {
    if (scroller.scrollWidth <= scroller.clientWidth + 1) continue;  // fits: nothing scrolls
    const before = scroller.scrollLeft;
    scroller.scrollLeft = scroller.scrollWidth;
    const box = scroller.getBoundingClientRect();
    for (const row of scroller.querySelectorAll("tr")) {
      const cell = row.firstElementChild;
      if (!cell || cell.colSpan > 1) continue;  // a row of one message scrolls with the table
      const rect = cell.getBoundingClientRect();
      if (rect.left < box.left - 1 || rect.left > box.right - Math.min(rect.width, box.width) + 1) {
        const table = scroller.querySelector("table");
        hidden.push(`${table ? table.className : "?"}: "${cell.innerText.trim()}" at `
          + `${Math.round(rect.left)}px, box ${Math.round(box.left)}..${Math.round(box.right)}`);
        break;  // one row says it for the table
      }
    }
    scroller.scrollLeft = before;
  }
  return hidden;
}
"""


def assert_fits_the_phone(page) -> None:
    """Nothing makes the page scroll sideways on a 360 px phone, and nothing spills out of its
    box or past the screen's edge; a wide table scrolls inside its .table-scroll, keeping its
    first column (the player, the round) in view."""
    overflow = page.evaluate("document.documentElement.scrollWidth")
    assert overflow <= PHONE["width"], f"{page.url} is {overflow}px wide"
    overflowing = page.evaluate(OVERFLOWING_ELEMENTS)
    assert not overflowing, f"{page.url} overflows sideways: " + "; ".join(overflowing[:8])
    hidden = page.evaluate(FIRST_COLUMNS_HIDDEN_BY_SCROLLING)
    assert not hidden, f"{page.url}: a table's first column scrolls away: " + "; ".join(hidden)


def assert_does_not_scroll_sideways(page, selector: str) -> None:
    """The element (a table's .table-scroll) fits the phone: it needs no sideways swipe."""
    held, box = page.locator(selector).evaluate("box => [box.scrollWidth, box.clientWidth]")
    assert held <= box + 1, f"{page.url}: {selector} holds {held}px in {box}px"


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


def register(page, full_name: str, club: str = "", licence: str = "", contact: str = "") -> None:
    """A player signs up on the tournament's public sign-up page."""
    page.fill("#id_full_name", full_name)
    page.fill("#id_club", club)
    page.fill("#id_licence_number", licence)
    page.fill("#id_contact", contact)
    page.click(f"form.signup-form button:has-text('{t('Sign up')}')")
    page.wait_for_load_state()


def pdf_text(content: bytes) -> str:
    """A PDF's text read back, its no-break spaces plain."""
    from pypdf import PdfReader

    pages = PdfReader(io.BytesIO(content)).pages
    return "\n".join(page.extract_text() for page in pages).replace("\u00a0", " ")


# Set before a tap on Save: whether the phone (static/js/table/page.js) has since answered the
# tap: its queue (section#entry-form data-queue) left "idle", or its scoring refused the entry.
WATCH_THE_QUEUE = """
() => {
  window.entryQueueMoved = false;
  const moved = () => {
    const section = document.getElementById("entry-form");
    if (!section) return;
    if ((section.dataset.queue && section.dataset.queue !== "idle")
        || section.querySelector("[data-phone-refusal]")) {
      window.entryQueueMoved = true;
    }
  };
  new MutationObserver(moved).observe(document.body, {
    subtree: true, childList: true, attributes: true, attributeFilter: ["data-queue"],
  });
}
"""
# The entry is through: the queue went and came back to "idle" with nothing left on the phone
# but what was refused; or the page was loaded again (a plain form's answer).
ENTRY_SENT = """
() => {
  if (window.entryQueueMoved === undefined) return document.readyState === "complete";
  if (!window.entryQueueMoved) return false;
  const section = document.getElementById("entry-form");
  if (document.querySelector(".entry-sheet tbody tr.on-phone.refused")) return true;
  if (section && section.querySelector("[data-phone-refusal]")) return true;
  return section !== null && section.dataset.queue === "idle"
    && document.querySelector(".entry-sheet tbody tr.on-phone") === null;
}
"""


def send_entry(page, button: str, timeout: float = 30_000) -> None:
    """Clicks the button of an entry form (a deal, a correction, a confirmation) and waits until
    the server has it: static/js/table/page.js takes the entry on the phone at once and sends
    it, and the page is settled when nothing waits and nothing is on its way (section#entry-form's
    data-queue back to "idle"), the server's answer shown, or when the phone or the server
    refused it. A form the script leaves to the browser (a locked table) loads the server's
    page."""
    if page.locator("#table-phone").count() > 0:
        page.wait_for_selector("#entry-form[data-queue]", state="attached", timeout=timeout)
    page.evaluate(WATCH_THE_QUEUE)
    page.click(button)
    page.wait_for_function(ENTRY_SENT, timeout=timeout)
    page.wait_for_load_state()


def enter_lielais(page, declarer: str, points: int = 75, tricks: int = 5) -> None:
    page.check("input[name='deal-game'][value='lielais']")
    page.check(f"input[name='deal-declarer'][value='{declarer}']")
    page.fill("input[name='deal-points']", str(points))
    page.fill("input[name='deal-tricks']", str(tricks))
    send_entry(page, f"button:has-text('{t('Save the deal')}')")


# --- Safari's engine: WebKitGTK (tests/e2e/webkit.py) -------------------------------------


@pytest.fixture(scope="session")
def webkit_display() -> Iterator[str]:
    """An X display for WebKit's MiniBrowser, one per test process."""
    from .webkit import missing, virtual_display

    message = missing()
    if message:
        if os.environ.get("CI"):
            pytest.fail(message)  # CI installs them: never skip silently there
        pytest.skip(message)
    with virtual_display() as display:
        yield display


@pytest.fixture
def webkit_phone(webkit_display) -> Iterator[object]:
    """A phone in Safari's engine: a MiniBrowser of its own, as narrow as its window goes (its
    toolbar keeps it 447 px wide)."""
    from .webkit import WebKitPage, webkit_session

    with webkit_session(webkit_display) as driver:
        driver.set_window_rect(width=PHONE["width"], height=PHONE["height"])
        yield WebKitPage(driver)


class Organiser:
    """The organiser's hands on a page: every address typed, click, fill, choice, tick and
    upload goes through here and is counted; what the test only reads or waits for goes to the
    page itself."""

    def __init__(self, page) -> None:
        self.page = page
        self.actions: list[str] = []

    def _count(self, action: str, selector: str) -> None:
        self.actions.append(f"{action} {selector}")

    def visit(self, url: str) -> None:
        self._count("visit", url)
        self.page.goto(url)

    def sign_in(self, site: str, username: str, password: str) -> None:
        """The organiser types the address of his pages and signs in: four actions."""
        self.visit(f"{site}/organise/")
        self.fill("#id_username", username)
        self.fill("#id_password", password)
        self.click("form.stacked button[type=submit]")
        self.page.wait_for_url(f"{site}/organise/")

    def click(self, selector: str) -> None:
        self._count("click", selector)
        self.page.click(selector)

    def fill(self, selector: str, value: str) -> None:
        self._count("fill", selector)
        self.page.fill(selector, value)

    def select(self, selector: str, value: str) -> None:
        self._count("select", selector)
        self.page.select_option(selector, value)

    def check(self, selector: str) -> None:
        self._count("tick", selector)
        self.page.check(selector)

    def upload(self, selector: str, path: str) -> None:
        self._count("upload", selector)
        self.page.set_input_files(selector, path)
