"""Reads in plain SQL, for the few statements run on every deal entered.

A table's link, seats and entries are read on every deal and every view of its sheet; the ORM
spent several times longer building those statements and their instances than the database took
to answer them (bench/entry.py). Those reads are written here once in plain SQL instead, with
the tables' and columns' names taken from the models (`Model._meta`), and their rows made into
instances through `Model.from_db` (the documented way to make an instance of a row), with the
conversions the ORM would have made: JSON decoded by its field, a datetime made aware (SQLite
stores them naive, in UTC, as Django's own converter reads them). Fields not read stay
deferred: reading one later is a query of its own, as with `QuerySet.only`.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from functools import cache

from django.db import connection, models
from django.utils import timezone


def quote(name: str) -> str:
    return connection.ops.quote_name(name)


def table_name(model: type[models.Model]) -> str:
    return quote(model._meta.db_table)


def column(model: type[models.Model], name: str, alias: str = "") -> str:
    """A field's column (by field name or attname), quoted, after `alias.` when given."""
    quoted = quote(model._meta.get_field(name).column)
    return f"{alias}.{quoted}" if alias else quoted


@cache
def _layout(
    model: type[models.Model], attnames: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[models.Field, ...]]:
    wanted = set(attnames)
    unknown = wanted - {field.attname for field in model._meta.concrete_fields}
    if unknown:
        raise ValueError(f"{model.__name__} has no fields {sorted(unknown)}")
    fields = tuple(field for field in model._meta.concrete_fields if field.attname in wanted)
    return tuple(field.attname for field in fields), fields


def model_fields(model: type[models.Model], attnames: Sequence[str]) -> tuple[str, ...]:
    """These attnames in the model's field order, the order `Model.from_db` takes values in."""
    return _layout(model, tuple(attnames))[0]


def select_list(model: type[models.Model], alias: str, attnames: Sequence[str]) -> str:
    """The columns of `attnames` (in the model's order: `model_fields`) of the table `alias`."""
    return ", ".join(column(model, name, alias) for name in model_fields(model, attnames))


def _converted(field: models.Field, value: object) -> object:
    if value is None:
        return None
    if isinstance(field, models.JSONField):
        return field.from_db_value(value, None, connection)
    if isinstance(field, models.DateTimeField) and isinstance(value, datetime.datetime):
        return value if timezone.is_aware(value) else value.replace(tzinfo=datetime.UTC)
    if isinstance(field, models.BooleanField):
        return bool(value)
    return value


def instance(
    model: type[models.Model], attnames: Sequence[str], values: Sequence[object]
) -> models.Model:
    """An instance of one row: `values` of `model_fields(model, attnames)`, in that order."""
    names, fields = _layout(model, tuple(attnames))
    converted = [_converted(field, value) for field, value in zip(fields, values, strict=True)]
    return model.from_db(connection.alias, names, converted)
