"""What the phone's unit tests (tests/js/, run by `node --test tests/js/`) read is what the server
writes: a table's state before and after a round of entries (entry.state.table_state, the sheet
in the engine's JSON), what the engine scores of the sheet after them, the phone's queue of the
entries in between, the rows the server renders of that sheet (scoring/_sheet_row.html) and
feet (scoring/_sheet_foot.html), the same two files as the server hands them to the phone, and
the words it hands it (entry.phone). This test writes them again and fails when
tests/js/fixtures/ differs: after a change that changes them, run it with WRITE_JS_FIXTURES=1
and commit the files it wrote."""

from __future__ import annotations

import itertools
import json
import os
from pathlib import Path
from uuid import uuid4

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from django.template.loader import render_to_string
from django.utils import translation

from core.engine_text import error_text
from engine import Galdins, PenaltyPule, Play, SheetError
from engine.json_contract import entry_from_json, entry_to_json, score_json
from engine.rules import Game
from entry.forms import DealForm
from entry.phone import FOOT_TEMPLATE, _words, phone_sheet_templates
from entry.state import table_state
from scoring import services
from scoring.services import Writer
from scoring.sheet.reader import table_sheet
from scoring.templatetags.kept_sheet_rows import forget_rows, row_html
from tests.factories import make_published_round, play_round_with, seat_keys

pytestmark = pytest.mark.django_db

FIXTURE = Path(__file__).resolve().parents[1] / "js" / "fixtures" / "table.json"
REFEREE = Writer(ip_address="10.0.0.9")
NAMES = ('Jānis "Jo" <Ozols>', "Anna Kalna", "Pēteris Zariņš", "Ilze & Co")
LINK = "/r/table-link/"
# The server's clock and result ids vary from run to run: the fixture's are fixed.
HEARD_BEFORE, HEARD_AFTER = "2026-05-02T10:00:00Z", "2026-05-02T10:05:00Z"


def seated_table():
    """A table of four (the dealer sits out), pules, mazā zole and galdiņš played, names to
    escape."""
    round_ = make_published_round(players=4)
    play_round_with(round_, small_zole=True, all_pass="galdins_pule")
    table = round_.tables.get()
    seats = table.seats.select_related("registration__player").order_by("position")
    for seat, name in zip(seats, NAMES, strict=True):
        seat.registration.player.full_name = name
        seat.registration.player.save()
    return table


def entries_played(a, b, c, d):
    """The round's entries (the first seat deals first): won and lost games, a galdiņš, a
    penalty pule, mazā zole."""
    return [
        Play(Game.LIELAIS, b, tricks=5, points=75),
        Play(Game.ZOLE, d, tricks=2, points=40),
        Galdins(tricks={a: 3, b: 3, d: 2}, points={a: 45, b: 40, d: 35}),
        PenaltyPule(player=a),
        Play(Game.MAZA_ZOLE, a, tricks=0),
        Play(Game.LIELAIS, c, tricks=6, points=91),
    ]


SENT_BEFORE = 3  # the entries the server has in the state "before"; the rest wait on the phone
CORRECTED = (1, "wrong figures")  # then the first deal is corrected on the phone


def correction(b):
    return Play(Game.LIELAIS, b, tricks=4, points=61)


def renamed(value, aliases):
    """`value` with every player key (a registration id, which varies) named by its alias."""
    if isinstance(value, dict):
        return {aliases.get(key, key): renamed(item, aliases) for key, item in value.items()}
    if isinstance(value, list):
        return [renamed(item, aliases) for item in value]
    if isinstance(value, str):
        return aliases.get(value, value)
    return value


def refused_sheets(sheet_json, keys, names):
    """Sheets the engine refuses, each with the server's words for it (in English): a deal, a
    penalty pule after a deal, a player named in the message."""
    _a, b, _c, d = keys
    tries = [
        [*sheet_json["deals"], {"game": "lielais", "declarer": b, "tricks": 9, "points": 75}],
        [*sheet_json["deals"], {"penalty": "personal_pule", "player": "nobody"}],
        [*sheet_json["deals"][:3], {"game": "zole", "declarer": d, "tricks": 5, "points": 80}],
    ]
    refused = []
    with translation.override("en"):
        for deals in tries:
            bad = {**sheet_json, "deals": deals}
            try:
                score_json(bad)
            except SheetError as error:
                entries = [entry_from_json(deal) for deal in deals]
                said = error_text(error, names=names, entries=entries)
                refused.append({"sheet": bad, "text": said})
    assert len(refused) == len(tries), "each sheet is refused"
    return refused


def deals_and_dealers(entries, keys, sheet):
    """The sheet's deals (engine JSON, the first one corrected) with who dealt each."""
    return [
        [entry_to_json(entry), next(cell.player.key for cell in row.cells if cell.is_dealer)]
        for entry, row in zip([correction(keys[1]), *entries[1:]], sheet.rows, strict=True)
        if not isinstance(entry, PenaltyPule)
    ]


