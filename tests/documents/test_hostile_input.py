"""Hostile names in the printed documents: printed as the characters typed, never interpreted."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests import hostile
from tests.hostile import IMG, SCRIPT, hostile_client

pytestmark = pytest.mark.django_db

world = hostile.world  # a fixture: the tournament full of hostile names
staff = hostile.staff  # a fixture: an organiser signed in


class TestNamesAreHarmless:
    def test_the_pdfs_print_them_as_plain_text(self, world):
        slug = world.tournament.slug
        staff, public = world.staff(), hostile_client()
        documents = {
            "sheets": staff.get(reverse("documents:round_sheets_pdf", args=[slug, 2])),
            "blank sheets": staff.get(
                reverse("documents:round_sheets_pdf", args=[slug, 1]) + "?blank=1"
            ),
            "seating": public.get(reverse("documents:round_seating_pdf", args=[slug, 2])),
            "standings": public.get(reverse("documents:standings_pdf", args=[slug])),
            "standings after round 1": public.get(
                reverse("documents:standings_pdf", args=[slug]) + "?round=1"
            ),
        }
        for name, response in documents.items():
            assert response.status_code == 200, name
            assert response["Content-Type"] == "application/pdf", name
            text = "\n".join(
                page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages
            )
            # The markup is printed as the characters typed (the tournament's name and venue
            # head every page), never interpreted.
            assert f"{SCRIPT} kauss" in text and f"{IMG} zāle" in text, name
            assert "DROP TABLE" in text, name
