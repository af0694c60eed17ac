"""Site-wide checks: home page, health check, and which database the suite really runs on."""

import os

import pytest
from django.db import connection
from django.test import Client

from tournaments.services import DEMO_PLAYERS, demo_load

pytestmark = pytest.mark.django_db


def test_home_lists_demo_players_with_latvian_letters(client: Client, django_assert_num_queries):
    demo_load()

    # Clubs, then their players in one prefetch: the count must not grow with the data.
    with django_assert_num_queries(2):
        response = client.get("/")

    assert response.status_code == 200
    html = response.content.decode("utf-8")
    # As text, not HTML entities: the page is UTF-8 end to end.
    assert "Ģirts Šteins" in html
    assert "Ņikita Ļebedevs" in html
    assert "Rīgas Zoles klubs" in html
    for full_name, _club in DEMO_PLAYERS:
        assert full_name in html


def test_home_renders_without_any_clubs(client: Client):
    response = client.get("/")

    assert response.status_code == 200
    assert 'lang="lv"' in response.content.decode("utf-8")


def test_healthz_reports_database_vendor(client: Client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": connection.vendor}


def test_database_is_the_one_database_url_names():
    # Proves the PostgreSQL CI run really runs on PostgreSQL, not on a silent SQLite fallback.
    database_url = os.environ.get("DATABASE_URL", "")
    expected = "postgresql" if database_url.startswith("postgres") else "sqlite"

    assert connection.vendor == expected
