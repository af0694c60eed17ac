"""Every endpoint of the API, tried from its own OpenAPI schema (schemathesis, in-process on the
WSGI application) on a database holding a simulated tournament: no answer is a server error, and
every answer is one the schema declares (its status, content type and body)."""

from __future__ import annotations

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from ninja import Schema
from schemathesis.config import SchemathesisConfig

from api import people_api, ranking_api, schemas, table_entries_api, tokens_api, tournaments_api
from api.services import api_token_create
from api.table_entries_api import SYNC_BODY
from entry import sync
from tests.api.conftest import proof_tournament
from tests.factories import make_user
from tournaments.models import Player, TableToken

# Each endpoint meets this many generated requests: the suite runs twice in CI (SQLite and
# PostgreSQL), and a request is a whole page's work.
EXAMPLES = 25


def as_javascript_writes(value):
    """A JSON body as a browser's JSON.stringify writes it: a whole number without a fraction.
    JSON Schema counts -1000000.0 as an integer, Python reads it as a float, which the table's
    sync refuses (400, naming the entry and the field) as it refuses any fraction."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, dict):
        return {key: as_javascript_writes(item) for key, item in value.items()}
    if isinstance(value, list):
        return [as_javascript_writes(item) for item in value]
    return value


@pytest.fixture
def keep_the_tests_connection():
    """The requests reach the WSGI application itself, whose request signals close the database
    connection at the end of each one: that would close the test's own connection (its open
    transaction) under it on PostgreSQL. Django's test client disconnects the same receiver."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def api_schema(db, settings, keep_the_tests_connection):
    """The schema, with the values a request can name taken most often from the database: the
    simulated tournament, its rounds and tables, its players, a table's link; the rest of the
    time whatever the schema allows."""
    tournament = proof_tournament("thirds")
    organiser = make_user()
    tournament.organisers.add(organiser)  # his token reads its draft rounds, imports players
    secret = api_token_create(user=organiser, name="schemathesis").secret
    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "api-token": {"failures": 10**6, "seconds": 60},
        "table-link": {"failures": 10**6, "seconds": 60},
    }
    link = TableToken.objects.filter(
        table__round__tournament=tournament, table__round__number=3, revoked_at__isnull=True
    ).first()
    players = list(Player.objects.values_list("pk", flat=True)[:5])

    def values(*items):
        return {"values": list(items)}

    config = SchemathesisConfig.from_dict(
        {
            "dictionaries": {
                "slugs": values(tournament.slug),
                "numbers": values(1, 2, 3),
                "players": values(*players),
                "links": values(link.token),
            },
            "parameters": {
                "path.slug": {"dictionary": "slugs", "probability": 0.8},
                "path.number": {"dictionary": "numbers", "probability": 0.8},
                "path.table_number": {"dictionary": "numbers", "probability": 0.8},
                "path.player_id": {"dictionary": "players", "probability": 0.8},
                "path.token": {"dictionary": "links", "probability": 0.8},
            },
        }
    )
    schema = schemathesis.openapi.from_wsgi(
        "/api/v1/openapi.json", get_wsgi_application(), config=config
    )
    schema.secret = secret
    return schema


def test_every_answer_is_declared_by_the_schema_and_none_is_a_server_error(api_schema):
    headers = {"Authorization": f"Bearer {api_schema.secret}"}
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 15  # every endpoint, the organiser's and the table link's too

    failures = []
    # Each operation its own property (schemathesis's pytest plugin resolves a schema from a
    # fixture only through an attribute pytest 9 no longer has).
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        )
        def answers_as_declared(case):
            if case.body is not None:
                case.body = as_javascript_writes(case.body)
            case.call_and_validate(headers=headers)

        try:
            answers_as_declared()
        except (Exception, BaseExceptionGroup) as error:  # every endpoint is tried first
            failures.append(f"{operation.method.upper()} {operation.path}: {error}")
    assert not failures, "\n\n".join(failures)


def test_the_entries_body_in_the_schema_has_the_limits_the_phones_sync_keeps():
    body = SYNC_BODY["properties"]
    entry = body["entries"]["items"]["properties"]
    scores = entry["scores"]

    assert body["entries"]["maxItems"] == sync.MAX_ENTRIES
    assert body["waiting"]["maximum"] == body["refused"]["maximum"] == sync.MAX_COUNT
    assert scores["maxProperties"] == 4  # players at a table
    assert scores["additionalProperties"]["maximum"] == sync.MAX_SCORE
    assert scores["additionalProperties"]["minimum"] == -sync.MAX_SCORE
    assert entry["action"]["enum"] == list(sync.ENTRY_ACTIONS)


def test_two_answers_of_one_name_are_one_answer_in_the_schema():
    """OpenAPI names each answer's schema by its class: two classes of one name would leave
    one endpoint declaring the other's answer."""
    by_name: dict[str, list[dict]] = {}
    for module in (
        people_api,
        ranking_api,
        schemas,
        table_entries_api,
        tokens_api,
        tournaments_api,
    ):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Schema) and value is not Schema:
                shapes = by_name.setdefault(value.__name__, [])
                if value.model_json_schema() not in shapes:
                    shapes.append(value.model_json_schema())

    assert [name for name, shapes in by_name.items() if len(shapes) > 1] == []
