"""What the entry page hands its script (static/js/table/page.js) so that the phone can take the
next entries with no server: the words it writes (translated here, escaped as HTML), the engine's
messages in the reader's language, and the entry forms it fills in for the next deal.

The forms are the server's own (entry/_entry_forms.html through `entry.offered_forms`), rendered
from a `FormsState` with a placeholder in place of each value that changes from one deal to the
next (`placeholder`: the next position, the players' names, the client keys...): one set per
dealer (at a table of four he sits out, so the declarer's buttons and the galdiņš rows differ),
and the end of the round (every deal in, or time up with the deal under way entered: the
confirmation). The phone fills the placeholders in (static/js/table/form-placeholders.js). Each
set is rendered once per shape (the language, the rules, the table's size, who deals) and kept in
a bounded LRU: rendering the five sets of a table of four was half the CPU of the entry page
(bench/entry.py).

The sheet's row and foot are the server's own too (scoring/_sheet_row.html, _sheet_foot.html),
compiled with every part marked (scoring.templatetags.sheet_row_parts) and rendered with a
placeholder for each value: the phone writes its rows from them (static/js/table/sheet-row.js)."""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from pathlib import Path

from django import forms
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template import Context
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils import formats, timezone
from django.utils.html import escape
from django.utils.translation import get_language, gettext, ngettext, pgettext

import engine
from core.engine_text import GAME_WORDS
from engine import Rules
from engine.rules import TRICKS_PER_DEAL
from entry.forms import REASON_MAX_LENGTH
from entry.offered_forms import (
    FORMS_TEMPLATE,
    SUBMISSIONS,
    FormsState,
    OfferedForms,
    default_forms,
    forms_context,
    offers_next_deal,
)
from scoring.sheet.shape import SheetPlayer, TableSheet
from scoring.templatetags.kept_sheet_rows import ROW_TEMPLATE
from scoring.templatetags.sheet_row_parts import marked_template

# The messages the engine's refusals are written from: every literal it marks for translation.
ENGINE_DIR = Path(engine.__file__).parent
# How error_text places a refusal on the referee's sheet (core.engine_text).
PLACED = (
    "deal %(deal)s: %(message)s",
    "penalty pule before the first deal: %(message)s",
    "penalty pule after deal %(deal)s: %(message)s",
)


