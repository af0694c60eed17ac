"""A place shared by tied players reads as the span of places they share ("2–3", an en dash)
wherever a place is shown: the score sheet's foot, the player's page."""

from __future__ import annotations

import itertools
import re

import pytest
from django.urls import reverse

from documents.printing import round_sheets_pdf
from engine import Play
from engine.rules import Game
from scoring import services
from scoring.services import Writer
from tests.documents.test_documents import entry_url, make_named_tournament, pdf_text
from tests.factories import deals_on_sheet, seat_keys
from tests.tournament_play import publish_next_round

pytestmark = pytest.mark.django_db

REFEREE = Writer(ip_address="10.0.0.9")
keys = (f"shared-place-key-{number}" for number in itertools.count())


@pytest.fixture
def tied_table():
    """A table of 3 where the first seat wins Lielais in all three deals: +6, and the two others
    −3 each, tied for places 2–3."""
    tournament = make_named_tournament(players=3, table_size=3, deals_per_round=3)
    round_ = publish_next_round(tournament)
    table = round_.tables.get()
    players = seat_keys(table)
    for index in range(3):
        services.deal_record(
            table=table,
            entry=Play(Game.LIELAIS, players[0], tricks=5, points=75),
            position=index + 1,
            client_key=next(keys),
            writer=REFEREE,
        )
    confirmer = table.seats.order_by("position").first().registration
    services.table_confirm(
        table=table, writer=REFEREE, confirmer=confirmer, deals_seen=deals_on_sheet(table)
    )
    return table


def test_the_score_sheet_prints_a_shared_place_as_its_span(tied_table):
    page = pdf_text(round_sheets_pdf(round_=tied_table.round, entry_url=entry_url))[0]

    assert re.search(r"^Place 1 2–3 2–3$", page, re.MULTILINE), page


def test_the_player_page_shows_a_shared_place_as_its_span(client, tied_table):
    seats = list(tied_table.seats.order_by("position").select_related("registration"))

    winner = client.get(reverse("public:player", args=[seats[0].registration.player_id]))
    tied = client.get(reverse("public:player", args=[seats[1].registration.player_id]))

    assert re.search(r"<td>2–3</td>", tied.content.decode())
    assert not re.search(r"<td>2–3</td>", winner.content.decode())
    assert re.search(r"<td>1</td>", winner.content.decode())


def test_the_rating_charts_marker_names_a_shared_place_as_its_span(client, tied_table):
    from ranking.models import RatingChange

    seats = list(tied_table.seats.order_by("position").select_related("registration"))
    assert RatingChange.objects.filter(table_result__table=tied_table).count() == 3

    tied = client.get(
        reverse("public:player", args=[seats[1].registration.player_id])
    ).content.decode()

    assert "table 1: place 2–3" in tied
    assert "table 1: place 2," not in tied
