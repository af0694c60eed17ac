"""What the organiser's forms share: the fields that choose registrations (named as the reader
sorts them, namesakes told apart), a date input, an id's bounds."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from django import forms
from django.db import models

from core.engine_text import display_name_key

T = TypeVar("T", bound=models.Model)


DATE_INPUT = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


# No database key has more digits than this (2**63 - 1 has 19): a longer "id" is no row's.
ID_MAX_DIGITS = 18


def latvian_choices(
    objects: Iterable[T], *, name: Callable[[T], str], label: Callable[[T], str] | None = None
) -> list[tuple[int, str]]:
    """Choices in the reader's alphabetical order (in Latvian ā after a, č after c ...), which the
    database's collation does not give. The field still validates against its queryset."""
    ordered = sorted(objects, key=lambda obj: display_name_key(name(obj)))
    return [(obj.pk, (label or name)(obj)) for obj in ordered]


class RegistrationChoiceField(forms.ModelMultipleChoiceField):
    """A choice of several rows by id, where an id too large for any database key is an unknown
    choice like any other (Django's `pk__in` query would fail on it: SQLite overflows)."""

    def _check_values(self, value):
        for pk in value if isinstance(value, list | tuple) else ():
            digits = str(pk).strip().lstrip("+-")
            if digits.isdigit() and len(digits) > ID_MAX_DIGITS:
                raise forms.ValidationError(
                    self.error_messages["invalid_choice"],
                    code="invalid_choice",
                    params={"value": str(pk)[:20] + "…"},
                )
        return super()._check_values(value)


class SearchableCheckboxes(forms.CheckboxSelectMultiple):
    """Checkboxes that each carry the search key of what they name (data-search), which the
    page's filter (static/js/filter-list.js) compares with the key of what is typed."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.search_keys: dict[str, str] = {}  # choice value: search key

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        key = self.search_keys.get(str(value))
        if key is not None:
            option["attrs"]["data-search"] = key
        return option


def _labelled(name: str, *details: str | None) -> str:
    """A name and what is known besides it: "Jānis Bērziņš (Rīgas Zoles klubs, LV-1)"."""
    known = ", ".join(detail for detail in details if detail)
    return f"{name} ({known})" if known else name


class IdChoiceField(forms.ModelChoiceField):
    """A choice of one row by id, where an id too large for any database key is an unknown
    choice like any other (the query would fail on it: SQLite overflows)."""

    def to_python(self, value):
        digits = str(value).strip().lstrip("+-")
        if digits.isdigit() and len(digits) > ID_MAX_DIGITS:
            raise forms.ValidationError(
                self.error_messages["invalid_choice"], code="invalid_choice"
            )
        return super().to_python(value)
