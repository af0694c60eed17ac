"""Site-wide checks: the home page (the public tournament list), the health check, and which
database the suite really runs on."""

import os
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import make_published_round, make_registrations, make_tournament

pytestmark = pytest.mark.django_db


def test_home_lists_tournaments_by_phase(client: Client, django_assert_num_queries):
    today = timezone.localdate()
    upcoming = make_tournament(name="Ziemassvētku kauss", starts_on=today + timedelta(days=30))
    finished = make_tournament(name="Ģirta piemiņas turnīrs", starts_on=today - timedelta(days=60))
    playing = make_tournament(name="Rīgas čempionāts", starts_on=today)
    make_published_round(playing, players=6)
    for tournament in (upcoming, finished, playing):
        make_registrations(tournament, 3)

    # Tournaments with their entry counts, then every round's status: not one query per
    # tournament.
    with django_assert_num_queries(2):
        response = client.get("/")

    assert response.status_code == 200
    listing = response.context["listing"]
    tournaments_in = [
        [listed.tournament for listed in phase]
        for phase in (listing.upcoming, listing.in_progress, listing.finished)
    ]
    assert tournaments_in == [
        [upcoming],
        [playing],
        [finished],
    ]
    html = response.content.decode("utf-8")
    # As text, not HTML entities: the page is UTF-8 end to end.
    for tournament in (upcoming, finished, playing):
        assert tournament.name in html
        assert f'href="/t/{tournament.slug}/"' in html


def test_home_renders_without_any_tournaments(client: Client):
    response = client.get("/")

    assert response.status_code == 200
    assert 'lang="lv"' in response.content.decode("utf-8")
    listing = response.context["listing"]
    assert listing.upcoming == listing.in_progress == listing.finished == []


def test_healthz_reports_database_vendor(client: Client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": connection.vendor}


def test_database_is_the_one_database_url_names():
    # Proves the PostgreSQL CI run really runs on PostgreSQL, not on a silent SQLite fallback.
    database_url = os.environ.get("DATABASE_URL", "")
    expected = "postgresql" if database_url.startswith("postgres") else "sqlite"

    assert connection.vendor == expected


class TestErrorPages:
    def test_a_refusal_says_why_on_the_sites_own_page(self, client: Client):
        from django.contrib.auth.models import User

        client.force_login(User.objects.create(username="plain"))
        response = client.get(reverse("organise:dashboard"))
        assert response.status_code == 403
        html = response.content.decode()
        assert "This account has no role in any tournament yet" in html
        assert "You are signed in as plain." in html
        assert 'class="site-header"' in html  # the site's page, with its navigation

    def test_an_unknown_address_gets_the_sites_404(self, client: Client, settings):
        settings.DEBUG = False
        response = client.get("/t/no-such-tournament/")
        assert response.status_code == 404
        assert "Page not found" in response.content.decode()

    def test_the_500_page_renders_without_a_request(self):
        from django.template.loader import get_template

        html = get_template("500.html").render()
        assert "Server error" in html and "<html lang=" in html


def test_the_favicon_is_served_at_the_site_root(client: Client):
    """Browsers ask for /favicon.ico on every first visit: it is there, not a 404."""
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] in ("image/x-icon", "image/vnd.microsoft.icon")
    body = b"".join(response.streaming_content)
    assert body[:4] == b"\x00\x00\x01\x00"  # an ICO file's header
