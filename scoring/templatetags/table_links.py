"""The organiser's round page (a tournaments page) lists each table's entry link with its progress:
deals entered and confirmation are scoring's, so the page's template asks this tag for them and
the tournaments app never imports scoring."""

from __future__ import annotations

from django import template

from scoring.selectors.progress import TableLink
from scoring.selectors.progress import round_table_links as table_links_of
from tournaments.models import Round

register = template.Library()


@register.simple_tag
def round_table_links(round_: Round) -> list[TableLink]:
    return table_links_of(round_=round_)
