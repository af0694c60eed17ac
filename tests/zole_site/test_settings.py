"""Production settings from the environment: what `check --deploy` says of them, the
Content-Security-Policy, secure cookies, the cache backend, SQLite's WAL mode and busy timeout,
and the request size limit on uploads.

Production settings are read in a fresh interpreter (settings are read once per process), with
an environment like a deployment's; the rest runs against the test server in this process."""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.urls import reverse

from tests.environment import SETTINGS_VARIABLES
from tests.factories import make_organiser
from tournaments.models import Player
from zole_site.settings import env_frame_ancestors

ROOT = Path(__file__).resolve().parents[2]


def production_env(tmp_path: Path, **overrides: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in SETTINGS_VARIABLES}
    env.update(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="zole.example.lv",
        DATABASE_URL=f"sqlite:///{tmp_path / 'production.sqlite3'}",
        DJANGO_SETTINGS_MODULE="zole_site.settings",
    )
    env.update(overrides)
    return env


def run(arguments: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *arguments],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


# Run in the production interpreter: the settings that matter, and a fresh SQLite connection.
READ_SETTINGS = """
import json
import django
django.setup()
from django.conf import settings
from django.core.cache import caches
from django.db import connection

with connection.cursor() as cursor:
    pragmas = {
        name: cursor.execute(f"PRAGMA {name}").fetchone()[0]
        for name in ("journal_mode", "busy_timeout")
    }
print(json.dumps({
    "pragmas": pragmas,
    "transaction_mode": connection.transaction_mode,
    "cache": type(caches["default"]).__name__,
    "staticfiles": settings.STORAGES["staticfiles"]["BACKEND"],
    **{name: getattr(settings, name) for name in (
        "DEBUG", "ALLOWED_HOSTS", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE",
        "SESSION_COOKIE_HTTPONLY", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS",
        "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD", "RATE_LIMIT_STORE",
    )},
}))
"""


# Run in the production interpreter: an organiser signs in over plain HTTP at a LAN address.
SIGN_IN_OVER_THE_LAN = """
import json
import django
django.setup()
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client, override_settings

# The pages' static files as in development: `make serve` collects them, this test does not.
static = {**settings.STORAGES, "staticfiles": {
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
}}
override_settings(STORAGES=static).enable()
get_user_model().objects.create_user(
    "organiser", password="a long venue password", is_staff=True
)
client = Client(HTTP_HOST="192.168.1.10:8000")
page = client.get("/accounts/login/")
signed_in = client.post(
    "/accounts/login/", {"username": "organiser", "password": "a long venue password"}
)
print(json.dumps({
    "login page": page.status_code,
    "hsts": page.get("Strict-Transport-Security"),
    "csrf cookie secure": page.cookies["csrftoken"]["secure"],
    "signed in": [signed_in.status_code, signed_in.get("Location")],
    "session cookie secure": signed_in.cookies["sessionid"]["secure"],
    "dashboard": client.get(signed_in["Location"]).status_code,
    "another host": Client(HTTP_HOST="10.0.0.99:8000").get("/").status_code,
}))
"""


