"""The API's documentation page and its root: read from the schema, so every address is there."""

from __future__ import annotations

import pytest
from django.test import Client

from api.routes import api

pytestmark = pytest.mark.django_db


def test_the_page_shows_every_address_of_the_schema_with_its_fields():
    page = Client().get("/api/v1/docs/", HTTP_ACCEPT_LANGUAGE="lv").content.decode()

    schema = api.get_openapi_schema()
    for path, methods in schema["paths"].items():
        for method in methods:
            assert f"{method.upper()} {path}" in page
    assert "results[].rounds{}.place_points" in page  # a standing's cell, three levels down
    assert "| python3 -m engine score" in page
    assert "Piemērs" in page  # in the reader's language


def test_the_root_says_where_everything_is():
    body = Client().get("/api/v1/").json()

    assert body["docs"] == "http://testserver/api/v1/docs/"
    assert body["schema"] == "http://testserver/api/v1/openapi.json"
    assert Client().get(body["tournaments"]).status_code == 200


def test_the_footer_links_to_the_documentation():
    assert 'href="/api/v1/docs/"' in Client().get("/").content.decode()


def test_the_page_shows_what_a_write_sends_and_which_addresses_need_a_token():
    page = Client().get("/api/v1/docs/", HTTP_ACCEPT_LANGUAGE="lv").content.decode()

    imported = page[page.index('id="op-api-v1-tournaments--slug--players"') :]
    imported = imported[: imported.index("</section>")]
    assert "players[].full_name" in imported  # the request's fields
    assert "players[].licence_number" in imported  # and the 201 answer's
    assert "Authorization: Bearer" in imported
    entries = page[page.index('id="op-api-v1-tables--token--entries"') :]
    entries = entries[: entries.index("</section>")]
    assert "entries[].action" in entries and "Authorization: Bearer" not in entries
    assert 'href="/organise/api-tokens/"' in page
    assert '-H "Authorization: Bearer $ZOLE_TOKEN"' in page


@pytest.mark.parametrize("path", ["/api/v1/nothing", "/api/v1/tournaments/", "/api/v1/x/y/z"])
def test_an_unknown_address_is_a_json_404_that_says_where_the_addresses_are(path):
    answer = Client().get(path)

    assert answer.status_code == 404
    assert answer.json()["detail"].endswith("Its addresses: http://testserver/api/v1/docs/")
