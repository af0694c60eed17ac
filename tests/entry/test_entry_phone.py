"""What the entry page hands the phone's script (entry/phone.py): the forms it fills in for
the next entry are the server's own forms for that sheet, the sheet's row and foot it writes
its rows from are the server's own templates, and its words and the engine's messages are in
the page's language."""

import re
from pathlib import Path

import pytest
from django.template.loader import get_template
from django.test import RequestFactory
from django.test.signals import template_rendered
from django.utils import translation
from django.utils.html import escape

from engine import SheetError
from entry import offered_forms, phone
from entry.offered_forms import OfferedForms
from entry.phone import FOOT_TEMPLATE
from scoring.sheet.reader import table_sheet
from scoring.templatetags.kept_sheet_rows import ROW_TEMPLATE
from tests.entry.test_offered_forms import CSRF, PAGE_URL, deals_for, direct, play, table_of
from tests.factories import play_round_with

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fixed_csrf_token(monkeypatch):
    monkeypatch.setattr(offered_forms, "get_token", lambda request: CSRF)
    monkeypatch.setattr(phone, "get_token", lambda request: CSRF)
    phone.placeholder_forms.cache_clear()


PLACEHOLDERS = re.compile("\x1e([a-z_0-9]+)\x1e")


def placeholder_values(offered):
    """The values static/js/table/form-placeholders.js fills the placeholders in with, escaped."""
    sheet = offered.sheet
    values = {
        "url": PAGE_URL,
        "csrf": CSRF,
        "position": sheet.next_position,
        "number": sheet.next_deal_number,
        "deals": sheet.deals_played,
    }
    last = sheet.last_row
    if last is not None:
        values |= {"last_position": last.position, "last_version": last.version}
    for name, key in offered.client_keys.items():
        values[f"{name}_key"] = key
    for index, player in enumerate(sheet.players):
        values |= {
            f"key{index}": player.key,
            f"name{index}": player.name,
            f"short{index}": player.short_name,
            f"initials{index}": player.initials,
        }
    return {name: escape(value) for name, value in values.items()}


def phone_filled(template, offered):
    """A form template of the phone, filled in as static/js/table/form-placeholders.js fills it."""
    values = placeholder_values(offered)
    return PLACEHOLDERS.sub(lambda found: values[found[1]], template)


def data_for(offered):
    return phone.phone_data(RequestFactory().get(PAGE_URL), offered)


@pytest.mark.parametrize("is_chief", [False, True])
@pytest.mark.parametrize("players", [3, 4])
def test_the_phone_fills_in_the_forms_the_server_renders_for_each_next_dealer(players, is_chief):
    table = table_of(players, all_pass="galdins_pule", galdins_scoring="rondo", small_zole=True)
    entries = deals_for(table, players + 1)
    play(table, entries[:1])
    for entry in entries[1:]:  # every seat deals next once, the sheet having a row to remove
        sheet = table_sheet(table_id=table.pk)
        # The sync's answer leaves these forms out: the phone's own are the same.
        assert phone.phone_draws_forms(sheet)
        offered = OfferedForms(sheet, is_chief=is_chief)
        forms = data_for(offered)["forms"]
        dealer = str(sheet.players.index(sheet.next_dealer))
        assert phone_filled(forms[dealer], offered) == direct(offered)
        play(table, [entry])


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
def test_the_phones_forms_are_the_servers_under_every_rule_set_and_language(
    players, options, language
):
    table = table_of(players, **options)
    entries = deals_for(table, players + 1)
    play(table, entries[:1])
    with translation.override(language):
        for entry in entries[1:]:  # every seat deals next once, the sheet having a row to remove
            offered = OfferedForms(table_sheet(table_id=table.pk), is_chief=False)
            sheet = offered.sheet
            template = data_for(offered)["forms"][str(sheet.players.index(sheet.next_dealer))]
            assert phone_filled(template, offered) == direct(offered)
            play(table, [entry])


