"""Template filters that show the engine's seating flags in the reader's language."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django import template

from core import engine_text

register = template.Library()


@register.filter
def flag_text(flag: Mapping[str, Any]) -> str:
    """`{{ flag|flag_text }}`: a stored table flag, translated."""
    return engine_text.flag_text(flag)


@register.filter
def warning_texts(tables: Iterable[Any]) -> list[str]:
    """`{{ tables|warning_texts }}`: the round's warnings from its tables' flags, translated."""
    return engine_text.warning_texts(tables)
