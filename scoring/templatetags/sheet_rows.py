"""The sheet's rows, each rendered once (issue 14, item 1: render only what changed).

A referee's phone reads the whole sheet again after every deal, yet only the new row is new: the
rows above it (their scores, running totals and pule marks) are what they were. Each row's
markup is kept in this process, under a key that holds everything the row shows: the stored
entry (its id and version: a correction is a new version, and a version is never rewritten),
what the engine made of it, the players' names, the language, and whether the rows link to
corrections. A row whose key changed is rendered again; the others are taken as they were. The
memory is bounded (least recently used rows go first).

A row is written out by `render_row` here rather than by a template: it is the one piece of the
sheet rendered on every deal (the page read again, the sheet in the phone's sync answer), and
Django's template nodes cost several times the rest of that answer. Its words are translated
once per language.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import cache

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, ngettext, pgettext

from engine.sheet import PuleEvent
from scoring.sheet_view import SheetCell, SheetPlayer, SheetRow, TableSheetView

register = template.Library()

KEPT_ROWS = 20_000  # about 1.5 kB each: a national final's rows several times over


class RowMemory:
    """A bounded least-recently-used map, safe across a worker's threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._rows: OrderedDict[Hashable, str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> str | None:
        with self._lock:
            html = self._rows.get(key)
            if html is not None:
                self._rows.move_to_end(key)
            return html

    def put(self, key: Hashable, html: str) -> None:
        with self._lock:
            self._rows[key] = html
            self._rows.move_to_end(key)
            while len(self._rows) > self.size:
                self._rows.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._rows.clear()


MEMORY = RowMemory(KEPT_ROWS)


def _player(player: SheetPlayer | None) -> tuple[str, str, str, str] | None:
    if player is None:
        return None
    return (player.key, player.name, player.short_name, player.initials)


def row_key(row: SheetRow) -> tuple[Hashable, ...]:
    """Everything `render_row` reads of a row."""
    result = row.result
    return (
        result.table_id,
        result.position,
        result.version,
        result.pk,
        result.kind,
        result.game,
        result.player_id,
        result.points,
        result.tricks,
        result.reason,
        row.number,
        str(row.game_words),
        _player(row.declarer),
        tuple((_player(player), tricks, points) for player, tricks, points in row.galdins),
        row.common_pules,
        row.pule_event,
        _player(row.pule_owner),
        tuple(
            (
                _player(cell.player),
                cell.score,
                cell.total,
                cell.personal_pules,
                cell.is_dealer,
                cell.sits_out,
                cell.is_declarer,
            )
            for cell in row.cells
        ),
    )


@register.simple_tag
def sheet_rows(sheet: TableSheetView, editable: bool, page_url: str) -> SafeString:
    """The <tr> of every row of the sheet, in order."""
    return rows_html(sheet, sheet.rows, editable=editable, page_url=page_url)


def rows_html(
    sheet: TableSheetView, rows: Sequence[SheetRow], *, editable: bool, page_url: str
) -> SafeString:
    """The <tr> of these rows of the sheet, in order."""
    if not rows:
        return SafeString("")
    pules = bool(sheet.rules.pules)
    editable = bool(editable)
    language = get_language()
    page = (language, editable, page_url if editable else "", pules)
    parts = []
    for row in rows:
        key = (page, row_key(row))
        html = MEMORY.get(key)
        if html is None:
            html = render_row(row, editable=editable, page_url=page_url, pules=pules)
            MEMORY.put(key, html)
        parts.append(html)
    return mark_safe("".join(parts))  # written by render_row, which escapes


# --- One row's markup ---------------------------------------------------------------------------

PENCIL = (
    '<svg class="entry-no-pencil" viewBox="0 0 16 16" aria-hidden="true" focusable="false">'
    '<path d="M11 2.5l2.5 2.5L5.5 13H3v-2.5z M9.5 4l2.5 2.5" fill="none" stroke="currentColor" '
    'stroke-width="1.5" stroke-linejoin="round"/></svg>'
)


@dataclass(frozen=True)
class RowWords:
    """The words of a row in one language (escaped), translated once."""

    dealer_mark: str
    personal_mark: str
    correct: str
    common_open: str
    personal_open: str
    deals: str
    deals_sits_out: str
    events: dict[str, str]  # the pule events that name no one


@cache
def row_words(language: str) -> RowWords:
    """The words of a row in `language` (the active one: it is the key)."""
    return RowWords(
        dealer_mark=escape(pgettext("the dealer's mark on the sheet", "D")),
        personal_mark=escape(pgettext("the score sheet's mark of a personal pule", "P")),
        correct=escape(gettext("correct")),
        common_open=escape(gettext("common pules open")),
        personal_open=escape(gettext("open personal pules")),
        deals=escape(gettext("deals")),
        deals_sits_out=escape(gettext("deals and sits out")),
        events={
            PuleEvent.COMMON_WRITTEN.value: escape(gettext("common pule written")),
            PuleEvent.OWN_COLLECTED.value: escape(gettext("crossed out his own pule")),
            PuleEvent.COMMON_COLLECTED.value: escape(gettext("collected a common pule")),
            PuleEvent.PERSONAL_WRITTEN.value: escape(gettext("personal pule written")),
        },
    )


