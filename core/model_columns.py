"""A model's fields that are columns of its own table, for the SQL written by hand."""

from __future__ import annotations

from django.db import models


def concrete_field(model: type[models.Model], name: str) -> models.Field:
    """The field `name` (its name or attname) of `model`, which has a column in the model's
    table. Raises FieldDoesNotExist, or TypeError for the other side of a relation."""
    field = model._meta.get_field(name)
    if not isinstance(field, models.Field):
        raise TypeError(f"{model.__name__}.{name} has no column of its own")
    return field
