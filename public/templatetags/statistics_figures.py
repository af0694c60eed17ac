"""The player statistics' figures as a reader expects them: a share as the tournament's
statistics write it ("12,5 %"), a rate per 100 deals and points per deal with one decimal (a
comma in Latvian and Russian); a dash where there is nothing to divide."""

from __future__ import annotations

from fractions import Fraction

from django import template
from django.utils.formats import number_format

from scoring.selectors.tournament_statistics import share_text

register = template.Library()


@register.filter
def percent(value: Fraction | None) -> str:
    return share_text(value) or "–"


@register.filter
def one_decimal(value: Fraction | None) -> str:
    if value is None:
        return "–"
    return number_format(round(float(value), 1), decimal_pos=1)
