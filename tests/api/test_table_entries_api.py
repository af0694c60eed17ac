"""A table's entries through the API: the phone's own sync at another address, the same body,
client keys and answers; the link writes, never a browser's signed-in account."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import DealResult
from tests.factories import make_published_round, make_user, seat_keys
from tournaments import services as tournament_services
from tournaments.models import AuditRecord, TableToken

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    round_ = make_published_round(players=6)
    return round_.tables.order_by("number").first()


def token_of(table) -> str:
    return TableToken.objects.get(table=table, revoked_at__isnull=True).token


def api_url(table) -> str:
    return f"/api/v1/tables/{token_of(table)}/entries"


def lielais(table, position, key):
    players = seat_keys(table)
    fields = {
        "deal-position": str(position),
        "deal-client_key": key,
        "deal-game": "lielais",
        "deal-declarer": players[position % len(players)],
        "deal-points": "75",
        "deal-tricks": "5",
    }
    return {"key": key, "action": "deal", "fields": fields, "scores": None}


def send(url, entries, client=None, **extra):
    body = json.dumps({"entries": entries, "waiting": len(entries), "refused": 0})
    return (client or Client()).post(url, body, content_type="application/json", **extra)


def test_entries_sent_to_the_api_are_stored_once_whatever_the_resends(table):
    entries = [lielais(table, 1, "k-1"), lielais(table, 2, "k-2")]

    first = send(api_url(table), entries)
    again = send(api_url(table), entries)

    assert first.status_code == again.status_code == 200
    assert [result["status"] for result in first.json()["results"]] == ["stored", "stored"]
    assert [result["status"] for result in again.json()["results"]] == ["stored", "stored"]
    assert DealResult.objects.filter(table=table).count() == 2
    state = again.json()["state"]
    assert [entry["position"] for entry in state["entries"]] == [1, 2]
    assert len(state["sheet"]["deals"]) == 2


def test_the_api_answers_as_the_phone_s_own_address(table):
    phone = reverse("entry:token_sync", args=[token_of(table)])
    send(api_url(table), [lielais(table, 1, "k-1")])

    through_api = send(api_url(table), [lielais(table, 2, "k-2")]).json()
    through_phone = send(phone, [lielais(table, 2, "k-2")]).json()

    for answer in (through_api, through_phone):
        answer["state"].pop("heard")
        # The next forms' CSRF and client keys are new on every page, as on the phone's.
        answer["html"] = {
            part: html
            and re.sub(r'name="(csrfmiddlewaretoken|[a-z]+-client_key)" value="[^"]*"', "", html)
            for part, html in answer["html"].items()
        }
    assert through_api == through_phone


def test_the_api_needs_no_csrf_token_and_writes_as_the_link_not_the_signed_in_account(table):
    chief = make_user()
    table.round.tournament.chief_referees.add(chief)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(chief)

    answer = send(api_url(table), [lielais(table, 1, "k-1")], client=browser)

    assert answer.status_code == 200
    entered = AuditRecord.objects.get(action=AuditRecord.Action.DEAL_ENTERED)
    assert entered.user is None
    phone = reverse("entry:token_sync", args=[token_of(table)])
    assert send(phone, [lielais(table, 2, "k-2")], client=browser).status_code == 403


@pytest.mark.parametrize(
    "body",
    [
        "nav JSON",
        "[]",
        '{"entries": 3}',
        '{"entries": [{"key": "a", "action": "x", "fields": {}}]}',
    ],
)
def test_a_body_that_is_not_the_protocol_is_400_and_writes_nothing(table, body):
    answer = Client().post(api_url(table), body, content_type="application/json")

    assert answer.status_code == 400 and answer.json()["error"]
    assert not DealResult.objects.exists()


def test_an_unknown_link_is_404(table):
    answer = send("/api/v1/tables/nav-tads/entries", [lielais(table, 1, "k-1")])

    assert answer.status_code == 404
    assert not DealResult.objects.exists()


def test_a_replaced_link_is_410_and_writes_nothing(table):
    url = api_url(table)
    tournament_services.table_token_revoke(table=table, by=None)

    answer = send(url, [lielais(table, 1, "k-1")])

    assert answer.status_code == 410 and answer.json()["gone"] is True
    assert not DealResult.objects.exists()


def test_too_many_unknown_links_from_one_address_is_a_json_429(table, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "table-link": {"failures": 2, "seconds": 600}}

    answers = [send(f"/api/v1/tables/nav-{n}/entries", []) for n in range(3)]

    assert [answer.status_code for answer in answers] == [404, 404, 429]
    refused = answers[-1]
    assert refused["Content-Type"] == "application/json"
    assert refused["Retry-After"] == "600" and "10 minutes" in refused.json()["detail"]


@pytest.mark.django_db(transaction=True)
def test_entries_whose_database_connection_dropped_are_sent_again_and_stored_once(monkeypatch):
    """As at the phone's address: the client keys make the whole sync safe to run twice, so a
    connection that broke under it (PostgreSQL restarting) costs a repeat, not a 503."""
    table = make_published_round(players=6).tables.order_by("number").first()
    from django.db import OperationalError, connection

    broken = {"now": False, "left": 1}
    real_close = connection.close

    def close():
        broken["now"] = False
        real_close()

    def break_the_first_insert(execute, sql, params, many, context):
        if broken["left"] and "INSERT" in sql:
            broken["left"] -= 1
            broken["now"] = True
            raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, params, many, context)

    monkeypatch.setattr(connection, "is_usable", lambda: not broken["now"])
    monkeypatch.setattr(connection, "close", close)
    url = api_url(table)
    with connection.execute_wrapper(break_the_first_insert):
        answer = send(url, [lielais(table, 1, "k-1")])

    assert answer.status_code == 200, answer.content[:200]
    assert [result["status"] for result in answer.json()["results"]] == ["stored"]
    assert DealResult.objects.filter(table=table).count() == 1


def test_the_answers_are_valid_against_the_schema_the_documentation_shows(table):
    from pydantic import TypeAdapter

    from api import table_entries_api

    stored = send(api_url(table), [lielais(table, 1, "k-1")])
    refused = Client().post(api_url(table), "[]", content_type="application/json")
    unknown = send("/api/v1/tables/nav/entries", [])
    url = api_url(table)
    tournament_services.table_token_revoke(table=table, by=None)
    gone = send(url, [])

    TypeAdapter(table_entries_api.SyncOut).validate_python(stored.json())
    TypeAdapter(table_entries_api.SyncRefusal).validate_python(refused.json())
    TypeAdapter(table_entries_api.SyncRefusal).validate_python(unknown.json())
    TypeAdapter(table_entries_api.LinkGone).validate_python(gone.json())
