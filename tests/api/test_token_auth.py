"""`Authorization: Bearer <secret>` at the API's door: no token, a wrong or revoked one is 401
with what to do; each token has its own limit of requests (429 with Retry-After)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import Client

from api import services
from api.models import ApiToken
from tests.factories import make_tournament, make_user

pytestmark = pytest.mark.django_db

URL = "/api/v1/organise/tournaments"


def made_token():
    organiser = make_user()
    make_tournament(slug="kauss").organisers.add(organiser)
    return services.api_token_create(user=organiser, name="Vietne")


def bearer(secret: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


def test_a_token_opens_its_owner_s_reads_and_records_its_use():
    made = made_token()

    answer = Client().get(URL, **bearer(made.secret))

    assert answer.status_code == 200
    assert [each["slug"] for each in answer.json()] == ["kauss"]
    assert ApiToken.objects.get().last_used_at is not None


@pytest.mark.parametrize(
    "header",
    [None, "Bearer ", "Bearer zole_nepareizs", "Basic YWxhZGRpbjpvcGVuc2VzYW1l", "zole_x"],
)
def test_no_token_or_a_wrong_one_is_401_saying_what_to_send(header):
    made_token()
    extra = {} if header is None else {"HTTP_AUTHORIZATION": header}

    answer = Client().get(URL, **extra)

    assert answer.status_code == 401
    assert "Bearer" in answer.json()["detail"] or "token" in answer.json()["detail"]
    assert answer["WWW-Authenticate"] == 'Bearer realm="api"'  # RFC 6750


def test_a_revoked_token_is_401():
    made = made_token()
    services.api_token_revoke(token=made.token, by=made.token.user)

    answer = Client().get(URL, **bearer(made.secret))

    assert answer.status_code == 401
    assert "revoked" in answer.json()["detail"]


def test_a_session_opens_none_of_the_token_s_endpoints():
    made = made_token()
    client = Client()
    client.force_login(made.token.user)

    assert client.get(URL).status_code == 401


def test_each_token_has_its_own_limit_of_requests(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "api-token": {"failures": 3, "seconds": 60}}
    made = made_token()
    other = services.api_token_create(user=made.token.user, name="Otra")
    client = Client()

    answers = [client.get(URL, **bearer(made.secret)).status_code for _ in range(4)]
    refused = client.get(URL, **bearer(made.secret))

    assert answers == [200, 200, 200, 429]
    assert refused.status_code == 429 and refused["Retry-After"] == "60"
    assert "minute" in refused.json()["detail"]
    assert client.get(URL, **bearer(other.secret)).status_code == 200


def test_too_many_wrong_tokens_from_one_address_are_refused_for_a_while(settings):
    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "api-token-failures": {"failures": 2, "seconds": 600},
    }
    made = made_token()
    client = Client()

    wrong = [client.get(URL, **bearer(f"zole_guess-{n}")).status_code for n in range(3)]
    right = client.get(URL, **bearer(made.secret))
    elsewhere = client.get(URL, REMOTE_ADDR="10.0.0.9", **bearer(made.secret))

    assert wrong == [401, 401, 429]
    assert right.status_code == 429 and right["Retry-After"] == "600"
    assert "10 minutes" in right.json()["detail"]
    assert elsewhere.status_code == 200


def test_a_wrong_token_sent_during_another_s_check_takes_no_extra_try(settings, monkeypatch):
    """Each token takes its try before it is looked up: a second wrong token arriving while the
    first is checked finds the address's tries used up."""
    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "api-token-failures": {"failures": 2, "seconds": 600},
    }
    made_token()
    client = Client()
    assert client.get(URL, **bearer("zole_guess-0")).status_code == 401
    looked_up, parallel = [], []
    look_up = services.token_for_secret

    def slow_look_up(secret: str):
        looked_up.append(secret)
        if len(looked_up) == 1:  # the other request of the address arrives meanwhile
            parallel.append(Client().get(URL, **bearer("zole_guess-parallel")))
        return look_up(secret)

    monkeypatch.setattr(services, "token_for_secret", slow_look_up)

    assert client.get(URL, **bearer("zole_guess-1")).status_code == 401  # the last try
    assert parallel[0].status_code == 429
    assert looked_up == ["zole_guess-1"]


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="concurrent requests: this run is on SQLite"
)
@pytest.mark.django_db(transaction=True)
def test_wrong_tokens_sent_at_once_get_no_more_tries_than_allowed(settings):
    """Twelve clients of one address send unknown tokens at the same moment: exactly the
    allowed number are looked up (401), the others get 429."""
    settings.RATE_LIMIT_STORE = "database"
    allowed, clients = 4, 12
    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "api-token-failures": {"failures": allowed, "seconds": 600},
    }
    start = threading.Barrier(clients)
    answers: list[int] = []

    def send(number: int) -> None:
        try:
            start.wait()
            answers.append(Client().get(URL, **bearer(f"zole_guess-{number}")).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(number,)) for number in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(answers) == [401] * allowed + [429] * (clients - allowed)
