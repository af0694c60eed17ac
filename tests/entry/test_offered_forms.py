"""The forms a table's sheet offers (entry/offered_forms.py), rendered by their template: each
page its own client keys, the players' names escaped, and the forms the sheet's state calls
for. The phone's own forms are held to these in tests/entry/test_entry_phone.py."""

import itertools

import pytest
from django.test import RequestFactory

from engine import PenaltyPule, Play, dealer_for
from engine.rules import Game
from entry import offered_forms
from entry.offered_forms import OfferedForms, entry_forms_html
from scoring import services
from scoring.services import Writer
from scoring.sheet.reader import table_sheet
from tests.factories import (
    deals_on_sheet,
    make_published_round,
    make_tournament,
    play_round_with,
    seat_keys,
)

pytestmark = pytest.mark.django_db

keys = (f"memo-key-{number}" for number in itertools.count())
REFEREE = Writer(ip_address="10.0.0.9")
PAGE_URL = "/r/a-link_0/"
CSRF = "csrf-token-of-this-page"
# Names that need escaping in text and in attributes, and one that looks like a placeholder.
NAMES = ['Ēriks "Ūsiņš" <b>', "Anna & O'Brien", "Žanis \x1ename0\x1e", "Ķ"]


@pytest.fixture(autouse=True)
def fixed_csrf_token(monkeypatch):
    monkeypatch.setattr(offered_forms, "get_token", lambda request: CSRF)


def direct(offered):
    """The forms rendered by their template."""
    context = offered_forms.forms_context(
        offered.state,
        offered.all,
        page_url=PAGE_URL,
        csrf_token=CSRF,
        correcting=offered.correcting,
        is_chief=offered.is_chief,
    )
    return offered_forms.render_to_string(offered_forms.FORMS_TEMPLATE, context)


def table_of(players, **options):
    tournament = make_tournament(**options)
    round_ = make_published_round(tournament, players=players)
    table = round_.tables.order_by("-id").first()
    for seat, name in zip(table.seats.select_related("registration__player"), NAMES, strict=False):
        seat.registration.player.full_name = name
        seat.registration.player.save()
    return table


def play(table, entries):
    start = len(table_sheet(table_id=table.pk).rows) + 1
    for position, entry in enumerate(entries, start=start):
        services.deal_record(
            table=table, entry=entry, position=position, client_key=next(keys), writer=REFEREE
        )


def deals_for(table, count):
    """`count` won Lielais deals, each by a player who plays it."""
    players = seat_keys(table)
    first = players[table.first_dealer_position - 1]
    entries = []
    for index in range(count):
        dealer = dealer_for(players, first, index)
        playing = [player for player in players if len(players) == 3 or player != dealer]
        entries.append(Play(Game.LIELAIS, playing[index % len(playing)], tricks=5, points=75))
    return entries


def offered_forms_of(table):
    sheet = table_sheet(table_id=table.pk)
    return OfferedForms(sheet, is_chief=False)


def rendered(offered):
    request = RequestFactory().get(PAGE_URL)
    return str(entry_forms_html(request, offered, page_url=PAGE_URL))


def test_each_page_has_its_own_client_keys():
    table = table_of(3)
    first, second = offered_forms_of(table), offered_forms_of(table)
    assert first.client_keys["deal"] != second.client_keys["deal"]
    assert first.client_keys["deal"] in rendered(first)
    assert first.client_keys["deal"] not in rendered(second)


def test_names_are_escaped_and_a_name_holding_a_placeholder_is_shown_as_it_is():
    table = table_of(4)
    page = rendered(offered_forms_of(table))
    assert "<b>" not in page and "&lt;b&gt;" in page
    assert "&quot;Ūsiņš&quot;" in page
    assert "Anna &amp; O&#x27;Brien" in page
    assert "Žanis \x1ename0\x1e" in page  # as it was, not another player's name
    assert "\x1e" not in page.replace("Žanis \x1ename0\x1e", "")


def test_a_penalty_on_the_sheet_offers_removing_it_at_its_version():
    table = table_of(4)
    play(table, deals_for(table, 2))
    play(table, [PenaltyPule(seat_keys(table)[0])])
    page = rendered(offered_forms_of(table))
    assert 'name="remove-position" value="3"' in page
    assert 'name="remove-base_version" value="1"' in page
    assert 'name="deal-position" value="4"' in page


@pytest.mark.parametrize("state", ["refused", "correcting", "complete", "confirmed"])
def test_the_forms_are_those_the_sheets_state_calls_for(state):
    table = table_of(3)
    play_round_with(table.round, deals_per_round=3)
    play(table, deals_for(table, 3 if state in ("complete", "confirmed") else 1))
    if state == "confirmed":
        confirmer = table.seats.order_by("position").first().registration
        services.table_confirm(
            table=table, writer=REFEREE, confirmer=confirmer, deals_seen=deals_on_sheet(table)
        )
    sheet = table_sheet(table_id=table.pk)
    if state == "refused":
        refused = offered_forms.DealForm(
            {"deal-position": "x"},
            prefix="deal",
            players=sheet.players,
            sitting_out=None,
            rules=sheet.rules,
        )
        offered = OfferedForms(sheet, is_chief=False, bound={"deal_form": refused})
    elif state == "correcting":
        offered = OfferedForms(sheet, is_chief=False, correcting=sheet.rows[0])
    else:
        offered = OfferedForms(sheet, is_chief=False)
    page = rendered(offered)
    assert page == direct(offered)
    offered_now = {name for name, form in offered.all.items() if form is not None}
    assert (
        offered_now
        == {
            "refused": {"deal_form", "penalty_form", "remove_form"},
            "correcting": {"correction_form"},
            "complete": {"confirm_form", "penalty_form", "remove_form"},
            "confirmed": set(),
        }[state]
    )
    assert ('name="action" value="confirm"' in page) == (state == "complete")
    assert ('class="errors"' in page or "errorlist" in page) == (state == "refused")


def test_a_player_renamed_is_named_anew_in_the_next_deals_choices():
    table = table_of(3)
    assert "Anna &amp; O&#x27;Brien" in rendered(offered_forms_of(table))
    seat = table.seats.select_related("registration__player").get(
        registration__player__full_name__startswith="Anna"
    )
    seat.registration.player.full_name = "Anna Bērziņa"
    seat.registration.player.save()
    page = rendered(offered_forms_of(table))
    assert "Anna Bērziņa" in page and "O&#x27;Brien" not in page
