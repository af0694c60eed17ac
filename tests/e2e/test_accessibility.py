"""Every HTML page a role may open, as that role, on a 360 px phone and at desktop width: axe-core
(tests/e2e/vendor/axe-core/, run in Chromium) finds no violation of WCAG 2.2 AA.

The pages are the access matrix's (tests/test_access_matrix.py: every view of the organiser's,
the table's, the documents', the ranking's, the public and the API's URLs, with the roles that
may open each) and the site's own pages at the top of its URLs (the home page, the rules, the
sign-in), so a new view is checked as soon as it is given its roles. One tournament serves them
all, in the middle of its day: round 1 in play with one table confirmed and one calling the
chief referee, round 2's check-in open, sign-ups open, fees set and partly paid, the round clock
running, an invitation to the final, so that the conditional parts of the pages show."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import URLPattern, get_resolver, reverse

from engine import Play
from engine.rules import Game
from hall.services.referee_calls import referee_call
from ranking.models import Season
from scoring import services as scoring_services
from scoring.services import Writer
from tests.factories import make_season, seat_keys
from tests.test_access_matrix import (
    ROLES,
    SPECS,
    World,
    invite_to_the_final,
    late_rules,
    make_display_link,
    make_world,
    open_signup,
    play_and_confirm,
    unseat_round_2,
)
from tournaments import services
from tournaments.models import TableToken, Tournament
from tournaments.services.fees import CategoryRow, fee_categories_save, fees_paid_set
from zole_site.documentation import PAGES, doc_page

browser_test = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
AXE_VERSION = "4.14.1"  # tests/e2e/vendor/axe-core/README.md: how to update it
# WCAG 2.0, 2.1 and 2.2 at levels A and AA: axe-core's tags for them.
WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
WIDTHS = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1366, "height": 800}}

RUN_AXE = """
async (tags) => {
  const results = await axe.run(document, {
    runOnly: {type: "tag", values: tags},
    resultTypes: ["violations"],
  });
  return results.violations.map((violation) => ({
    rule: violation.id,
    help: violation.help,
    nodes: violation.nodes.map((node) => node.target.join(" ")
      + " " + node.html.replace(/\\s+/g, " ").slice(0, 160)
      + " | " + (node.failureSummary || "").replace(/\\s+/g, " ")),
  }));
}
"""

# The site's own pages at the top of its URLs that are no HTML page a role opens: the health
# check (JSON), the language switch (a redirect, with the language in its address) and the
# sign-out (POST only). Django's admin (a URLResolver, not walked) is Django's markup, not the
# site's: the federation's staff use it rarely, on a desk.
NOT_PAGES = {"healthz", "language", "logout"}


@dataclass(frozen=True)
class Page:
    name: str  # the view's URL name
    url: str
    roles: frozenset[str]
    status: int = 200  # what the server answers them


def site_pages() -> list[Page]:
    """The named pages at the top of the site's URLs, open to everyone (a page a visitor may not
    open sends him to sign in: he is not shown it)."""
    pages = []
    for pattern in get_resolver().url_patterns:
        if isinstance(pattern, URLPattern) and pattern.name and pattern.name not in NOT_PAGES:
            pages.append(Page(pattern.name, reverse(pattern.name), frozenset(ROLES)))
    return pages


def matrix_pages(world: World) -> list[Page]:
    """Every view of the access matrix that answers GET, with the roles it lets in."""
    return [
        Page(name, reverse(name, args=spec.args(world)), spec.allowed)
        for name, spec in SPECS.items()
        if spec.has_page
    ]


def more_states(world: World) -> list[Page]:
    """The table pages of the matrix show the confirmed table 1; these show table 2 in play,
    with a deal on its sheet and its call to the chief referee open. And the pages that say no:
    an address that is not there, an organiser's page refused to a signed-in account (a visitor
    is sent to sign in)."""
    token = TableToken.objects.get(table=world.other_table, revoked_at__isnull=True).token
    signed_in = frozenset(ROLES) - {"anonymous"}
    return [
        Page("404", "/t/nav-tada/", frozenset(ROLES), status=404),
        Page(
            "403",
            reverse("organise:detail", args=[world.tournament.slug]),
            signed_in - SPECS["organise:detail"].allowed,
            status=403,
        ),
        Page("entry:token_sheet", reverse("entry:token_sheet", args=[token]), frozenset(ROLES)),
        Page(
            "entry:table_sheet",
            reverse("entry:table_sheet", args=[world.other_table.pk]),
            frozenset({"referee_of_another_table", "chief_referee", "organiser"}),
        ),
    ]


def in_the_middle_of_the_day(world: World) -> None:
    """Round 1 in play: table 1 confirmed, table 2 one deal in and calling the chief referee, its
    clock running, a player late; round 2 prepared, its check-in open with two players in;
    registration open online with a sign-up waiting; two fee categories, two players paid; a
    player invited to the final; the hall display's private link issued."""
    tournament = world.tournament
    Tournament.objects.filter(pk=tournament.pk).update(round_time_limit=50)
    services.round_clock_start(round_=world.round_1, by=world.users["organiser"])
    play_and_confirm(world.table)
    scoring_services.deal_record(
        table=world.other_table,
        entry=Play(Game.LIELAIS, seat_keys(world.other_table)[0], tricks=5, points=75),
        position=1,
        client_key="a11y-1",
        writer=Writer(ip_address="10.0.0.1"),
    )
    referee_call(table=world.other_table)
    late_rules(world)  # the sheets' forms for a late player
    unseat_round_2(world)
    entries = list(tournament.registrations.order_by("pk"))
    services.check_in_set(round_=world.round_2, registrations=entries[:2])
    open_signup(world)
    fee_categories_save(
        tournament=tournament,
        rows=[
            CategoryRow(pk=None, name="Standarta", amount=Decimal(15)),
            CategoryRow(pk=None, name="Juniori", amount=Decimal(5)),
        ],
        by=None,
    )
    fees_paid_set(tournament=tournament, paid=entries[:2], by=None)
    if not Season.objects.exists():  # the migrations' season, gone once a test flushed it
        make_season(tournament.starts_on.year)
    invite_to_the_final(world)
    make_display_link(world)


