"""Repeated failures from one address get 429 (core.ratelimit): bad sign-ins and unknown
or withdrawn table links. Good requests from other addresses go on as before.

Every behaviour runs on both stores: the database (the default: every gunicorn worker and
server reads one count) and the cache (with REDIS_URL, shared the same way; the local memory
cache stands in for Redis here)."""

from __future__ import annotations

import datetime
import threading
import time
from collections.abc import Callable
from types import SimpleNamespace

import pytest
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.core.cache.backends import locmem
from django.db import connection
from django.db.models import F
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from core import ratelimit
from core.models import FailureCount
from core.ratelimit import LOGIN_FAILURES, TABLE_LINK_FAILURES, client_address
from tests.factories import make_organiser, make_published_round
from tournaments import services as tournament_services
from tournaments.models import TableToken

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


@pytest.fixture(params=["database", "cache"])
def store(request, settings) -> str:
    settings.RATE_LIMIT_STORE = request.param
    return request.param


@pytest.fixture
def jump_past_the_window(settings, monkeypatch) -> Callable[[], None]:
    """Time moves past the window: the database's windows end, the cache's entries expire."""

    def jump() -> None:
        if settings.RATE_LIMIT_STORE == "database":
            FailureCount.objects.update(
                expires_at=F("expires_at") - datetime.timedelta(seconds=WINDOW + 1)
            )
        else:
            later = time.time() + WINDOW + 1
            monkeypatch.setattr(locmem, "time", SimpleNamespace(time=lambda: later))

    return jump