def test_the_forms_are_rendered_once_per_shape_for_every_table():
    one, two = table_of(3), table_of(3)
    play(one, deals_for(one, 1))
    play(two, deals_for(two, 1))
    first = OfferedForms(table_sheet(table_id=one.pk), is_chief=False)
    second = OfferedForms(table_sheet(table_id=two.pk), is_chief=False)
    data_for(first)
    rendered = phone.placeholder_forms.cache_info().currsize
    assert rendered == 5  # a dealer's each, the two confirmations
    forms = data_for(second)["forms"]
    assert phone.placeholder_forms.cache_info().currsize == rendered
    dealer = str(second.sheet.players.index(second.sheet.next_dealer))
    assert phone_filled(forms[dealer], second) == direct(second)


@pytest.mark.parametrize("is_chief", [False, True])
def test_the_phone_fills_in_the_confirmation_once_every_deal_is_in(is_chief):
    table = table_of(3)
    play_round_with(table.round, deals_per_round=3)
    play(table, deals_for(table, 2))
    forms = data_for(OfferedForms(table_sheet(table_id=table.pk), is_chief=is_chief))["forms"]
    play(table, deals_for(table, 3)[2:])
    complete = OfferedForms(table_sheet(table_id=table.pk), is_chief=is_chief)
    assert complete.confirm_form is not None
    assert phone_filled(forms["complete"], complete) == direct(complete)
    assert 'name="confirm-deals" value="3"' in phone_filled(forms["complete"], complete)


def test_a_locked_table_hands_the_phone_no_forms():
    table = table_of(3)
    table.round.status = "closed"
    table.round.save()
    offered = OfferedForms(table_sheet(table_id=table.pk), is_chief=False)
    assert data_for(offered)["forms"] == {}


def test_the_phone_words_and_the_engines_messages_are_in_the_pages_language():
    table = table_of(4)
    offered = OfferedForms(table_sheet(table_id=table.pk), is_chief=False)
    with translation.override("lv"):
        data = data_for(offered)
        template = "player %(player)s already has %(most)s penalty pules: at most %(most)s " + (
            "per player per round"
        )
        assert data["messages"][template] == translation.gettext(template) != template
        assert data["messages"]["deal %(deal)s: %(message)s"].startswith("%(deal)s. partij")
        assert data["words"]["waiting"] == escape(
            translation.gettext("Waiting on this phone: %(count)s")
        )
        assert translation.gettext("on this phone") != "on this phone"
        assert translation.gettext("on this phone") in data["sheet"]["row"]
        assert data["deals_per_round"] == offered.sheet.deals_per_round
    with translation.override("ru"):
        assert data_for(offered)["words"]["waiting"] != data["words"]["waiting"]


def test_every_message_the_engine_raises_is_handed_to_the_phone():
    """The engine's refusals are written from its marked templates: a template the phone is not
    handed would be shown in English."""
    templates = set(phone.engine_templates())
    assert len(templates) > 40
    assert all("%" not in text or re.search(r"%\(\w+\)[sd]", text) for text in templates)
    error = SheetError("points must be %(low)s-%(high)s, got %(value)s", low=0, high=120, value=1)
    assert error.template in templates


def test_the_phone_writes_its_rows_and_foot_from_the_servers_own_template_files():
    """The row and foot the phone is handed are rendered from the files the server renders
    its sheet with (their parts marked), not from a copy: tests/js/sheet-row.test.js holds what
    the phone writes from them to the server's rows."""
    phone._sheet_templates.cache_clear()
    rendered = []

    def seen(sender, template, context, **kwargs):
        rendered.append(template)

    template_rendered.connect(seen)
    try:
        with translation.override("en"):
            handed = phone.phone_sheet_templates()
    finally:
        template_rendered.disconnect(seen)
    servers = {name: get_template(name).origin.name for name in (ROW_TEMPLATE, FOOT_TEMPLATE)}
    assert {template.name: template.origin.name for template in rendered} == servers
    for template in rendered:
        assert template.source == Path(template.origin.name).read_text(encoding="utf-8")
    assert set(handed) == {"row", "foot"}
    assert all("\x1d#" in html and "\n" not in html for html in handed.values())
