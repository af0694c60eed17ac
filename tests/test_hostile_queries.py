"""Generated query strings against every page a browser can GET: none of them answers 500.

The pages are enumerated from the URL resolver (a new page is covered without being listed
here), filled in with a tournament full of hostile names (tests/hostile.py's world),
and asked for as the public or, where the public is sent to sign in, as its organiser. The
query keys are the parameters the views and django-tables2 read, and random ones; the values
are the numbers and texts a hostile visitor tries: negative, huge, unicode digits, empty,
overlong, and escaped & and = that must stay inside their value."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote, urlencode

import pytest
from django.conf import settings
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from ranking.models import Season
from tests.hostile import World, world  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db

# Every query parameter a page reads (views, forms and django-tables2, with the team table's
# prefix, and the JSON API's filters), and the ones a visitor might guess.
KEYS = (
    "per_page",
    "page",
    "sort",
    "round",
    "q",
    "since",
    "until",
    "correct",
    "_export",
    "lang",
    "provisional",
    "team-sort",
    "team-page",
    "team-per_page",
    "season",
    "club",
    "blank",
    "table",
    "player",
    "action",
    "next",
    "format",
    "level",
    "status",
    "limit",
)
HOSTILE_VALUES = (
    "",
    " ",
    "0",
    "-0",
    "-1",
    "1",
    "2",
    "1e309",
    "NaN",
    "²",
    "٣",
    "１",
    "1_000",
    str(10**18),
    str(2**63),
    str(10**30),
    "9" * 5000,
    "x" * 5000,
    "csv",
    "xlsx",
    "csv&round=1",
    "a=b",
    "%26%3D",
    "0001-01-01T00:00",
    "9999-12-31T23:59",
    "2026-02-30",
    "-name",
    "name,-club",
    "<script>alert(1)</script>",
    "'; DROP TABLE x; --",
    "Jā\x00nis",
    "\u202e",
    "//evil.example/",
)
values = st.one_of(
    st.sampled_from(HOSTILE_VALUES),
    st.integers(min_value=-3, max_value=3).map(str),
    st.integers(min_value=-(10**40), max_value=10**40).map(str),
    st.text(max_size=30),
)


@st.composite
def query_strings(draw) -> str:
    """A few known keys with hostile values (a few: a bad ?round= answers 404 before the rest
    is read) and maybe a random key, in any order; mostly encoded as a browser does, sometimes
    joined raw (a bare & or = splits there)."""
    known = draw(st.lists(st.sampled_from(KEYS), min_size=1, max_size=4, unique=True))
    pairs = [(key, draw(values)) for key in known]
    pairs += draw(st.lists(st.tuples(st.text(min_size=1, max_size=12), values), max_size=1))
    pairs = draw(st.permutations(pairs))
    if draw(st.booleans()):
        return urlencode(pairs)
    return "&".join(f"{quote(key, safe='&=')}={quote(value, safe='&=')}" for key, value in pairs)


@dataclass(frozen=True)
class Page:
    url: str
    signed_in: bool


def named_patterns(resolver: URLResolver, namespace: str = ""):
    """(qualified name, pattern) of every named URL, into each included URLconf."""
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            inner = namespace
            if pattern.namespace:
                inner = f"{namespace}{pattern.namespace}:"
            yield from named_patterns(pattern, inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield f"{namespace}{pattern.name}", pattern


def every_get_page(hostile: World) -> list[Page]:
    """Every named page of the project (Django's admin is Django's), its parameters filled in
    from the world; signed in where the public is sent to sign in."""
    arguments = {
        "slug": hostile.tournament.slug,
        "number": hostile.round_2.number,
        "table_number": hostile.table.number,
        "token": hostile.token.token,
        "table_id": hostile.table.pk,
        "player_id": hostile.players[0].pk,
        "registration_id": hostile.entries[0].pk,
        "player_token": hostile.entries[0].check_in_token,
        "call_id": 1,  # POST only: 405 to a GET
        "season_id": Season.objects.order_by("pk").first().pk,
        "language": "lv",
        "uidb64": "MQ",  # Django's password reset link (the token above is no valid one)
    }
    public = Client()
    pages = []
    for name, pattern in sorted(set(named_patterns(get_resolver())), key=lambda item: item[0]):
        if name.startswith("admin:"):
            continue
        needed = pattern.pattern.converters.keys()
        unknown = set(needed) - arguments.keys()
        assert not unknown, f"{name}: no value here for {sorted(unknown)}: add one"
        url = reverse(name, kwargs={key: arguments[key] for key in needed})
        response = public.get(url)
        sent_to_sign_in = response.get("Location", "").startswith(resolve_url(settings.LOGIN_URL))
        pages.append(Page(url, signed_in=sent_to_sign_in or response.status_code == 403))
    return pages


@pytest.fixture
def pages(world) -> list[Page]:  # noqa: F811 (the fixture)
    return every_get_page(world)


def test_the_pages_are_enumerated(world, pages):  # noqa: F811
    urls = {page.url for page in pages}
    slug = world.tournament.slug
    assert reverse("public:standings", args=[slug]) in urls
    assert reverse("organise:players") in urls
    assert reverse("entry:token_sheet", args=[world.token.token]) in urls
    assert Page(reverse("organise:audit", args=[slug]), signed_in=True) in pages
    assert Page(reverse("public:standings", args=[slug]), signed_in=False) in pages
    assert Page(reverse("api:standings", args=[slug]), signed_in=False) in pages


# Every example asks for every page (a query that breaks one page is found whichever page it
# is): a third of the profile's examples keeps the run about a minute locally.
@hypothesis_settings(
    max_examples=max(10, hypothesis_settings().max_examples // 3),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(query=query_strings())
def test_no_query_string_answers_500(world, pages, query):  # noqa: F811
    """The world is only read: every example GETs. A view's exception is raised here, named
    with the page and the query hypothesis found."""
    organiser = Client()
    organiser.force_login(world.organiser)
    for page in pages:
        url = f"{page.url}?{query}"
        browser = organiser if page.signed_in else Client()
        try:
            response = browser.get(url)
            # A public page sends a query string that is not its own to its own address, with
            # the values it reads: those are what must never answer 500.
            location = response.get("Location", "")
            if response.status_code == 302 and location.startswith(f"{page.url}?"):
                url = location
                response = browser.get(url)
        except Exception as error:
            raise AssertionError(f"{url[:300]} raised {error!r}") from error
        assert response.status_code < 500, url[:300]
