"""A form's field by its name, as the kind of field it was declared: `form.fields` holds them
as the base `Field`, so the type checker would not know a choice field's choices or a model
field's queryset."""

from __future__ import annotations

from typing import TypeVar

from django import forms

FieldT = TypeVar("FieldT", bound=forms.Field)


def field_of(form: forms.BaseForm, name: str, kind: type[FieldT]) -> FieldT:
    """The field `name` of `form`, which is a `kind` (a TypeError otherwise: a programming
    error, the form declares its own fields)."""
    field = form.fields[name]
    if not isinstance(field, kind):
        raise TypeError(
            f"{type(form).__name__}.{name} is {type(field).__name__}, not {kind.__name__}"
        )
    return field
