"""Hostile names on the public pages' htmx parts and in the standings' exports: shown escaped,
exported as data."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from tests import hostile
from tests.hostile import (
    BAD_NUMBERS,
    ESCAPED_SCRIPT,
    LONG_TEXT,
    SCRIPT,
    assert_escaped,
    assert_refused,
    database_state,
    hostile_client,
)
from tournaments import services

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


class TestSelfCheckIn:
    @pytest.fixture
    def open_round(self, world):
        """Round 3 prepared: its check-in is open."""
        return services.round_create(tournament=world.tournament)

    def test_names_found_by_the_search_are_escaped(self, world, open_round):
        url = reverse("public:check_in", args=[world.tournament.slug])
        for query in ("berzin", "ozolin", SCRIPT):
            response = hostile_client().get(url, {"q": query})
            assert_escaped(response, f"check-in ?q={query}")
        assert ESCAPED_SCRIPT in hostile_client().get(url, {"q": "berzin"}).content.decode()

    @pytest.mark.parametrize("registration", [*BAD_NUMBERS, SCRIPT, LONG_TEXT])
    def test_odd_registrations_are_refused(self, world, open_round, registration):
        url = reverse("public:check_in", args=[world.tournament.slug])
        before = database_state()
        response = hostile_client().post(
            url, {"registration": registration, "code": open_round.check_in_code}
        )
        assert_refused(response, before, f"registration={registration[:20]!r}")

    @pytest.mark.parametrize("code", ["", SCRIPT, LONG_TEXT, "0O1I0", "ĀĀĀĀĀ", " " * 5])
    def test_odd_codes_are_refused(self, world, open_round, code):
        url = reverse("public:check_in", args=[world.tournament.slug])
        before = database_state()
        response = hostile_client().post(
            url, {"registration": world.entries[0].pk, "code": code, "q": SCRIPT}
        )
        assert_refused(response, before, f"code={code[:20]!r}")
        assert SCRIPT not in response.content.decode()

    def test_a_registration_of_another_tournament_is_refused(self, world, open_round):
        from tests.factories import make_registrations, make_tournament

        stranger = make_registrations(make_tournament(), 1)[0]
        url = reverse("public:check_in", args=[world.tournament.slug])
        before = database_state()
        response = hostile_client().post(
            url, {"registration": stranger.pk, "code": open_round.check_in_code}
        )
        assert_refused(response, before, "a stranger's registration")

    @pytest.mark.parametrize("token", ["x", "%00", "a" * 65, "..", SCRIPT])
    def test_odd_links_are_not_found(self, world, token):
        from django.urls import NoReverseMatch

        try:
            url = reverse("public:my_check_in", args=[world.tournament.slug, token])
        except NoReverseMatch:  # the address cannot even hold it
            return
        assert hostile_client().get(url).status_code in (400, 404)