class TestProductionSettings:
    def test_secret_key_is_required_when_debug_is_off(self, tmp_path):
        env = production_env(tmp_path)
        del env["SECRET_KEY"]

        completed = run(["-c", "import zole_site.settings"], env)

        assert completed.returncode != 0
        assert "SECRET_KEY must be set when DEBUG is off" in completed.stderr

    def test_check_deploy_prints_no_warning(self, tmp_path):
        # The check connects to nothing: no Redis server need be running at this address.
        completed = run(
            ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
            production_env(tmp_path, REDIS_URL="redis://127.0.0.1:6379/0"),
        )

        output = completed.stdout + completed.stderr
        assert completed.returncode == 0, output
        assert "WARNINGS" not in output
        assert "System check identified no issues" in output

    def test_check_deploy_does_look_at_the_settings(self, tmp_path):
        # The same check warns once HTTPS is off: the clean result above is not an empty check.
        completed = run(
            ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
            production_env(tmp_path, HTTPS="0"),
        )

        assert completed.returncode != 0
        assert "security.W008" in completed.stderr  # SECURE_SSL_REDIRECT
        assert "security.W012" in completed.stderr  # SESSION_COOKIE_SECURE

    def test_check_deploy_warns_that_without_a_shared_cache_live_pages_may_lag(self, tmp_path):
        # Each process then keeps its own copy of a page: another server's (or process's) copy
        # is refreshed only by its expiry, not by the write that made it stale.
        completed = run(
            ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
            production_env(tmp_path, PUBLIC_PAGE_CACHE_SECONDS="45"),
        )

        assert completed.returncode != 0
        assert "zole_site.W001" in completed.stderr
        assert "live pages may lag by up to 45 seconds" in completed.stderr
        assert "REDIS_URL" in completed.stderr

    def test_development_gets_no_shared_cache_warning(self, tmp_path):
        # One runserver process: a local cache lags behind nothing.
        completed = run(["manage.py", "check", "--deploy"], production_env(tmp_path, DEBUG="1"))

        assert completed.returncode == 0, completed.stderr
        assert "zole_site.W001" not in completed.stdout + completed.stderr

    def test_secure_cookies_hsts_redis_and_sqlite_wal_from_the_environment(self, tmp_path):
        completed = run(
            ["-c", READ_SETTINGS],
            production_env(tmp_path, REDIS_URL="redis://127.0.0.1:6379/0"),
        )
        assert completed.returncode == 0, completed.stderr
        values = json.loads(completed.stdout)

        assert values["DEBUG"] is False
        assert values["ALLOWED_HOSTS"] == ["zole.example.lv"]
        assert values["SESSION_COOKIE_SECURE"] is values["CSRF_COOKIE_SECURE"] is True
        assert values["SESSION_COOKIE_HTTPONLY"] is True
        assert values["SECURE_SSL_REDIRECT"] is True
        assert values["SECURE_HSTS_SECONDS"] >= 365 * 24 * 3600
        assert values["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is values["SECURE_HSTS_PRELOAD"] is True
        # Django's own Redis backend when REDIS_URL is set (no connection is made to read it).
        assert values["cache"] == "RedisCache"
        assert values["RATE_LIMIT_STORE"] == "cache"  # the rate limits count in Redis too
        assert values["staticfiles"] == "zole_site.static_files.HashedStaticFiles"
        # A file-based SQLite database: WAL, a 20 s busy timeout, writers queue at BEGIN.
        assert values["pragmas"] == {"journal_mode": "wal", "busy_timeout": 20_000}
        assert values["transaction_mode"] == "IMMEDIATE"

    def test_a_venue_laptop_serves_plain_http_on_its_wi_fi(self, tmp_path):
        # No internet, no certificate: the phones open http://<the laptop's address>:8000, so
        # nothing may send them to https (a redirect, HSTS) or keep a cookie from plain HTTP.
        env = production_env(tmp_path, HTTPS="0", ALLOWED_HOSTS="192.168.1.10")
        migrated = run(["manage.py", "migrate", "--noinput", "-v0"], env)
        assert migrated.returncode == 0, migrated.stderr

        completed = run(["-c", SIGN_IN_OVER_THE_LAN], env)

        assert completed.returncode == 0, completed.stderr
        seen = json.loads(completed.stdout)
        assert seen["login page"] == 200
        assert seen["hsts"] is None
        assert seen["csrf cookie secure"] == ""
        assert seen["signed in"] == [302, "/organise/"]
        assert seen["session cookie secure"] == ""
        assert seen["dashboard"] == 200
        # Another address than the one named is still refused.
        assert seen["another host"] == 400

    def test_without_redis_the_cache_is_local_memory(self, tmp_path):
        completed = run(["-c", READ_SETTINGS], production_env(tmp_path))
        assert completed.returncode == 0, completed.stderr

        values = json.loads(completed.stdout)
        assert values["cache"] == "LocMemCache"
        # Local memory is per process: the rate limits count in the database instead.
        assert values["RATE_LIMIT_STORE"] == "database"


class TestEmbedFrameAncestors:
    """The sites that may frame the embeds: origins separated by spaces or commas, checked at the
    start, since a typo in a header's directive would put it out of force."""

    @pytest.mark.parametrize(
        ("value", "sources"),
        [
            ("", []),
            ("   ", []),
            ("https://lzf.lv", ["https://lzf.lv"]),
            (
                "https://lzf.lv https://*.klubs.lv,http://localhost:8080",
                ["https://lzf.lv", "https://*.klubs.lv", "http://localhost:8080"],
            ),
            ("https://LZF.lv/ ,  'self'", ["https://lzf.lv", "'self'"]),
            ("*", ["*"]),
        ],
    )
    def test_origins_are_read_from_the_environment(self, monkeypatch, value, sources):
        monkeypatch.setenv("EMBED_FRAME_ANCESTORS", value)

        assert env_frame_ancestors("EMBED_FRAME_ANCESTORS") == sources

    @pytest.mark.parametrize(
        "value",
        [
            "lzf.lv",
            "https://lzf.lv/rezultati",
            "https://lzf.lv;script-src",
            "'none'",
            "https://lzf.*.lv",
            "ftp://lzf.lv",
            "https://lzf.lv:http",
            "'unsafe-inline'",
        ],
    )
    def test_anything_else_stops_the_start(self, monkeypatch, value):
        monkeypatch.setenv("EMBED_FRAME_ANCESTORS", f"https://lzf.lv {value}")

        with pytest.raises(ImproperlyConfigured, match="EMBED_FRAME_ANCESTORS takes origins"):
            env_frame_ancestors("EMBED_FRAME_ANCESTORS")

    def test_a_deployment_with_a_wrong_origin_does_not_start(self, tmp_path):
        env = production_env(tmp_path, EMBED_FRAME_ANCESTORS="https://lzf.lv/path")

        completed = run(["-c", "import zole_site.settings"], env)

        assert completed.returncode != 0
        assert "EMBED_FRAME_ANCESTORS takes origins" in completed.stderr


@pytest.mark.django_db
class TestTheTestDatabase:
    @pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "sqlite").startswith("sqlite"),
        reason="SQLite options: this run is on PostgreSQL",
    )
    def test_sqlite_connections_wait_for_a_writer(self):
        # The test database is in memory, where WAL does not exist ("memory" is SQLite's only
        # journal there); the file-based case is checked above. The busy timeout and the
        # immediate transactions apply to this connection as to any other.
        with connection.cursor() as cursor:
            journal_mode = cursor.execute("PRAGMA journal_mode").fetchone()[0]
            busy_timeout = cursor.execute("PRAGMA busy_timeout").fetchone()[0]
        expected = "memory" if connection.is_in_memory_db() else "wal"
        assert journal_mode == expected
        assert busy_timeout == 20_000
        assert connection.transaction_mode == "IMMEDIATE"


