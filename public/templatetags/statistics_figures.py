"""The player statistics' figures as a reader expects them: a share as a whole percentage,
a rate per 100 deals and points per deal with one decimal (a comma in Latvian and Russian)."""

from __future__ import annotations

from fractions import Fraction

from django import template
from django.utils.formats import number_format

from core.svg_charts import percent_text

register = template.Library()


@register.filter
def percent(value: Fraction | None) -> str:
    return percent_text(value)


@register.filter
def one_decimal(value: Fraction | None) -> str:
    """A dash where there is nothing to divide (no deal played)."""
    if value is None:
        return "–"
    return number_format(round(float(value), 1), decimal_pos=1)
