"""The sheet's rows, each rendered once (issue 14, item 1: render only what changed).

A referee's phone reads the whole sheet again after every deal, yet only the new row is new: the
rows above it (their scores, running totals and pule marks) are what they were. Each row's
markup (scoring/_sheet_row.html) is kept in this process, under a key that holds everything the
row template reads: the stored entry (its id and version: a correction is a new version, and a
version is never rewritten), what the engine made of it, the players' names, the language, and
whether the rows link to corrections. A row whose key changed is rendered again; the others are
taken as they were. The memory is bounded (least recently used rows go first).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence

from django import template
from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from scoring.sheet_view import SheetPlayer, SheetRow, TableSheetView

register = template.Library()

ROW_TEMPLATE = "scoring/_sheet_row.html"
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
    """Everything scoring/_sheet_row.html reads of a row."""
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
    """The <tr> of these rows of the sheet, in order (the entry page's answer to a deal sent
    by its script holds the new row alone)."""
    if not rows:
        return SafeString("")
    pules = bool(sheet.rules.pules)
    editable = bool(editable)
    page = (get_language(), editable, page_url if editable else "", pules)
    row_template = None
    parts = []
    for row in rows:
        key = (page, row_key(row))
        html = MEMORY.get(key)
        if html is None:
            if row_template is None:
                row_template = get_template(ROW_TEMPLATE)
            context = {"row": row, "editable": editable, "page_url": page_url, "pules": pules}
            html = row_template.render(context)
            MEMORY.put(key, html)
        parts.append(html)
    return mark_safe("".join(parts))  # rendered by the row template, which escapes