@pytest.mark.django_db
class TestContentSecurityPolicy:
    def test_every_html_page_gets_the_policy(self, client: Client):
        response = client.get("/")

        policy = response["Content-Security-Policy"]
        directives = dict(item.strip().split(" ", 1) for item in policy.split(";"))
        assert directives["default-src"] == "'self'"
        assert directives["script-src"] == "'self'"
        assert directives["style-src"] == "'self'"
        assert directives["object-src"] == "'none'"
        assert directives["frame-ancestors"] == "'none'"
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert response["X-Frame-Options"] == "DENY"
        assert response["Referrer-Policy"] == "same-origin"

    def test_a_pdf_gets_none(self, client: Client):
        # The browser's PDF viewer is a plugin that object-src 'none' would stop.
        from tests.tournament_play import played_tournament

        tournament = played_tournament(players=6, rounds=1)
        response = client.get(reverse("documents:standings_pdf", args=[tournament.slug]))

        assert response["Content-Type"] == "application/pdf"
        assert "Content-Security-Policy" not in response

    def test_no_template_has_inline_script_or_style(self):
        # The policy forbids them: an inline script would silently stop working.
        inline = re.compile(
            r"<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle=|\son[a-z]+=|javascript:", re.I
        )
        offenders = [
            f"{path.relative_to(ROOT)}: {match.group(0)}"
            for path in (ROOT / "templates").rglob("*.html")
            for match in inline.finditer(path.read_text(encoding="utf-8"))
        ]
        assert offenders == []


@pytest.mark.django_db
class TestUploadSize:
    def test_an_oversized_upload_is_refused_before_it_is_read(self, client: Client):
        client.force_login(make_organiser())
        players_before = Player.objects.count()
        too_large = b"Vards Uzvards;Klubs;\n" * (settings.REQUEST_BODY_MAX_BYTES // 20 + 1)
        upload = SimpleUploadedFile("players.csv", too_large, content_type="text/csv")

        response = client.post(reverse("organise:player_import"), {"file": upload})

        assert response.status_code == 413
        assert str(settings.REQUEST_BODY_MAX_BYTES // 1024) in response.content.decode()
        assert Player.objects.count() == players_before

    def test_an_upload_below_the_limit_reaches_the_import_and_its_own_check(self, client: Client):
        client.force_login(make_organiser())
        players_before = Player.objects.count()
        # Above the import's 1 MB, below the request limit: the import says what is wrong.
        large = b"Vards Uzvards;Klubs;\n" * 60_000
        assert len(large) < settings.REQUEST_BODY_MAX_BYTES
        upload = SimpleUploadedFile("players.csv", large, content_type="text/csv")

        response = client.post(reverse("organise:player_import"), {"file": upload})

        assert response.status_code == 200
        assert "1000 kB" in response.content.decode()
        assert Player.objects.count() == players_before