def fields_of(entry_json, sits_out):
    """The fields the server's deal form posts for a deal (entry.forms.DealForm, prefix "deal")."""
    fields = {"deal-game": entry_json["game"], "deal-sits_out": sits_out}
    if entry_json["game"] == "galdins":
        for key in entry_json["tricks"]:
            fields[f"deal-tricks_{key}"] = str(entry_json["tricks"][key])
            fields[f"deal-points_{key}"] = str(entry_json["points"][key])
    elif entry_json["game"] != "pass":
        fields["deal-declarer"] = entry_json["declarer"]
        fields["deal-tricks"] = str(entry_json["tricks"])
        if "points" in entry_json:
            fields["deal-points"] = str(entry_json["points"])
    return fields


def sheet_feet(sheet, scored):
    """The foot the server renders of the sheet once closed, with the engine's figures and
    with figures of both signs, with and without the correction links' column."""
    a, b, c, d = (player.key for player in sheet.players)
    figures = [
        (scored["settlement"], scored["totals"]),
        ({a: 6, b: -2, c: 0, d: -4}, {a: 20, b: -7, c: 1, d: -14}),
    ]
    feet = []
    for settlement, totals in figures:
        closed = {
            "settlement": [settlement[player.key] for player in sheet.players],
            "totals": [totals[player.key] for player in sheet.players],
            "rules": sheet.rules,
        }
        for editable in (False, True):
            html = render_to_string(FOOT_TEMPLATE, {"sheet": closed, "editable": editable})
            feet.append(
                {"settlement": settlement, "totals": totals, "editable": editable, "html": html}
            )
    return feet


def written_fixture():
    forget_rows()
    table = seated_table()
    keys = seat_keys(table)
    entries = entries_played(*keys)
    client_keys = (f"client-key-{n}" for n in itertools.count(1))
    for position, entry in enumerate(entries[:SENT_BEFORE], start=1):
        services.deal_record(
            table=table, entry=entry, position=position, client_key=next(client_keys),
            writer=REFEREE,
        )  # fmt: skip
    before = table_state(table_sheet(table_id=table.pk), link=LINK, sync=f"{LINK}sync/")
    queue = []
    for position, entry in enumerate(entries[SENT_BEFORE:], start=SENT_BEFORE + 1):
        action = "penalty" if isinstance(entry, PenaltyPule) else "deal"
        queue.append((action, position, entry, ""))
    position, reason = CORRECTED
    queue.append(("correct", position, correction(keys[1]), reason))
    records = []
    for seq, (action, position, entry, why) in enumerate(queue, start=1):
        key = next(client_keys)
        if action == "correct":
            services.deal_correct(
                table=table, position=position, entry=entry, base_version=1, client_key=key,
                reason=why, writer=REFEREE,
            )  # fmt: skip
        else:
            services.deal_record(
                table=table, entry=entry, position=position, client_key=key, writer=REFEREE
            )
        record = {"key": key, "link": LINK, "seq": seq, "action": action, "position": position}
        records.append({**record, "entry": entry_to_json(entry), "status": "waiting"})
        if why:
            records[-1]["reason"] = why
    sheet = table_sheet(table_id=table.pk)
    after = table_state(sheet, link=LINK, sync=f"{LINK}sync/")
    refused = refused_sheets(after["sheet"], keys, {p.key: p.name for p in sheet.players})
    with translation.override("en"):
        rows = [row_html(row, editable=False, page_url=LINK, pules=True) for row in sheet.rows]
        words = _words()
        templates = phone_sheet_templates()
        feet = sheet_feet(sheet, score_json(after["sheet"]))
    for deal, sits_out in deals_and_dealers(entries, keys, sheet):
        posted = {
            **fields_of(deal, sits_out),
            "deal-position": "1",
            "deal-client_key": str(uuid4()),
        }
        dealer = next(player for player in sheet.players if player.key == sits_out)
        form = DealForm(
            posted, prefix="deal", players=sheet.players, sitting_out=dealer, rules=sheet.rules
        )
        assert form.is_valid(), form.errors  # the fields are what the server's form takes
        assert entry_to_json(form.cleaned_data["entry"]) == deal
    # The deals as the server's deal form posts them: numbers as text, made after the keys are
    # renamed (a key is a number too).
    deals = deals_and_dealers(entries, keys, sheet)
    before.update(heard=HEARD_BEFORE, mark=1)
    after.update(heard=HEARD_AFTER, mark=2)
    aliases = {key: f"player-{seat}" for seat, key in enumerate(keys, start=1)}
    fixture = {
        "before": before,
        "queue": records,
        "after": after,
        # What the engine makes of the sheet after them.
        "scored": score_json(after["sheet"]),
        "rows": rows,
        "words": words,
        "feet": feet,
        # What the phone writes its rows and foot from, rendered from the same files.
        "templates": templates,
        "refused": refused,
    }
    fixture = json.loads(json.dumps(renamed(fixture, aliases), cls=DjangoJSONEncoder))
    fixture["forms"] = [
        {"fields": fields_of(deal, sits_out), "entry": deal}
        for deal, sits_out in renamed(deals, aliases)
    ]
    return fixture


def test_the_phones_fixtures_are_what_the_server_writes_now():
    fixture = written_fixture()
    if os.environ.get("WRITE_JS_FIXTURES"):
        text = json.dumps(fixture, ensure_ascii=False, indent=1, sort_keys=True)
        FIXTURE.write_text(text + "\n", encoding="utf-8")
    committed = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert committed == fixture, "tests/js/fixtures/ is stale: run with WRITE_JS_FIXTURES=1"