def session_cookie(world: World, role: str, base_url: str) -> list[dict[str, str]]:
    """The role's signed-in session, for the browser (none for a visitor)."""
    user = world.users[role]
    if user is None:
        return []
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    return [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base_url}]


@dataclass
class Document:
    """A page as the server writes it for some roles: the first is the one it is checked as."""

    page: Page
    roles: list[str]


# The site's header (base.html): its links differ by role (signed in, with a role, staff), and
# read the same on every page but for the page's own address in the language links.
SITE_HEADER = re.compile(rb'<header class="site-header">.*?</header>', re.DOTALL)


# What differs from one request to the next and changes nothing axe-core checks: a form's key
# (a UUID), the CSRF token, and figures (the round clock's seconds).
PER_REQUEST = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
PER_REQUEST_TOKEN = re.compile(rb"[A-Za-z0-9]{64}|[0-9]+")


def same_for_axe(html: bytes) -> bytes:
    return PER_REQUEST_TOKEN.sub(b"0", PER_REQUEST.sub(b"0", html))


def documents_of(world: World, pages: list[Page], problems: list[str]) -> list[Document]:
    """The HTML documents to check: each page once for each way the server writes it apart from
    the site's header (most public pages read the same to every role), and each way the header
    reads (signed out, signed in, with a role, staff) at least once, on the first page it comes
    with. A PDF, JSON, a script or a fragment the pages fetch into themselves (the round clock)
    is no document: it is checked in the page that shows it. A matrix page a role may open but
    cannot in this tournament's state is a problem: the state must let every page show."""
    site_names = {page.name for page in site_pages()}
    documents: list[Document] = []
    by_content: dict[tuple[str, bytes], Document] = {}
    headers: set[bytes] = set()
    for role in ROLES:
        client = Client(HTTP_ACCEPT_LANGUAGE="lv")
        if world.users[role] is not None:
            client.force_login(world.users[role])
        for page in pages:
            if role not in page.roles:
                continue
            response = client.get(page.url)
            if page.name in site_names and response.status_code == 302:
                continue  # a site page for the signed-in only (the password change)
            if response.status_code != page.status:
                problems.append(f"{page.name} {page.url} as {role}: {response.status_code}")
                continue
            if not (
                response["Content-Type"].startswith("text/html") and b"<html" in response.content
            ):
                continue
            html = same_for_axe(response.content)
            header = SITE_HEADER.search(html)
            header_text = re.sub(rb"next=[^\"]*", b"", header[0]) if header else b""
            content = SITE_HEADER.sub(b"", html)
            known = by_content.get((page.url, content))
            if known is None or header_text not in headers:
                document = Document(page, [role])
                documents.append(document)
                by_content.setdefault((page.url, content), document)
                headers.add(header_text)
            else:
                known.roles.append(role)
    return documents


def browser_tab(browser, live_server, world: World, role: str, viewport: dict, locale: str):
    """A tab of a new browser context signed in as the role, axe-core loaded in every page."""
    context = browser.new_context(viewport=viewport, locale=locale)
    context.add_init_script(path=str(AXE))
    context.add_cookies(session_cookie(world, role, live_server.url))
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    return tab


def violations_on(tab, url: str, where: str) -> list[str]:
    """axe-core's WCAG 2.2 AA violations on the page, each with its rule and nodes."""
    tab.goto(url)
    return [
        f"{where}: {violation['rule']} ({violation['help']}), "
        f"{len(violation['nodes'])} node(s):\n    " + "\n    ".join(violation["nodes"])
        for violation in tab.evaluate(RUN_AXE, WCAG_22_AA)
    ]


def a_tournament_in_the_middle_of_its_day() -> World:
    world = make_world()
    in_the_middle_of_the_day(world)
    return world


