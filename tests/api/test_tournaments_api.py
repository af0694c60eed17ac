"""The API's tournaments: what the public pages list, as JSON."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import make_tournament

pytestmark = pytest.mark.django_db


def test_the_tournament_list_names_every_tournament_by_its_address():
    make_tournament(slug="riga-open", name="Rīgas atklātais")

    answer = Client().get("/api/v1/tournaments")

    assert answer.status_code == 200
    assert [each["slug"] for each in answer.json()] == ["riga-open"]


def test_the_schema_is_served_at_a_stable_address():
    answer = Client().get("/api/v1/openapi.json")

    assert answer.status_code == 200
    assert answer.json()["info"] == {"title": "Zole", "version": "1", "description": ""}
