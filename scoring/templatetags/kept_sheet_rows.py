"""The sheet's rows (scoring/_sheet_row.html), each kept rendered: after a deal only the new row
is rendered.

A referee's phone reads the whole sheet again after every deal (the page without the phone's
script, the sheet in the sync's answer), yet only the new row is new: the rows above it are what
they were. Each row's markup is kept in this process by `functools.lru_cache`, under a key that
holds everything the row's template reads (`row_key`: the stored version and its fields, what
the engine made of it, the players' names), the language, and how the page shows it. Rendering
a sheet's 24 rows by the template costs some 9 ms of CPU (bench/entry.py: the sheet read again
with its rows kept 14.8 ms, with every row rendered 23.8 ms), against a deal's budget of 10 ms.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import lru_cache

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from scoring.sheet.shape import SheetPlayer, SheetRow, TableSheet

register = template.Library()

ROW_TEMPLATE = "scoring/_sheet_row.html"
KEPT_ROWS = 10_000  # some 2 kB each with the row: a national final's rows in play twice over


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


class KeptRow:
    """A row as the memory's key: equal to another with the same `row_key`."""

    __slots__ = ("key", "row")

    def __init__(self, row: SheetRow) -> None:
        self.row = row
        self.key = row_key(row)

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, KeptRow) and self.key == other.key


@lru_cache(maxsize=KEPT_ROWS)
def _kept_html(kept: KeptRow, language: str, editable: bool, page_url: str, pules: bool) -> str:
    context = {"row": kept.row, "editable": editable, "page_url": page_url, "pules": pules}
    return render_to_string(ROW_TEMPLATE, context)


def row_html(row: SheetRow, *, editable: bool, page_url: str, pules: bool) -> str:
    """The <tr> of one row of the sheet, in the active language (part of the key)."""
    return _kept_html(KeptRow(row), get_language(), editable, page_url, pules)


def forget_rows() -> None:
    """Empty the memory (a new worker's, as the benchmark's first visit measures)."""
    _kept_html.cache_clear()


@register.simple_tag
def sheet_rows(sheet: TableSheet, editable: bool, page_url: str) -> SafeString:
    """The <tr> of every row of the sheet, in order."""
    editable = bool(editable)
    pules = bool(sheet.rules.pules)
    url = page_url if editable else ""  # the public sheet's rows are one for every page
    return mark_safe(  # rendered by the row's template, which escapes
        "".join(row_html(row, editable=editable, page_url=url, pules=pules) for row in sheet.rows)
    )
