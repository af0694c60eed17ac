"""Repeated failures from one address get 429 (zole_site.ratelimit): bad sign-ins and unknown
or withdrawn table links. Good requests from other addresses go on as before."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.core.cache.backends import locmem
from django.test import Client, RequestFactory
from django.urls import reverse

from tests.factories import make_organiser, make_published_round
from tournaments import services as tournament_services
from tournaments.models import TableToken
from zole_site.ratelimit import LOGIN_FAILURES, client_address

pytestmark = pytest.mark.django_db

ALLOWED = 3
WINDOW = 60
ATTACKER = "203.0.113.7"
NEIGHBOUR = "203.0.113.8"


@pytest.fixture(autouse=True)
def small_limits(settings) -> None:
    settings.RATE_LIMITS = {
        "login": {"failures": ALLOWED, "seconds": WINDOW},
        "table-link": {"failures": ALLOWED, "seconds": WINDOW},
    }
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "rl"}
    }
    # A fast hasher: each sign-in attempt checks a password.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()


def sign_in(client: Client, password: str, address: str = ATTACKER, username: str = "rita"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


def jump_past_the_window(monkeypatch) -> None:
    later = time.time() + WINDOW + 1
    monkeypatch.setattr(locmem, "time", SimpleNamespace(time=lambda: later))


class TestSignIn:
    def test_too_many_bad_passwords_get_429_even_with_the_right_one(self, client: Client):
        make_organiser(username="rita")
        for _ in range(ALLOWED):
            assert sign_in(client, "guess").status_code == 200  # the form again, with an error

        refused = sign_in(client, "zole-pass-123")

        assert refused.status_code == 429
        assert refused["Retry-After"] == str(WINDOW)
        assert "Too many failed sign-in attempts" in refused.content.decode()
        assert "_auth_user_id" not in client.session
        # The page itself still opens (to read the message, or from a shared address later).
        assert client.get(reverse("login"), REMOTE_ADDR=ATTACKER).status_code == 200

    def test_another_address_signs_in_meanwhile(self, client: Client):
        make_organiser(username="rita")
        for _ in range(ALLOWED + 2):
            sign_in(client, "guess")

        response = sign_in(Client(), "zole-pass-123", address=NEIGHBOUR)

        assert response.status_code == 302
        assert response["Location"] == reverse("tournaments:dashboard")

    def test_good_sign_ins_never_count(self, client: Client):
        make_organiser(username="rita")
        for _ in range(ALLOWED + 2):
            assert sign_in(Client(), "zole-pass-123").status_code == 302

    def test_the_address_may_try_again_after_the_window(self, client: Client, monkeypatch):
        make_organiser(username="rita")
        for _ in range(ALLOWED):
            sign_in(client, "guess")
        assert sign_in(client, "zole-pass-123").status_code == 429

        jump_past_the_window(monkeypatch)

        assert sign_in(client, "zole-pass-123").status_code == 302

    def test_the_admin_signs_in_on_the_same_limited_page(self, client: Client):
        response = client.get("/admin/login/?next=/admin/")

        assert response.status_code == 302
        assert response["Location"] == reverse("login") + "?next=/admin/"


class TestTableLinks:
    @pytest.fixture
    def token(self) -> str:
        round_ = make_published_round(players=6)
        return TableToken.objects.filter(table__round=round_, revoked_at__isnull=True)[0].token

    def test_guessing_links_gets_429(self, client: Client, token: str):
        for number in range(ALLOWED):
            response = client.get(f"/r/guess-{number}/", REMOTE_ADDR=ATTACKER)
            assert response.status_code == 404

        refused = client.get("/r/guess-next/", REMOTE_ADDR=ATTACKER)
        assert refused.status_code == 429
        assert refused["Retry-After"] == str(WINDOW)
        assert "ask the organiser" in refused.content.decode()
        # The referees at the tables, on other addresses, enter deals as before.
        assert client.get(f"/r/{token}/", REMOTE_ADDR=NEIGHBOUR).status_code == 200

    def test_a_working_link_is_served_to_an_address_that_used_up_its_failures(
        self, client: Client, token: str
    ):
        # A venue's players share one public address: stale links and typos from some phones
        # must not lock the tables of everyone else (a 256-bit link is not guessed anyway).
        for number in range(ALLOWED + 2):
            client.get(f"/r/guess-{number}/", REMOTE_ADDR=ATTACKER)
        assert client.get("/r/guess-next/", REMOTE_ADDR=ATTACKER).status_code == 429

        page = client.get(f"/r/{token}/", REMOTE_ADDR=ATTACKER)
        assert page.status_code == 200
        entered = client.post(
            f"/r/{token}/",
            {
                "action": "deal",
                "deal-position": 1,
                "deal-client_key": "venue-1",
                "deal-game": "pass",
            },
            REMOTE_ADDR=ATTACKER,
        )
        assert entered.status_code == 302
        # Unknown links from that address are still refused until the window ends.
        assert client.get("/r/guess-later/", REMOTE_ADDR=ATTACKER).status_code == 429

    def test_a_withdrawn_link_counts_as_a_failure(self, client: Client, token: str):
        table = TableToken.objects.get(token=token).table
        tournament_services.table_token_revoke(table=table, by=None)
        for _ in range(ALLOWED):
            assert client.get(f"/r/{token}/", REMOTE_ADDR=ATTACKER).status_code == 404

        assert client.get(f"/r/{token}/", REMOTE_ADDR=ATTACKER).status_code == 429

    def test_a_working_link_never_counts(self, client: Client, token: str):
        for _ in range(ALLOWED + 2):
            assert client.get(f"/r/{token}/", REMOTE_ADDR=ATTACKER).status_code == 200


class TestClientAddress:
    def request(self, address: str, forwarded: str | None = None):
        extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
        return RequestFactory().get("/", REMOTE_ADDR=address, **extra)

    def test_without_a_proxy_the_forwarded_header_is_ignored(self, settings):
        settings.TRUSTED_PROXIES = 0
        request = self.request(ATTACKER, forwarded="198.51.100.1")

        assert client_address(request) == ATTACKER

    def test_behind_a_proxy_the_address_the_proxy_saw(self, settings):
        settings.TRUSTED_PROXIES = 1
        # The client made up the first entry; the proxy appended the address it saw.
        request = self.request("10.0.0.2", forwarded=f"198.51.100.1, {ATTACKER}")

        assert client_address(request) == ATTACKER

    def test_an_ipv6_client_counts_by_its_64(self):
        first = client_address(self.request("2001:db8:1:2::10"))
        second = client_address(self.request("2001:db8:1:2:ffff::1"))

        assert first == second == "2001:db8:1:2::/64"
        assert client_address(self.request("2001:db8:1:3::10")) != first

    def test_an_unreachable_cache_lets_requests_through(self, monkeypatch):
        def unavailable(*args, **kwargs):
            raise ConnectionError("redis is down")

        monkeypatch.setattr(locmem.LocMemCache, "get", unavailable)
        monkeypatch.setattr(locmem.LocMemCache, "add", unavailable)

        request = self.request(ATTACKER)
        LOGIN_FAILURES.record_failure(request)
        assert LOGIN_FAILURES.refusal(request) is None
