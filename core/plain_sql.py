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
from collections.abc import Callable, Sequence
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


def _json(field: models.JSONField) -> Callable[[object], object]:
    return lambda value: field.from_db_value(value, None, connection)


def _aware(value: datetime.datetime) -> datetime.datetime:
    return value if timezone.is_aware(value) else value.replace(tzinfo=datetime.UTC)


def _converter(field: models.Field) -> Callable[[object], object] | None:
    """What turns the database's value of `field` into the ORM's, if anything must."""
    if isinstance(field, models.JSONField):
        return _json(field)
    if isinstance(field, models.DateTimeField):
        return _aware
    if isinstance(field, models.BooleanField):
        return bool
    return None


@cache
def _conversions(
    model: type[models.Model], attnames: tuple[str, ...]
) -> tuple[tuple[int, Callable[[object], object]], ...]:
    _names, fields = _layout(model, attnames)
    converters = ((index, _converter(field)) for index, field in enumerate(fields))
    return tuple((index, convert) for index, convert in converters if convert is not None)


def instance(
    model: type[models.Model], attnames: tuple[str, ...], values: Sequence[object]
) -> models.Model:
    """An instance of one row: `values` of `model_fields(model, attnames)`, in that order."""
    names = _layout(model, attnames)[0]
    row = list(values)
    for index, convert in _conversions(model, attnames):
        if row[index] is not None:
            row[index] = convert(row[index])
    return model.from_db(connection.alias, names, row)


def exists(model: type[models.Model], field: str, value: object) -> bool:
    """Whether a row of `model` has `field` = `value`."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT EXISTS (SELECT 1 FROM {table_name(model)} WHERE {column(model, field)} = %s)",
            [value],
        )
        return bool(cursor.fetchone()[0])


def insert(model: type[models.Model], values: dict[str, object]) -> models.Model:
    """Insert one row of `model` (`values` by attname; every column the row needs: no default
    or `auto_now_add` is filled in here) and return it as an instance, its id read back.

    The values go through each field's `get_db_prep_save`, as the ORM's insert does (a JSON
    field's encoding, a datetime's adaptation to the database); the database's constraints
    still hold, and a broken one is Django's IntegrityError as usual."""
    fields = [model._meta.get_field(name) for name in values]
    columns = ", ".join(quote(field.column) for field in fields)
    params = [
        field.get_db_prep_save(value, connection)
        for field, value in zip(fields, values.values(), strict=True)
    ]
    pk = model._meta.pk
    sql = (
        f"INSERT INTO {table_name(model)} ({columns}) "
        f"VALUES ({', '.join(['%s'] * len(params))}) RETURNING {quote(pk.column)}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        (new_id,) = cursor.fetchone()
    row = {pk.attname: new_id, **values}
    names = model_fields(model, tuple(row))
    return model.from_db(connection.alias, names, [row[name] for name in names])


def row_where(model: type[models.Model], field: str, value: object) -> models.Model | None:
    """The row of `model` whose `field` is `value` (a unique field), every field read, or
    None."""
    names = tuple(each.attname for each in model._meta.concrete_fields)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {select_list(model, 'x', names)} FROM {table_name(model)} x "
            f"WHERE {column(model, field, 'x')} = %s",
            [value],
        )
        found = cursor.fetchone()
    return instance(model, names, found) if found is not None else None