@cache
def engine_templates() -> tuple[str, ...]:
    """Every `gettext_noop("...")` literal of the engine's modules."""
    found: list[str] = []
    for path in sorted(ENGINE_DIR.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "gettext_noop"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.append(node.args[0].value)
    return tuple(dict.fromkeys([*found, *PLACED]))


def engine_messages() -> dict[str, str]:
    """The engine's messages in the active language, by their English template (only those
    translated: the phone shows the English where there is none, as the server does)."""
    translated = {template: gettext(template) for template in engine_templates()}
    return {template: text for template, text in translated.items() if text != template}


# --- The forms with placeholders ----------------------------------------------------------------

# A placeholder is a name between two ASCII record separators: no template, name or value holds
# one. The phone's script fills each in with the page's value, escaped as the template escapes.
PLACEHOLDER = "\x1e{}\x1e"
SHAPES_KEPT = 256  # languages x rule sets x tables of 3 and 4 x who deals: a handful in use


def placeholder(name: str) -> str:
    return PLACEHOLDER.format(name)


@dataclass(frozen=True)
class FormsShape:
    """What a set of the phone's forms is decided by: the key of the kept sets."""

    language: str
    rules: Rules
    deals_per_round: int
    seats: int  # 3 or 4
    dealer: int  # the seat (0-based) of the next deal's dealer, who sits out at a table of 4
    is_chief: bool = False
    end: str = ""  # "complete", "time_up": the confirmation; "": the next deal


def placeholder_player(index: int) -> SheetPlayer:
    return SheetPlayer(
        key=placeholder(f"key{index}"),
        registration=None,  # type: ignore[arg-type]  # the forms read the key and the names only
        seat=index + 1,
        name=placeholder(f"name{index}"),
        short_name=placeholder(f"short{index}"),
        initials=placeholder(f"initials{index}"),
    )


@lru_cache(maxsize=SHAPES_KEPT)
def placeholder_forms(shape: FormsShape) -> str:
    """The forms of this shape with placeholders (in the shape's language, which is the active
    one: it is part of the key)."""
    players = tuple(placeholder_player(index) for index in range(shape.seats))
    if shape.end:
        dealer, sitting_out = players[0], None
    else:
        dealer = players[shape.dealer]
        sitting_out = dealer if shape.seats == 4 else None
    state = FormsState(
        players=players,
        rules=shape.rules,
        deals_per_round=shape.deals_per_round,
        next_dealer=dealer,
        next_sitting_out=sitting_out,
        next_position=placeholder("position"),
        next_deal_number=placeholder("number"),
        deals_played=placeholder("deals"),
        last_position=placeholder("last_position"),
        last_version=placeholder("last_version"),
        is_complete=shape.end == "complete",
        at_time_limit=shape.end == "time_up",
        can_confirm=bool(shape.end),
    )
    chosen = default_forms(
        state,
        is_chief=shape.is_chief,
        correcting=None,
        client_keys={name: placeholder(f"{name}_key") for name in SUBMISSIONS},
    )
    context = forms_context(
        state,
        chosen,
        page_url=placeholder("url"),
        csrf_token=placeholder("csrf"),
        is_chief=shape.is_chief,
    )
    return render_to_string(FORMS_TEMPLATE, context)


# --- The sheet's row and foot with their parts marked --------------------------------------------

# The sheet's foot (the row's file is kept_sheet_rows.ROW_TEMPLATE).
FOOT_TEMPLATE = "scoring/_sheet_foot.html"


def _placeholder_names(prefix: str) -> dict[str, str]:
    return {
        "short_name": placeholder(f"{prefix}_short"),
        "name": placeholder(f"{prefix}_name"),
        "initials": placeholder(f"{prefix}_initials"),
    }


def _placeholder_row() -> dict[str, object]:
    """What scoring/_sheet_row.html reads of a row, each value a placeholder: the phone's
    values (static/js/table/sheet-row.js), and one galdiņš player and one cell, which it repeats."""
    cell = {name: placeholder(name) for name in ("score", "total", "personal_pules")}
    return {
        "position": placeholder("position"),
        "number": placeholder("number"),
        "game_words": placeholder("game"),
        "common_pules": placeholder("common_pules"),
        "declarer": _placeholder_names("declarer"),
        "points": placeholder("points"),
        "tricks": placeholder("tricks"),
        "galdins": [
            (
                _placeholder_names("player"),
                placeholder("player_tricks"),
                placeholder("player_points"),
            )
        ],
        "pule_owner": _placeholder_names("owner"),
        "version": placeholder("version"),
        "result": {"reason": placeholder("reason")},
        "cells": [cell],
    }


def _on_one_line(html: str) -> str:
    """The phone writes its rows with no line break or indent between their cells."""
    return "".join(line.lstrip(" ") for line in html.split("\n"))


@lru_cache(maxsize=SHAPES_KEPT)
def _sheet_templates(language: str) -> dict[str, str]:
    """Rendered once per language: a row's parts are all in it, whatever the table's shape."""
    row = {
        "row": _placeholder_row(),
        "page_url": placeholder("url"),
        "columns": placeholder("columns"),
        "refusal": placeholder("refusal"),
        "key": placeholder("key"),
    }
    foot = {"sheet": {"settlement": [placeholder("value")], "totals": [placeholder("value")]}}
    return {
        "row": _on_one_line(marked_template(ROW_TEMPLATE).render(Context(row))),
        "foot": _on_one_line(marked_template(FOOT_TEMPLATE).render(Context(foot))),
    }


def phone_sheet_templates() -> dict[str, str]:
    """The sheet's row (scoring/_sheet_row.html) and foot (scoring/_sheet_foot.html) with every
    part marked and every value a placeholder, in the active language (part of the key): the
    phone writes its rows from them."""
    return _sheet_templates(get_language())


def _words() -> dict[str, object]:
    """The words the phone writes, escaped as HTML (it puts them in the page as they are)."""
    return {
        # The values of a sheet's row (scoring/_sheet_row.html, handed: `phone_sheet_templates`).
        "tricks": [
            escape(ngettext("%(tricks)s trick", "%(tricks)s tricks", count) % {"tricks": count})
            for count in range(TRICKS_PER_DEAL + 1)
        ],
        "games": {game: escape(words) for game, words in GAME_WORDS.items()},
        "entry": escape(gettext("entry")),
        # The sheet's progress, and the sheet with no row.
        "progress_next": escape(gettext("Deal %(number)s of %(total)s")),
        "progress_complete": escape(gettext("All %(total)s deals are in")),
        "progress_time_up": escape(gettext("%(number)s of %(total)s deals played · time is up")),
        "no_deals": escape(gettext("No deals yet.")),
        # The phone's own words: its queue and what the server made of it.
        "waiting": escape(gettext("Waiting on this phone: %(count)s")),
        "refused_count": escape(gettext("Refused: %(count)s (see the sheet)")),
        "all_sent": escape(gettext("Every entry is on the server.")),
        "offline": escape(gettext("No connection")),
        "sending": escape(gettext("Sending…")),
        "heard": escape(gettext("Server's last answer: %(time)s")),
        "never_heard": escape(gettext("No answer from the server yet.")),
        "confirm_waits": escape(
            gettext(
                "The confirmation waits on this phone: it is sent after the deals, as soon as "
                "the connection allows. Keep this page open or open it again later."
            )
        ),
        # A correction the phone makes from the next deal's form (entry.forms.DealForm).
        "correct_deal": escape(gettext("Correct deal %(number)s")),
        "correct_penalty": escape(gettext("Correct the penalty pule (entry %(position)s)")),
        "why_corrected": escape(gettext("Why is it corrected?")),
        "save_correction": escape(gettext("Save the correction")),
        "back": escape(gettext("Back to the sheet")),
        "reason_length": REASON_MAX_LENGTH,
        "confirmation": escape(gettext("Confirm the table")),
        "removal": escape(gettext("Remove the last entry")),
        # The entry forms' own refusals (entry.forms.DealForm), said before the engine's.
        "required": escape(forms.Field.default_error_messages["required"]),
        "choose_declarer": escape(gettext("Choose the declarer.")),
        "enter_tricks": escape(gettext("Enter the declarer's tricks (0-8).")),
        "enter_points": escape(gettext("Enter the declarer's card points (0-120).")),
        "enter_his_tricks": escape(gettext("Enter his tricks (0-8).")),
        "enter_his_points": escape(gettext("Enter his card points (0-120).")),
        "draw": escape(
            gettext(
                "%(first)s and %(second)s tie for the most card points: they draw a card. "
                "Choose who drew it; he pays the larger half."
            )
        ),
        "draw_label": escape(gettext("Who drew the card (pays the larger half)?")),
        "dealer_context": escape(pgettext("the dealer's mark on the sheet", "D")),
    }


def phone_draws_forms(sheet: TableSheet) -> bool:
    """The sheet's next entry is an ordinary deal, whose forms the phone fills in from its own
    (`phone_forms`, held to the server's markup by tests/entry/test_entry_phone.py): the sync's
    answer leaves them out. The server still sends them for what the phone's set does not hold:
    time up, a locked table, a sheet that does not score (the phone cannot tell who deals)."""
    state = FormsState.of(sheet)
    return offers_next_deal(state, None) and not state.time_is_up and sheet.error is None


def phone_forms(offered: OfferedForms) -> dict[str, str]:
    """The forms the phone fills in: "0".."3" by the next dealer's seat, "complete" and
    "time_up" for the confirmation."""
    sheet = offered.sheet
    if not sheet.accepts_entries:
        return {}
    seats = len(sheet.players)
    shape = FormsShape(
        language=get_language(),
        rules=sheet.rules,
        deals_per_round=sheet.deals_per_round,
        seats=seats,
        dealer=0,
    )
    forms = {
        str(dealer): placeholder_forms(replace(shape, dealer=dealer)) for dealer in range(seats)
    }
    for end in ("complete", "time_up"):
        forms[end] = placeholder_forms(replace(shape, is_chief=offered.is_chief, end=end))
    return forms


# The services' refusal of a deal past the time limit (scoring.services), the same words.
TIME_UP = (
    "time is up in round %(round)d (%(time)s): table %(number)d may enter only the "
    "deal that was under way, and has it (%(limit)d deals). Deal %(next)d is not "
    "played: confirm the table, or ask the chief referee to allow more deals"
)


def phone_data(request: HttpRequest, offered: OfferedForms) -> dict[str, object]:
    """The page's json_script "table-phone"."""
    sheet = offered.sheet
    ended_at = sheet.clock.ended_at
    return {
        "scoring": static("js/sheet-scoring.js"),
        "language": get_language(),
        # The phone writes times as the hall reads them, whatever its own time zone.
        "time_zone": timezone.get_current_timezone_name(),
        "deals_per_round": sheet.deals_per_round,
        "csrf": get_token(request),
        "words": _words(),
        "messages": engine_messages(),
        "forms": phone_forms(offered),
        "sheet": phone_sheet_templates(),
        # Filled in by the phone (the time from the forms' data-time-up-at once time is up).
        "time_up": escape(
            gettext(TIME_UP)
            .replace("%(round)d", str(sheet.round.number))
            .replace("%(number)d", str(sheet.table.number))
        ),
        "time_up_at": formats.time_format(timezone.localtime(ended_at), "TIME_FORMAT")
        if ended_at is not None
        else "",
    }
