"""The round page's tables, each rendered once, so that a cache miss of the page stays cheap.

A 600-player round has 200 tables, and the round page's cache is emptied whenever one of them is
confirmed: built again, the page would render 199 tables exactly as before, most of the work of
its cache miss (templates are slow per tag: a table has a dozen). Each table's section
(public/_round_table.html) is kept in this process by `functools.lru_cache`, as the sheet's rows
are (scoring/templatetags/kept_sheet_rows.py), under a key that holds everything the section
reads: the table's line (its seats with names, clubs, results, whether each matches the search
and has a page), the tournament's slug, the round's number and the language. A table whose line
changed is rendered again; the others are taken as they were.
"""

from __future__ import annotations

from functools import lru_cache
from types import SimpleNamespace

from django import template
from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from scoring.selectors import TableLine
from scoring.selectors.round_page import SeatLine
from tournaments.models import Round, Tournament

register = template.Library()

SECTION_TEMPLATE = "public/_round_table.html"
KEPT_SECTIONS = 10_000  # about 1.5 kB each: every table of a national final's rounds, twice


@lru_cache(maxsize=KEPT_SECTIONS)
def section_html(
    number: int,
    confirmed: bool,
    seats: tuple[SeatLine, ...],
    time_called_after: int | None,
    language: str,
    slug: str,
    round_number: int,
) -> str:
    """A table's section from everything it reads (SeatLine is frozen: a hashable value);
    `language`, the active one, is part of the key."""
    context = {
        "table": TableLine(number, confirmed, list(seats), time_called_after),
        "tournament": SimpleNamespace(slug=slug),
        "round": SimpleNamespace(number=round_number),
    }
    return get_template(SECTION_TEMPLATE).render(context)


@register.simple_tag
def round_section(table: TableLine, tournament: Tournament, round_: Round) -> SafeString:
    """The table's section of the round page, from memory when it was rendered already."""
    html = section_html(
        table.number,
        table.confirmed,
        tuple(table.seats),
        table.time_called_after,
        get_language(),
        tournament.slug,
        round_.number,
    )
    return mark_safe(html)  # the template's output, escaped there
