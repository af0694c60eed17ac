"""Hostile input against the season pages, a final's invitations and qualifiers, and the
ranking lists' queries."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import hostile
from tests.factories import make_player, make_tournament
from tests.hostile import (
    BAD_NUMBERS,
    ESCAPED_SCRIPT,
    HUGE,
    LONG_TEXT,
    NUL_TEXT,
    SCRIPT,
    assert_escaped,
    assert_refused,
    database_state,
    hostile_client,
)

pytestmark = pytest.mark.django_db

staff = hostile.staff  # a fixture: an organiser signed in


class TestRanking:
    """The season pages, a final's invitations and qualifiers, and the ranking lists' queries."""

    @pytest.fixture
    def season(self):
        from ranking.models import Season

        Season.objects.all().delete()
        return Season.objects.create(
            name="2026",
            starts_on="2026-01-01",
            ends_on="2026-12-31",
            points_table={"national": [100, 85, 75], "district": [50, 42], "club": [20, 16]},
        )

    def season_form(self, **changes: object) -> dict[str, object]:
        data: dict[str, object] = {
            "name": "2027",
            "starts_on": "2027-01-01",
            "ends_on": "2027-12-31",
            "best_k": 5,
            "qualifiers": 18,
            "points_national": "100, 85, 75",
            "points_district": "50, 42, 36",
            "points_club": "20, 16, 13",
        }
        data.update(changes)
        return data

    def test_season_forms(self, staff, season):
        bad_fields = [
            *(("best_k", value) for value in BAD_NUMBERS),
            *(("qualifiers", value) for value in BAD_NUMBERS),
            ("name", ""),
            ("name", LONG_TEXT),
            ("name", NUL_TEXT),
            ("starts_on", "2027-02-30"),
            ("starts_on", "<script>"),
            ("ends_on", "2026-01-01"),  # before the start
            *(
                ("points_national", value)
                for value in (
                    "abc",
                    "100, -5",
                    "100, 120",  # more for 2nd than for 1st
                    str(HUGE),
                    "1e309",
                    ", ".join(["1"] * 5000),
                    SCRIPT,
                    NUL_TEXT,
                )
            ),
        ]
        for url in (
            reverse("organise:season_create"),
            reverse("organise:season_edit", args=[season.pk]),
        ):
            for name, value in bad_fields:
                before = database_state()
                response = staff.post(url, self.season_form(**{name: value}))
                assert_refused(response, before, f"{url} {name}={str(value)[:40]!r}")
        assert staff.post(reverse("organise:season_create"), self.season_form()).status_code == 302

    def test_invitations_and_qualifiers(self, staff, season):
        final = make_tournament(slug="finals", level="national")
        player = make_player(full_name="Titula Turētāja")
        query = f"?season={season.pk}"
        invite = reverse("organise:invite", args=["finals"]) + query
        withdraw = reverse("organise:withdraw", args=["finals"]) + query
        good = {"player": player.pk, "reason": "title holder", "scope": "final"}
        bad = [
            *({**good, "player": value} for value in BAD_NUMBERS),
            {**good, "player": "999999"},
            {**good, "reason": LONG_TEXT},
            {**good, "scope": "everything"},
            {**good, "scope": SCRIPT},
            {},
        ]
        for data in bad:
            before = database_state()
            response = staff.post(invite, data)
            assert_refused(response, before, f"invite {str(data)[:60]}")
        for value in (*BAD_NUMBERS, "999999"):
            before = database_state()
            # Refused with a message on the qualification page it goes back to.
            response = staff.post(withdraw, {"invitation": value}, follow=True)
            assert_refused(response, before, f"withdraw {value[:40]!r}")
        # A reason with markup is stored as typed and shown escaped.
        response = staff.post(invite, {**good, "reason": SCRIPT})
        assert response.status_code == 302
        page = staff.get(reverse("organise:qualification", args=["finals"]) + query)
        assert_escaped(page, "qualification page")
        assert ESCAPED_SCRIPT in page.content.decode()
        for odd in ("season=abc", f"season={HUGE}", "season=-1", "q=%00", f"q={'x' * 5000}"):
            url = reverse("organise:qualification", args=[final.slug]) + f"?{odd}"
            assert staff.get(url).status_code < 500, odd
            assert staff.post(url).status_code < 500, odd

    def test_the_ranking_lists_odd_queries(self, season):
        client = hostile_client()
        odd = (
            "season=abc",
            f"season={HUGE}",
            "season=-1",
            "club=abc",
            f"club={HUGE}",
            "club=%00",
            "page=abc",
            f"page={HUGE}",
            "per_page=0",
            f"per_page={HUGE}",
            "sort=%3Cscript%3E",
            f"sort={'x' * 5000}",
            "_export=exe",
            "_export=%3Cscript%3E",
        )
        for url in (reverse("ranking:season"), reverse("ranking:rating")):
            for query in odd:
                response = client.get(f"{url}?{query}")
                assert response.status_code < 500, f"{url}?{query[:60]}"
                if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
                    assert_escaped(response, f"{url}?{query[:60]}")
