"""The round page's tables, each rendered once, so that a cache miss of the page stays cheap.

A 600-player round has 200 tables, and the round page's cache is emptied whenever one of them is
confirmed: built again, the page would render 199 tables exactly as before, most of the work of
its cache miss (templates are slow per tag: a table has a dozen). Each table's section
(public/_round_table.html) is kept in this process, as the sheet's rows are
(scoring/templatetags/sheet_rows.py, whose bounded memory it shares the code of), under a key
that holds everything the section reads: the table's line (its seats with names, clubs, results,
whether each matches the search and has a page), the tournament's slug, the round's number and
the language. A table whose line changed is rendered again; the others are taken as they were.
"""

from __future__ import annotations

from collections.abc import Hashable

from django import template
from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from scoring.selectors import TableLine
from scoring.templatetags.sheet_rows import RowMemory
from tournaments.models import Round, Tournament

register = template.Library()

SECTION_TEMPLATE = "public/_round_table.html"
KEPT_SECTIONS = 10_000  # about 1.5 kB each: every table of a national final's rounds, twice

MEMORY = RowMemory(KEPT_SECTIONS)


def section_key(table: TableLine, tournament: Tournament, round_: Round) -> Hashable:
    """Everything the section template reads (SeatLine is frozen: a hashable value)."""
    return (
        get_language(),
        tournament.slug,
        round_.number,
        table.number,
        table.confirmed,
        table.time_called_after,
        tuple(table.seats),
    )


@register.simple_tag
def round_section(table: TableLine, tournament: Tournament, round_: Round) -> SafeString:
    """The table's section of the round page, from memory when its key is known."""
    key = section_key(table, tournament, round_)
    html = MEMORY.get(key)
    if html is None:
        html = get_template(SECTION_TEMPLATE).render(
            {"table": table, "tournament": tournament, "round": round_}
        )
        MEMORY.put(key, html)
    return mark_safe(html)  # the template's output, escaped there
