"""Hostile names on the public pages' htmx parts and in the standings' exports: shown escaped,
exported as data."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from tests import hostile
from tests.hostile import ESCAPED_SCRIPT, SCRIPT, assert_escaped, hostile_client

pytestmark = pytest.mark.django_db

world = hostile.world  # a fixture: the tournament full of hostile names


class TestNamesAreHarmless:
    def test_the_htmx_part_of_the_standings_is_escaped(self, world):
        response = hostile_client().get(
            reverse("public:standings", args=[world.tournament.slug]), HTTP_HX_REQUEST="true"
        )
        assert_escaped(response, "standings (htmx)")
        assert ESCAPED_SCRIPT in response.content.decode()

    def test_the_htmx_part_of_the_hall_display_is_escaped(self, world):
        response = hostile_client().get(
            reverse("public:display", args=[world.tournament.slug]), HTTP_HX_REQUEST="true"
        )
        assert_escaped(response, "display (htmx)")
        assert ESCAPED_SCRIPT in response.content.decode()

    def test_the_standings_exports_carry_them_as_data(self, world):
        url = reverse("public:standings", args=[world.tournament.slug])
        response = hostile_client().get(url + "?_export=csv")
        assert response.status_code == 200
        rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
        assert any(f"{SCRIPT} Bērziņš" in cell for row in rows for cell in row)
        assert hostile_client().get(url + "?_export=xlsx").status_code == 200
