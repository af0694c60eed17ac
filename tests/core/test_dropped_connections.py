"""A database blip (PostgreSQL restarting under a request) costs the request a retry, never a 500.
The connection drops under Django here: a query fails as a restarting server makes it fail, and the
connection is unusable until Django lets go of it. The real restart under gunicorn is in
tests/test_crash.py."""

from __future__ import annotations

import sys

import pytest
from django.db import OperationalError, connection
from django.test import RequestFactory
from django.urls import reverse

from core.dropped_connections import RETRY_AFTER_SECONDS
from scoring.models import DealResult
from tests.factories import make_organiser, make_published_round, make_tournament, seat_keys
from tournaments.models import AuditRecord, TableToken
from zole_site import views

pytestmark = pytest.mark.django_db(transaction=True)


class DroppedConnection:
    """The connection breaks under the request: the next `failures` queries (those whose SQL
    contains `matching`) fail, and until Django closes the connection it reports itself
    unusable, as a psycopg connection whose server went away does. `usable=True` plays a query
    that fails on a sound connection instead (a deadlock, a missing table): a fault of the code."""

    def __init__(self, monkeypatch, *, failures: int = 1, matching: str = "", usable=False):
        self.failures = failures
        self.matching = matching
        self.usable = usable
        self.broken = False
        self.queries_failed = 0
        real_close = connection.close

        def close() -> None:
            self.broken = False  # the next connection is a new one
            real_close()

        monkeypatch.setattr(connection, "is_usable", lambda: not self.broken)
        monkeypatch.setattr(connection, "close", close)

    def __call__(self, execute, sql, params, many, context):
        if self.failures and self.matching in sql:
            self.failures -= 1
            self.queries_failed += 1
            self.broken = not self.usable
            raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, params, many, context)


@pytest.fixture
def table_link():
    round_ = make_published_round(make_tournament(table_size=3), players=3)
    table = round_.tables.get()
    token = TableToken.objects.get(table=table, revoked_at__isnull=True).token
    return table, reverse("entry:token_sheet", args=[token])


def deal_data(table, *, key: str = "a1b2c3d4-0000-4000-8000-000000000001") -> dict[str, object]:
    return {
        "action": "deal",
        "deal-position": 1,
        "deal-client_key": key,
        "deal-game": "lielais",
        "deal-declarer": seat_keys(table)[1],
        "deal-points": 75,
        "deal-tricks": 5,
    }


def test_a_read_whose_connection_dropped_is_repeated_on_a_new_connection(
    client, monkeypatch, table_link
):
    _table, url = table_link
    dropped = DroppedConnection(monkeypatch)
    with connection.execute_wrapper(dropped):
        response = client.get(url)
    assert response.status_code == 200
    assert dropped.queries_failed == 1
    assert "entry-deal-form" in response.content.decode()


def test_a_deal_whose_connection_dropped_before_the_commit_is_stored_once(
    client, monkeypatch, table_link
):
    table, url = table_link
    data = deal_data(table)
    dropped = DroppedConnection(monkeypatch, matching="INSERT")
    with connection.execute_wrapper(dropped):
        response = client.post(url, data)
    assert response.status_code == 302
    assert dropped.queries_failed == 1
    assert DealResult.objects.filter(table=table).count() == 1
    assert AuditRecord.objects.filter(action=AuditRecord.Action.DEAL_ENTERED).count() == 1


def test_a_deal_committed_whose_answer_was_lost_is_not_stored_twice(
    client, monkeypatch, table_link
):
    """The commit reached the server, then the connection dropped before it said so: the
    repeat finds the deal by its client key."""
    table, url = table_link
    dropped = DroppedConnection(monkeypatch, failures=0)
    real_commit = connection.commit
    commits = []

    def commit_then_drop() -> None:
        real_commit()
        if not commits:
            commits.append("lost")
            dropped.broken = True
            raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(connection, "commit", commit_then_drop)
    response = client.post(url, deal_data(table))
    assert response.status_code == 302
    assert commits == ["lost"]
    assert DealResult.objects.filter(table=table).count() == 1
    assert AuditRecord.objects.filter(action=AuditRecord.Action.DEAL_ENTERED).count() == 1


def test_a_database_still_away_after_the_repeat_gets_a_translated_try_again_503(
    client, monkeypatch, table_link
):
    table, url = table_link
    monkeypatch.setattr("core.dropped_connections.RECONNECT_PATIENCE_SECONDS", 0)
    data = deal_data(table)
    dropped = DroppedConnection(monkeypatch, failures=2)
    with connection.execute_wrapper(dropped):
        response = client.post(url, data, HTTP_ACCEPT_LANGUAGE="lv")
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert "no-store" in response["Cache-Control"] or "no-cache" in response["Cache-Control"]
    page = response.content.decode()
    assert "Mēģiniet vēlreiz" in page
    assert not DealResult.objects.filter(table=table).exists()


def test_a_write_that_cannot_be_repeated_is_not_run_twice_but_answered_503(client, monkeypatch):
    """An organiser's write has no client key: repeating it could do it twice."""
    organiser = make_organiser()
    client.force_login(organiser)
    tournament = make_tournament()
    dropped = DroppedConnection(monkeypatch)
    with connection.execute_wrapper(dropped):
        response = client.post(reverse("organise:round_create", args=[tournament.slug]))
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert dropped.queries_failed == 1  # not repeated
    assert not tournament.rounds.exists()


def test_a_query_failing_on_a_sound_connection_is_not_hidden(client, monkeypatch, table_link):
    """A deadlock, a timeout or a missing table is the code's fault: a 500, never retried."""
    _table, url = table_link
    dropped = DroppedConnection(monkeypatch, usable=True)
    with connection.execute_wrapper(dropped), pytest.raises(OperationalError):
        client.get(url)
    assert dropped.queries_failed == 1


def test_the_500_handler_answers_503_for_a_dropped_connection_only(monkeypatch):
    """A connection that drops outside a view (in a middleware, say) reaches handler500."""
    request = RequestFactory().get("/")
    dropped = DroppedConnection(monkeypatch, failures=0)
    dropped.broken = True
    try:
        raise OperationalError("terminating connection due to administrator command")
    except OperationalError:
        assert sys.exc_info()[0] is OperationalError
        assert views.server_error(request).status_code == 503
    dropped.broken = False
    connection.ensure_connection()  # a deadlock is met on an open connection (none is open here
    # on PostgreSQL, and a connection that could not be made counts as dropped)
    try:
        raise OperationalError("deadlock detected")
    except OperationalError:
        assert views.server_error(request).status_code == 500