@browser_test
def test_every_page_meets_wcag_2_2_aa_in_every_role(live_server, browser):
    world = a_tournament_in_the_middle_of_its_day()
    problems: list[str] = []
    pages: dict[tuple[str, int], Page] = {}  # "/" is the home page, and the public list
    for page in site_pages() + matrix_pages(world) + more_states(world):
        pages.setdefault((page.url, page.status), page)
    documents = documents_of(world, list(pages.values()), problems)
    for width, viewport in WIDTHS.items():
        for role in ROLES:
            own = [document for document in documents if document.roles[0] == role]
            if not own:
                continue
            tab = browser_tab(browser, live_server, world, role, viewport, "lv-LV")
            for document in own:
                page, roles = document.page, ", ".join(document.roles)
                where = f"{page.name} {page.url} as {roles} at {width}"
                problems += violations_on(tab, f"{live_server.url}{page.url}", where)
            tab.context.close()
    assert len({document.page.name for document in documents}) > 40
    assert not problems, f"axe-core {AXE_VERSION}, WCAG 2.2 AA:\n" + "\n".join(problems)


# A few pages in the other languages: their longer words and other letters.
SPOT_CHECKED = {
    "home": "anonymous",
    "public:tournament": "anonymous",
    "public:standings": "anonymous",
    "public:display": "anonymous",
    "entry:token_sheet": "anonymous",
    "organise:dashboard": "chief_referee",
    "organise:round": "organiser",
    "organise:registrations": "organiser",
}


@browser_test
def test_pages_in_russian_and_english_meet_wcag_2_2_aa(live_server, browser):
    world = a_tournament_in_the_middle_of_its_day()
    pages = {page.name: page for page in site_pages() + matrix_pages(world)}
    problems: list[str] = []
    for locale in ("ru-RU", "en-GB"):
        for role in sorted(set(SPOT_CHECKED.values())):
            tab = browser_tab(browser, live_server, world, role, WIDTHS["phone"], locale)
            for name in (name for name, checked_as in SPOT_CHECKED.items() if checked_as == role):
                where = f"{name} as {role} at phone in {locale}"
                problems += violations_on(tab, f"{live_server.url}{pages[name].url}", where)
            tab.context.close()
    assert not problems, f"axe-core {AXE_VERSION}, WCAG 2.2 AA:\n" + "\n".join(problems)


@browser_test
def test_the_hall_display_meets_wcag_2_2_aa_on_every_screen_dark_or_light(live_server, browser):
    """The display is light type on a dark ground whatever the screen prefers; checked on a
    phone, a desk and the hall's 1920 px screen, as a screen set to dark and to light."""
    world = a_tournament_in_the_middle_of_its_day()
    url = f"{live_server.url}{reverse('public:display', args=[world.tournament.slug])}"
    screens = {**WIDTHS, "hall": {"width": 1920, "height": 1080}}
    problems: list[str] = []
    for scheme in ("dark", "light"):
        for screen, viewport in screens.items():
            tab = browser_tab(browser, live_server, world, "anonymous", viewport, "lv-LV")
            tab.emulate_media(color_scheme=scheme)
            problems += violations_on(tab, url, f"the hall display at {screen}, {scheme}")
            tab.context.close()
    assert not problems, f"axe-core {AXE_VERSION}, WCAG 2.2 AA:\n" + "\n".join(problems)


def test_the_vendored_axe_core_is_the_version_the_tests_name():
    assert AXE.read_text(encoding="utf-8").startswith(f"/*! axe v{AXE_VERSION}\n")


# A box that scrolls sideways (.table-scroll), as the templates and the documentation pages
# write it.
SCROLLING_BOX = re.compile(r"<div class=\"(?:table|display)-scroll[^\"]*\"[^>]*>")


def test_every_scrolling_box_is_reached_by_the_keyboard():
    """A wide table scrolls in its box on a phone: a keyboard must reach the box to scroll it
    (WCAG 2.1.1), and a screen reader names it. axe-core finds a box it cannot reach only when
    the box overflows, which depends on the data and the screen; this finds it in the source."""
    sources = {
        str(path.relative_to(ROOT)): path.read_text(encoding="utf-8")
        for path in ROOT.glob("templates/**/*.html")
    }
    for page in PAGES:
        for language, _name in settings.LANGUAGES:
            sources[f"the page {page} in {language}"] = doc_page(page, language).body
    unreachable = [
        f"{source}: {tag}"
        for source, text in sources.items()
        for tag in SCROLLING_BOX.findall(text)
        if 'tabindex="0"' not in tag
        or not re.search(r'role="(region|group)"', tag)
        or not re.search(r"aria-label(ledby)?=", tag)
    ]
    assert (
        len(sources) > 50
        and sum(len(SCROLLING_BOX.findall(text)) for text in sources.values()) > 30
    )
    assert unreachable == [], "give each box tabindex, role and a name:\n" + "\n".join(unreachable)