def _times(count: int) -> str:
    """A mark's count after the mark, from two on: "○×2"."""
    return f"×{count}" if count > 1 else ""


def _name(player: SheetPlayer, full: str) -> str:
    """A player's name as the sheet shows it: `full` on a wide screen, the initials (with the
    full name as their title) on a phone."""
    return (
        f'<span class="entry-name-full">{escape(full)}</span><abbr class="entry-name-short" '
        f'title="{escape(player.name)}">{escape(player.initials)}</abbr>'
    )


def _game_cell(row: SheetRow, words: RowWords) -> str:
    # The parts are apart by a space (the declarer's name and his figures, the game and what
    # happened to the pules), which the page's layout keeps on one line or breaks.
    game = escape(row.game_words)
    if row.common_pules:
        game += (
            f'<span class="entry-pule-mark common entry-pules-inline" '
            f'title="{words.common_open}"> ○{_times(row.common_pules)}</span>'
        )
    parts = [f'<span class="game">{game}</span>']
    if row.declarer or row.points is not None or row.tricks is not None:
        play = []
        if row.declarer:
            play.append(
                f'<span class="declarer">{_name(row.declarer, row.declarer.short_name)}</span>'
            )
        if row.points is not None:
            play.append(f'<span class="figures">{row.points}/{row.tricks}</span>')
        elif row.tricks is not None:
            tricks = ngettext("%(tricks)s trick", "%(tricks)s tricks", row.tricks)
            play.append(f'<span class="figures">{escape(tricks % {"tricks": row.tricks})}</span>')
        parts.append(f'<span class="entry-play">{" ".join(play)}</span>')
    if row.galdins:
        figures = ", ".join(
            f"{_name(player, player.short_name)} {tricks}/{points}"
            for player, tricks, points in row.galdins
        )
        parts.append(f'<span class="figures">{figures}</span>')
    if row.pule_event == PuleEvent.PERSONAL_COLLECTED.value:
        owner = row.pule_owner.short_name if row.pule_owner else ""
        said = escape(gettext("collected the pule of %(name)s") % {"name": owner})
        parts.append(f'<span class="entry-pule-event">{said}</span>')
    elif row.pule_event in words.events:
        parts.append(f'<span class="entry-pule-event">{words.events[row.pule_event]}</span>')
    if row.is_corrected:
        said = escape(gettext("corrected, version %(version)s") % {"version": row.version})
        parts.append(f'<span class="corrected" title="{escape(row.result.reason)}">{said}</span>')
    return f'<td class="entry-game">{" ".join(parts)}</td>'


def _player_cell(cell: SheetCell, words: RowWords) -> str:
    classes = "entry-cell"
    classes += " is-dealer" if cell.is_dealer else ""
    classes += " sits-out" if cell.sits_out else ""
    classes += " is-declarer" if cell.is_declarer else ""
    parts = []
    if cell.is_dealer:
        title = words.deals_sits_out if cell.sits_out else words.deals
        parts.append(f'<abbr class="entry-dealer-mark" title="{title}">{words.dealer_mark}</abbr>')
    if cell.total is not None:
        parts.append(f'<span class="total">{cell.total}</span>')
    if cell.score:
        sign, plus = ("score-positive", "+") if cell.score > 0 else ("score-negative", "")
        parts.append(f'<small class="delta {sign}">{plus}{cell.score}</small>')
    if cell.personal_pules:
        parts.append(
            f'<span class="entry-pule-mark personal" title="{words.personal_open}">'
            f"{words.personal_mark}{_times(cell.personal_pules)}</span>"
        )
    return f'<td class="{classes}">{" ".join(parts)}</td>'


def render_row(row: SheetRow, *, editable: bool, page_url: str, pules: bool) -> str:
    """The <tr> of one row of the sheet: its number (a link to its correction when `editable`),
    the game with its declarer, figures and pule events, each player's box, the open common
    pules (`pules`: the rules keep pules), the correction link."""
    words = row_words(get_language())
    classes = "entry-row"
    classes += " entry-penalty" if row.is_penalty else ""
    classes += " entry-corrected" if row.is_corrected else ""
    number = str(row.number) if row.number else "–"
    correct_url = f"{escape(page_url)}?correct={row.position}#entry-form"
    if editable:
        number = (
            f'<a class="entry-no-link" href="{correct_url}" title="{words.correct}">'
            f"{number}{PENCIL}</a>"
        )
    parts = [
        f'<tr id="entry-{row.position}" class="{classes}">',
        f'<th scope="row" class="entry-no">{number}</th>',
        _game_cell(row, words),
        *(_player_cell(cell, words) for cell in row.cells),
    ]
    if pules:
        mark = (
            f'<span class="entry-pule-mark common" title="{words.common_open}">'
            f"○{_times(row.common_pules)}</span>"
            if row.common_pules
            else ""
        )
        parts.append(f'<td class="entry-pules">{mark}</td>')
    if editable:
        parts.append(
            f'<td class="entry-action"><a class="entry-correct" href="{correct_url}">'
            f"{words.correct}</a></td>"
        )
    parts.append("</tr>\n")
    return "".join(parts)
