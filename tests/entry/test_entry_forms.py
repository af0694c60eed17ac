"""The entry forms kept rendered once per shape (entry/entry_forms.py): a page filled in
from the memory is exactly the page the forms' template renders for that sheet."""

import itertools

import pytest
from django.test import RequestFactory
from django.utils import translation

from engine import Galdins, Pass, PenaltyPule, Play, dealer_for
from engine.rules import Game
from entry import entry_forms
from entry.entry_forms import OfferedForms, entry_forms_html, forms_shape, marked_forms
from scoring import services
from scoring.services import Writer
from scoring.sheet_view import table_sheet_view
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
# Names that need escaping in text and in attributes, and one that looks like a mark.
NAMES = ['Ēriks "Ūsiņš" <b>', "Anna & O'Brien", "Žanis \x1ename0\x1e", "Ķ"]


@pytest.fixture(autouse=True)
def fixed_csrf_token(monkeypatch):
    monkeypatch.setattr(entry_forms, "get_token", lambda request: CSRF)
    marked_forms.cache_clear()


def direct(offered):
    """The forms rendered by their template, as a page that is not filled from the memory."""
    context = entry_forms.forms_context(
        offered.sheet,
        offered.all,
        page_url=PAGE_URL,
        csrf_token=CSRF,
        correcting=offered.correcting,
        is_chief=offered.is_chief,
    )
    return entry_forms.render_to_string(entry_forms.FORMS_TEMPLATE, context)


def table_of(players, **options):
    tournament = make_tournament(**options)
    round_ = make_published_round(tournament, players=players)
    table = round_.tables.order_by("-id").first()
    for seat, name in zip(table.seats.select_related("entry__player"), NAMES, strict=False):
        seat.entry.player.full_name = name
        seat.entry.player.save()
    return table


def play(table, entries):
    start = len(table_sheet_view(table_id=table.pk).rows) + 1
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


def offered_forms(table):
    sheet = table_sheet_view(table_id=table.pk)
    return OfferedForms(sheet, is_chief=False)


def filled(offered):
    request = RequestFactory().get(PAGE_URL)
    return str(entry_forms_html(request, offered, page_url=PAGE_URL))


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"all_pass": "galdins"},
        {"all_pass": "galdins_pule", "galdins_scoring": "rondo", "small_zole": True},
        {"all_pass": "pule", "four_table_pass_pules": 2},
    ],
    ids=["classic", "galdins", "lzf-rondo", "two-pules"],
)
@pytest.mark.parametrize("language", ["lv", "ru", "en"])
def test_the_filled_forms_are_the_forms_rendered_for_every_dealer(players, options, language):
    table = table_of(players, **options)
    entries = deals_for(table, players + 1)
    with translation.override(language):
        for deal, entry in enumerate(entries):  # every seat deals once, and the first again
            offered = offered_forms(table)
            assert forms_shape(offered) is not None
            assert filled(offered) == direct(offered), deal
            play(table, [entry])


def test_a_penalty_and_a_correction_in_the_sheet_change_nothing_but_the_values():
    table = table_of(4)
    keys_ = seat_keys(table)
    play(table, deals_for(table, 2))
    play(table, [PenaltyPule(keys_[0])])
    offered = offered_forms(table)
    assert filled(offered) == direct(offered)
    assert 'name="remove-base_version" value="1"' in filled(offered)


def test_different_tables_share_one_shape_and_keep_their_own_names_and_keys():
    one, two = table_of(3), table_of(3)
    play(one, deals_for(one, 1))
    play(two, deals_for(two, 1))
    first, second = offered_forms(one), offered_forms(two)
    if forms_shape(first) == forms_shape(second):
        marked_forms.cache_clear()
        filled(first)
        assert marked_forms.cache_info().currsize == 1
        assert filled(second) == direct(second)
        assert marked_forms.cache_info().hits >= 1
    for offered in (first, second):
        page = filled(offered)
        for player in offered.sheet.players:
            assert f'value="{player.key}"' in page


def test_each_page_has_its_own_client_keys():
    table = table_of(3)
    first, second = offered_forms(table), offered_forms(table)
    assert first.client_keys["deal"] != second.client_keys["deal"]
    assert first.client_keys["deal"] in filled(first)
    assert first.client_keys["deal"] not in filled(second)


def test_names_are_escaped_and_a_name_holding_a_mark_is_not_read_as_one():
    table = table_of(4)
    page = filled(offered_forms(table))
    assert "<b>" not in page and "&lt;b&gt;" in page
    assert "&quot;Ūsiņš&quot;" in page
    assert "Anna &amp; O&#x27;Brien" in page
    assert "Žanis \x1ename0\x1e" in page  # as it was, not another player's name
    assert "\x1e" not in page.replace("Žanis \x1ename0\x1e", "")


@pytest.mark.parametrize(
    "state",
    ["refused", "correcting", "complete", "confirmed"],
)
def test_forms_other_than_the_plain_next_deal_are_rendered_as_they_stand(state):
    table = table_of(3)
    play_round_with(table.round, deals_per_round=3)
    if state in ("complete", "confirmed"):
        play(table, deals_for(table, 3))
    else:
        play(table, deals_for(table, 1))
    if state == "confirmed":
        confirmer = table.seats.order_by("position").first().entry
        services.table_confirm(
            table=table, writer=REFEREE, confirmer=confirmer, deals_seen=deals_on_sheet(table)
        )
    sheet = table_sheet_view(table_id=table.pk)
    if state == "refused":
        refused = entry_forms.DealForm(
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
    assert forms_shape(offered) is None
    assert filled(offered) == direct(offered)


def test_a_galdins_and_a_pass_on_the_sheet_keep_the_plain_forms():
    table = table_of(3, all_pass="galdins")
    keys_ = seat_keys(table)
    galdins = Galdins(
        tricks=dict(zip(keys_, (2, 3, 3), strict=True)),
        points=dict(zip(keys_, (30, 40, 50), strict=True)),
    )
    play(table, [galdins])
    offered = offered_forms(table)
    assert filled(offered) == direct(offered)
    table_pule = table_of(3)
    play(table_pule, [Pass()])
    offered = offered_forms(table_pule)
    assert filled(offered) == direct(offered)