def sign_in(client: Client, password: str, address: str = ATTACKER, username: str = "rita"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


@pytest.mark.usefixtures("store")
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
        assert response["Location"] == reverse("organise:dashboard")

    def test_good_sign_ins_never_count(self, client: Client):
        make_organiser(username="rita")
        for _ in range(ALLOWED + 2):
            assert sign_in(Client(), "zole-pass-123").status_code == 302

    def test_the_address_may_try_again_after_the_window(self, client: Client, jump_past_the_window):
        make_organiser(username="rita")
        for _ in range(ALLOWED):
            sign_in(client, "guess")
        assert sign_in(client, "zole-pass-123").status_code == 429

        jump_past_the_window()

        assert sign_in(client, "zole-pass-123").status_code == 302

    def test_two_parallel_clients_get_no_more_tries_than_one(self, client: Client, monkeypatch):
        # Each attempt takes its try before the password is checked (a slow hash): a second
        # client of the address, arriving during the check, gets no extra try.
        make_organiser(username="rita")
        for _ in range(ALLOWED - 1):
            sign_in(client, "guess")
        checked, parallel = [], []
        check_password = ModelBackend.authenticate

        def slow_check(backend, request, **credentials):
            checked.append(credentials.get("password"))
            if len(checked) == 1:  # the other client's request arrives meanwhile
                parallel.append(sign_in(Client(), "guess-2"))
            return check_password(backend, request, **credentials)

        monkeypatch.setattr(ModelBackend, "authenticate", slow_check)

        assert sign_in(client, "guess-1").status_code == 200  # the last try, a failure
        assert parallel[0].status_code == 429
        assert checked == ["guess-1"]
        assert sign_in(client, "zole-pass-123").status_code == 429

    def test_a_good_sign_in_gives_its_try_back(self, client: Client):
        make_organiser(username="rita")
        for _ in range(ALLOWED - 1):
            sign_in(client, "guess")
        for _ in range(2):
            assert sign_in(Client(), "zole-pass-123").status_code == 302
        assert sign_in(client, "guess").status_code == 200  # the address's last try

    def test_the_admin_signs_in_on_the_same_limited_page(self, client: Client):
        response = client.get("/admin/login/?next=/admin/")

        assert response.status_code == 302
        assert response["Location"] == reverse("login") + "?next=/admin/"


@pytest.mark.usefixtures("store")
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

    def test_a_withdrawn_link_is_told_so_and_never_counts(self, client: Client, token: str):
        """A revoked link was issued (never guessed): its holder is told it was replaced, and a
        venue's phones holding stale links do not lock out the others."""
        table = TableToken.objects.get(token=token).table
        tournament_services.table_token_revoke(table=table, by=None)
        for _ in range(ALLOWED + 2):
            assert client.get(f"/r/{token}/", REMOTE_ADDR=ATTACKER).status_code == 410

        assert client.get(f"/r/{'x' * 43}/", REMOTE_ADDR=ATTACKER).status_code == 404

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

    def test_an_unreachable_cache_lets_requests_through(self, settings, monkeypatch):
        settings.RATE_LIMIT_STORE = "cache"

        def unavailable(*args, **kwargs):
            raise ConnectionError("redis is down")

        monkeypatch.setattr(locmem.LocMemCache, "get", unavailable)
        monkeypatch.setattr(locmem.LocMemCache, "add", unavailable)

        request = self.request(ATTACKER)
        LOGIN_FAILURES.record_failure(request)
        assert LOGIN_FAILURES.refusal(request) is None


class TestSharedCount:
    """The count every worker and server reads: the database, unless a shared cache is set."""

    def request(self, address: str = ATTACKER):
        return RequestFactory().post("/accounts/login/", REMOTE_ADDR=address)

    def test_two_workers_with_their_own_local_memory_share_the_count(
        self, settings, client: Client, monkeypatch
    ):
        # No REDIS_URL: each gunicorn worker has its own local memory cache. Two caches stand
        # for two workers, taking the requests in turn; the limit holds across them.
        settings.RATE_LIMIT_STORE = "database"
        make_organiser(username="rita")
        workers = [locmem.LocMemCache(f"worker-{number}", {}) for number in (1, 2)]
        for attempt in range(ALLOWED):
            monkeypatch.setattr(ratelimit, "cache", workers[attempt % 2])
            assert sign_in(client, "guess").status_code == 200

        for worker in workers:
            monkeypatch.setattr(ratelimit, "cache", worker)
            assert sign_in(client, "zole-pass-123").status_code == 429

    def test_without_a_shared_cache_the_settings_count_in_the_database(self, settings):
        # zole_site/settings.py: REDIS_URL unset → the database.
        from zole_site import settings as site_settings

        assert (site_settings.RATE_LIMIT_STORE == "database") is (not site_settings.REDIS_URL)

    def test_one_row_per_scope_and_address_counted_in_place(self, settings):
        settings.RATE_LIMIT_STORE = "database"
        for _ in range(5):
            LOGIN_FAILURES.record_failure(self.request())
        TABLE_LINK_FAILURES.record_failure(self.request())
        LOGIN_FAILURES.record_failure(self.request(NEIGHBOUR))

        rows = FailureCount.objects.order_by("scope", "address").values_list(
            "scope", "address", "count"
        )
        assert list(rows) == [
            ("login", ATTACKER, 5),
            ("login", NEIGHBOUR, 1),
            ("table-link", ATTACKER, 1),
        ]
        window = FailureCount.objects.get(scope="login", address=ATTACKER)
        assert window.expires_at - timezone.now() <= datetime.timedelta(seconds=WINDOW)

    def test_a_new_window_starts_at_the_first_failure_after_the_last_one_ended(
        self, settings, jump_past_the_window
    ):
        settings.RATE_LIMIT_STORE = "database"
        for _ in range(ALLOWED):
            LOGIN_FAILURES.record_failure(self.request())
        assert LOGIN_FAILURES.refusal(self.request()).status_code == 429
        jump_past_the_window()
        assert LOGIN_FAILURES.refusal(self.request()) is None

        LOGIN_FAILURES.record_failure(self.request())

        assert FailureCount.objects.get(scope="login", address=ATTACKER).count == 1
        assert LOGIN_FAILURES.refusal(self.request()) is None

    def test_windows_that_ended_are_deleted(self, settings):
        settings.RATE_LIMIT_STORE = "database"
        ended = timezone.now() - datetime.timedelta(seconds=1)
        FailureCount.objects.create(
            scope="login", address="198.51.100.1", count=9, expires_at=ended
        )
        FailureCount.objects.create(scope="table-link", address=ATTACKER, count=2, expires_at=ended)

        LOGIN_FAILURES.record_failure(self.request())

        assert list(FailureCount.objects.values_list("scope", "address", "count")) == [
            ("login", ATTACKER, 1)
        ]

    def test_with_a_shared_cache_the_database_is_not_written(self, settings):
        settings.RATE_LIMIT_STORE = "cache"
        for _ in range(ALLOWED):
            LOGIN_FAILURES.record_failure(self.request())

        assert LOGIN_FAILURES.refusal(self.request()).status_code == 429
        assert not FailureCount.objects.exists()


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="concurrent writers: this run is on SQLite"
)
@pytest.mark.django_db(transaction=True)
def test_workers_failing_at_once_lose_no_failure(settings):
    """Eight connections (workers) record failures of one address at the same moment, the
    first ones racing to start the window: every failure is counted once."""
    settings.RATE_LIMIT_STORE = "database"
    workers, failures_each = 8, 5
    start = threading.Barrier(workers)

    def worker() -> None:
        try:
            start.wait()
            for _ in range(failures_each):
                LOGIN_FAILURES.record_failure(
                    RequestFactory().post("/accounts/login/", REMOTE_ADDR=ATTACKER)
                )
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    counted = FailureCount.objects.get(scope="login", address=ATTACKER).count
    assert counted == workers * failures_each


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="concurrent writers: this run is on SQLite"
)
@pytest.mark.django_db(transaction=True)
def test_attempts_made_at_once_take_no_more_tries_than_allowed(settings):
    """Eight connections (parallel clients of one address) begin an attempt at the same
    moment: exactly the allowed number go on to a password check, the others get 429."""
    settings.RATE_LIMIT_STORE = "database"
    workers = 8
    start = threading.Barrier(workers)
    let_through: list[bool] = []

    def worker() -> None:
        try:
            start.wait()
            request = RequestFactory().post("/accounts/login/", REMOTE_ADDR=ATTACKER)
            let_through.append(LOGIN_FAILURES.begin(request) is None)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(let_through) == [False] * (workers - ALLOWED) + [True] * ALLOWED
    assert FailureCount.objects.get(scope="login", address=ATTACKER).count == ALLOWED
