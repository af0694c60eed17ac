"""The prize list, on the organisers' page and printed: the fund (the fees paid), the costs share
and each prized place's prize from the standings, tied players sharing; the PDF read back."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from documents.printing import prize_list_pdf
from scoring import selectors
from tests.factories import make_organiser, make_registrations, make_tournament, seat_keys
from tests.tournament_play import confirm_with_totals, publish_next_round
from tournaments import services
from tournaments.services import CategoryRow

pytestmark = pytest.mark.django_db


def pdf_text(content: bytes) -> str:
    """The text of every page; a no-break space (between an amount and €) reads as a space."""
    pages = PdfReader(io.BytesIO(content)).pages
    return "\n".join(page.extract_text() for page in pages).replace("\u00a0", " ")


@pytest.fixture
def tournament():
    """Six players at two tables of 3 with the same results at each: places 1-2, 3-4 and 5-6
    shared. Everyone paid 15 €; 20 % for costs; 50 30 20 to places 1-3."""
    tournament = make_tournament(
        slug="gulbene",
        rounds_planned=1,
        prize_costs_percent=Decimal(20),
        prize_shares="50 30 20",
        language="lv",
    )
    make_registrations(tournament, 6, clubs=2)
    services.fee_categories_save(
        tournament=tournament, rows=[CategoryRow(None, "Standarta", Decimal(15))], by=None
    )
    services.fees_paid_set(tournament=tournament, paid=tournament.registrations.all(), by=None)
    round_ = publish_next_round(tournament)
    for table in round_.tables.all():
        confirm_with_totals(table, dict(zip(seat_keys(table), [10, 0, -10], strict=True)))
    return tournament


def test_tied_players_share_the_prizes_of_their_places_and_all_adds_up_to_the_fund(tournament):
    prizes = selectors.prize_list(tournament=tournament)

    assert prizes.fund.total_cents == 9000
    assert prizes.costs_cents == 1800
    assert [(row.place, row.cents) for row in prizes.rows] == [
        ("1–2", 2880),
        ("1–2", 2880),
        ("3–4", 720),
        ("3–4", 720),
    ]
    assert prizes.costs_cents + prizes.prizes_cents == prizes.fund.total_cents


def test_the_printed_list_reads_back_with_the_fund_prizes_and_signature_lines(tournament):
    text = pdf_text(prize_list_pdf(tournament=tournament))

    with translation.override("lv"):
        for expected in (
            "90,00 €",
            "18,00 €",
            "72,00 €",
            "28,80 €",
            "7,20 €",
            "1–2",
            "3–4",
            "Standarta",
        ):
            assert expected in text, expected
        for signature in (translation.gettext("Chief referee"), translation.gettext("Secretary")):
            assert signature in text
    assert text.count("28,80") == 2


def test_the_prize_page_and_pdf_are_the_organisers_own(client, tournament):
    page = reverse("documents:prizes", args=["gulbene"])
    pdf = reverse("documents:prizes_pdf", args=["gulbene"])
    assert client.get(page).status_code == 302  # to sign in
    client.force_login(make_organiser())

    response = client.get(page)
    assert response.status_code == 200
    body = response.content.decode()
    assert "28.80\u00a0€" in body
    assert "72.00\u00a0€" in body
    response = client.get(pdf)
    assert response["Content-Type"] == "application/pdf"


def test_without_percentages_the_page_says_no_prizes_are_set(client):
    tournament = make_tournament(slug="bez-balvam", language="en")
    make_registrations(tournament, 3)
    client.force_login(make_organiser())

    response = client.get(reverse("documents:prizes", args=[tournament.slug]))

    assert "No prizes are set" in response.content.decode()
    assert "No prizes are set" in pdf_text(prize_list_pdf(tournament=tournament))


def test_percentages_are_written_as_the_language_writes_them_on_the_page_and_the_pdf(client):
    """Latvian writes 12,5 %, on the organisers' page and in the printed list alike."""
    tournament = make_tournament(
        slug="valmiera",
        prize_costs_percent=Decimal("12.5"),
        prize_shares="62.5 37.5",
        language="lv",
    )
    make_registrations(tournament, 3)
    client.force_login(make_organiser())

    page = client.get(
        reverse("documents:prizes", args=["valmiera"]), HTTP_ACCEPT_LANGUAGE="lv"
    ).content.decode()
    text = pdf_text(prize_list_pdf(tournament=tournament))

    assert "12,5\u00a0%" in page and "62,5\u00a0%" in page and "37,5\u00a0%" in page
    assert "12,5 %" in text
    assert "12.5" not in page + text and "62.5" not in page
