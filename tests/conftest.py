"""Fixtures and settings shared by the whole test suite (pytest-django provides `db`, `client`)."""

import os

import pytest
from hypothesis import HealthCheck, settings

# No per-example deadline: the CI machines are noisy, and speed is measured in bench/, not here.
# CI (CI set) runs as many examples as a local run: it runs the suite twice (SQLite, then
# PostgreSQL), so each property meets twice as many examples there, within CI's time. A test
# whose property needs more says so itself (tests/engine/test_properties.py's reference model).
# CI prints the blob that replays a failing example (@reproduce_failure). HYPOTHESIS_PROFILE
# overrides either profile.
settings.register_profile("dev", deadline=None, max_examples=100)
settings.register_profile(
    "ci",
    deadline=None,
    max_examples=100,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    """Each test starts with an empty cache: the public pages and rate-limit counts of one
    test (whose rolled-back ids the next test may get again) never leak into another."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _rating_jobs_in_the_test(settings) -> None:
    """A rating job runs at the commit, in the test's own thread: a thread of its own would not
    see the test's uncommitted data."""
    settings.RATING_UPDATES_IN_BACKGROUND = False


@pytest.fixture(autouse=True, scope="session")
def _notices_never_sent_by_a_thread_of_the_suite() -> None:
    """Inline as the suite's own setting, not only a test's: a request a browser test's page
    still makes after its test ends (its settings restored) must not start a sender thread,
    which would hold SQLite's shared in-memory test database against the next test."""
    from django.conf import settings

    settings.NOTICES_SENDER = "inline"


@pytest.fixture(autouse=True)
def _notices_sent_in_the_test(settings) -> None:
    """Notices are sent at the commit, in the test's own thread (as the rating jobs), and to no
    push service unless a test starts its own (the `push_service` fixture below)."""
    settings.NOTICES_SENDER = "inline"
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    settings.PUSH_SERVICES = []
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


@pytest.fixture(autouse=True)
def _renders_unlimited_unless_a_test_asks(settings) -> None:
    """A test's many pages from one address (a hypothesis run, a browser) are no hostile
    visitor: the limit on renders per address is tested on its own
    (tests/core/test_page_cache.py)."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "render": {"failures": 10**6, "seconds": 60}}


@pytest.fixture(autouse=True)
def _english_unless_a_test_asks(settings) -> None:
    """The suite reads like the code, in English (the catalogues' source language): a request
    without a language preference, and code run outside a request, get English. The site's
    real default, Latvian, and the other languages are tested in tests/test_i18n.py."""
    settings.LANGUAGE_CODE = "en"


# The tables the scoring and entry tests enter deals at: one of three, one of four, a short round.
@pytest.fixture
def table_of_three():
    from tests.factories import make_published_round

    round_ = make_published_round(players=6)  # two tables of 3
    return round_.tables.get(number=1)


@pytest.fixture
def table_of_four():
    from tests.factories import make_published_round

    round_ = make_published_round(players=7)  # tables of 4 and 3
    return next(table for table in round_.tables.all() if table.seats.count() == 4)


@pytest.fixture
def short_round(table_of_three):
    """Three deals a round, so a table fills up quickly."""
    from tests.factories import play_round_with

    play_round_with(table_of_three.round, deals_per_round=3)
    return table_of_three


@pytest.fixture
def season(db):
    """Season 2026 (best 6, top 24 qualify), the only season: the migration's default season is
    removed so nothing else covers the dates."""
    from ranking.models import Season
    from tests.factories import make_season

    Season.objects.all().delete()
    return make_season(2026)


@pytest.fixture
def push_service(settings):
    """A push service of the suite's own on loopback (demo/push_service.py), and the site's
    VAPID keys made for the test: a phone subscribed there receives the site's messages."""
    from demo.push_service import PushService
    from notices.push import vapid_keys_make

    private, public = vapid_keys_make()
    with PushService(vapid_public_key=public) as service:
        settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = public, private
        settings.VAPID_SUBJECT = "mailto:organiser@example.lv"
        settings.PUSH_SERVICES = [service.origin]
        yield service
