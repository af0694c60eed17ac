"""The sheet's reads and its one insert in plain SQL: the statements run on every deal entered.

A table's link (or, through the signed-in door, the table itself) with its round, tournament,
confirmation and when it was last heard from; its seats with the players' names; every version
of its entries; its confirmation under the lock; the lock of a deal of a round in play; a new
entry's row. These replace
`select_related().only()` reads, `select_for_update()` and `Model.objects.create` on the deal's
hot path, where the ORM spends several times longer building the statements and their
instances than the database takes to answer them. Measured (CPU, median, SQLite, a sheet of 24
deals): the link with its table 0.18 ms here against 1.78 ms through `select_related().only()`,
the seats 0.15 against 0.86 ms, the 24 entries 0.57 against 1.41 ms: some 3 ms saved on each
read of the sheet, of the 10 ms a deal and its sheet may cost (bench/entry.py).

The tables' and columns' names come from the models (`Model._meta`), and rows become instances
through `Model.from_db` (the documented way to make an instance of a row), with the conversions
the ORM would have made: JSON decoded by its field, a datetime made aware (SQLite stores them
naive, in UTC, as Django's own converter reads them). Fields not read stay deferred: reading one
later is a query of its own, as with `QuerySet.only`. Elsewhere only the rating store writes SQL
(its bulk insert and PostgreSQL advisory locks).
"""

from __future__ import annotations

import copy
import datetime
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, TypeVar

from django.db import connection, models
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from core.model_columns import concrete_field
from scoring.models import DealResult, TableHeard, TableResult
from tournaments.models import Player, Registration, Round, Seat, Table, TableToken, Tournament
from tournaments.rule_set import RULE_SET_FIELDS
from tournaments.services import TableGoneError, table_gone_message

# --- Columns and instances ------------------------------------------------------------------------

M = TypeVar("M", bound=models.Model)
# What turns a database driver's value into the ORM's: the driver's type depends on the backend.
Converter = Callable[[Any], object]


def quote(name: str) -> str:
    return connection.ops.quote_name(name)


def table_name(model: type[models.Model]) -> str:
    return quote(model._meta.db_table)


def column(model: type[models.Model], name: str, alias: str = "") -> str:
    """A field's column (by field name or attname), quoted, after `alias.` when given."""
    quoted = quote(concrete_field(model, name).column)
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


def _json(field: models.JSONField) -> Converter:
    # The field's column as the expression read, as the ORM passes it for a plain column.
    return lambda value: field.from_db_value(value, field.cached_col, connection)


def _aware(value: datetime.datetime) -> datetime.datetime:
    return value if timezone.is_aware(value) else value.replace(tzinfo=datetime.UTC)


def _converter(field: models.Field) -> Converter | None:
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
) -> tuple[tuple[int, Converter], ...]:
    _names, fields = _layout(model, attnames)
    converters = ((index, _converter(field)) for index, field in enumerate(fields))
    return tuple((index, convert) for index, convert in converters if convert is not None)


def instance(model: type[M], attnames: tuple[str, ...], values: Sequence[object]) -> M:
    """An instance of one row: `values` of `model_fields(model, attnames)`, in that order."""
    names = _layout(model, attnames)[0]
    row = list(values)
    for index, convert in _conversions(model, attnames):
        if row[index] is not None:
            row[index] = convert(row[index])
    return model.from_db(connection.alias, names, row)


# --- The table with its link ----------------------------------------------------------------------

# What the sheet reads of its table, round, tournament and confirmation: only these fields (the
# statement runs on every deal, and its cost grows with every column: a tournament has some
# thirty). The tournament's rule options are read for a round whose rule set is not fixed yet
# (a draft: tournaments.rule_set.round_options).
TABLE_FIELDS = ("id", "round_id", "number", "first_dealer_position", "deals_allowed_after_time")
ROUND_FIELDS = (
    "id",
    "tournament_id",
    "number",
    "status",
    "rule_set",
    "clock_started_at",
    "time_limit",
    "time_called_at",
)
TOURNAMENT_FIELDS = (
    "id",
    "name",
    "slug",
    "round_time_limit",
    *RULE_SET_FIELDS,
    # Late and absent players: whether the sheet shows its part on them.
    "late_wait_minutes",
    "late_out_deal",
)
CONFIRMATION_FIELDS = (
    "id",
    "table_id",
    "confirmed_at",
    "confirmed_by_id",
    "confirmed_by_registration_id",
    "last_position",
    "time_called",
    "last_version_id",
)
LINK_FIELDS = ("id", "round_id", "table_id", "token", "revoked_at")
HEARD_FIELDS = ("table_id", "heard_at", "waiting", "refused")
# Each model's part of the row, in the order of the statement's columns.
PARTS = tuple(
    (model, alias, model_fields(model, names))
    for model, alias, names in (
        (TableToken, "k", LINK_FIELDS),
        (Table, "t", TABLE_FIELDS),
        (Round, "r", ROUND_FIELDS),
        (Tournament, "n", TOURNAMENT_FIELDS),
        (TableResult, "x", CONFIRMATION_FIELDS),
        (TableHeard, "h", HEARD_FIELDS),
    )
)


@cache
def _table_sql(vendor: str, by_token: bool) -> str:
    """The table with its link (the link's token given), or with no link (its id given)."""
    selected = ", ".join(select_list(model, alias, names) for model, alias, names in PARTS)
    joined = (
        f"LEFT JOIN {table_name(Round)} r ON r.id = {column(Table, 'round', 't')} "
        f"LEFT JOIN {table_name(Tournament)} n ON n.id = {column(Round, 'tournament', 'r')} "
        f"LEFT JOIN {table_name(TableResult)} x ON {column(TableResult, 'table', 'x')} = t.id "
        f"LEFT JOIN {table_name(TableHeard)} h ON {column(TableHeard, 'table', 'h')} = t.id "
    )
    if by_token:
        return (
            f"SELECT {selected} FROM {table_name(TableToken)} k "
            f"LEFT JOIN {table_name(Table)} t ON t.id = {column(TableToken, 'table', 'k')} "
            f"{joined}WHERE {column(TableToken, 'token', 'k')} = %s"
        )
    # No link: its columns are NULL (the same row, so the same parts).
    return (
        f"SELECT {selected} FROM {table_name(Table)} t "
        f"LEFT JOIN {table_name(TableToken)} k ON 1 = 0 {joined}WHERE t.id = %s"
    )


def table_row(*, token: str | None = None, table_id: int | None = None) -> tuple | None:
    """The instances of one statement (`PARTS`: link, table, round, tournament, confirmation,
    heard; None for a part that is missing), by the link's token or the table's id; None when
    there is no such link or table."""
    with connection.cursor() as cursor:
        by_token = token is not None
        cursor.execute(_table_sql(connection.vendor, by_token), [token if by_token else table_id])
        row = cursor.fetchone()
    if row is None:
        return None
    instances = []
    start = 0
    for model, _alias, names in PARTS:
        values = row[start : start + len(names)]
        start += len(names)
        # A part whose first column (its id, or its table's) is NULL is missing.
        instances.append(instance(model, names, values) if values[0] is not None else None)
    return tuple(instances)


def table_confirmation(table_id: int) -> TableResult | None:
    """The table's confirmation (`CONFIRMATION_FIELDS`), or None: read after the table's lock,
    by a statement of its own, so that it sees one committed while the write waited."""
    with connection.cursor() as cursor:
        cursor.execute(_confirmation_sql(connection.vendor), [table_id])
        row = cursor.fetchone()
    fields = model_fields(TableResult, CONFIRMATION_FIELDS)
    return instance(TableResult, fields, row) if row is not None else None


@cache
def _confirmation_sql(vendor: str) -> str:
    return (
        f"SELECT {select_list(TableResult, 'x', CONFIRMATION_FIELDS)} "
        f"FROM {table_name(TableResult)} x WHERE {column(TableResult, 'table', 'x')} = %s"
    )


# --- The lock of a deal ------------------------------------------------------------------------


def lock_table_in_round_in_play(table: Table) -> tuple[Round, Table]:
    """The lock of a deal of a round in play (`tournaments.services.lock_round_and_table`'s
    order): the round's row FOR SHARE (PostgreSQL), not FOR UPDATE, so the deals of different
    tables are written side by side while a write of the round itself (FOR UPDATE) still waits
    for them and they for it; then the table's FOR UPDATE with the round's status. Only the
    round's status and clock are read again: the round and its tournament as `table.round`
    holds them stay as read (a round in play changes nothing else a deal reads). On
    SQLite, which has no row locks, the write's transaction (BEGIN IMMEDIATE) already keeps
    every other writer out, and the status is read inside it."""
    rounds, tables = quote(Round._meta.db_table), quote(Table._meta.db_table)
    round_column = quote(concrete_field(Table, "round").column)
    locks = connection.features.has_select_for_update
    # Read after the round's lock was taken, as they are now: the round's status and clock (time
    # called while this request was on its way limits the deals it may add) and the deals the
    # chief referee allowed the table after time.
    round_fields = ("status", "clock_started_at", "time_limit", "time_called_at")
    columns = ", ".join(
        [f"r.{quote(concrete_field(Round, name).column)}" for name in round_fields]
        + [f"t.{quote(concrete_field(Table, 'deals_allowed_after_time').column)}"]
    )
    with connection.cursor() as cursor:
        if locks:
            cursor.execute(f"SELECT 1 FROM {rounds} WHERE id = %s FOR SHARE", [table.round_id])
        cursor.execute(
            f"SELECT {columns} FROM {tables} t JOIN {rounds} r ON r.id = t.{round_column} "
            f"WHERE t.id = %s{' FOR UPDATE OF t' if locks else ''}",
            [table.pk],
        )
        found = cursor.fetchone()
    if found is None:
        raise TableGoneError(table_gone_message())
    round_ = copy.copy(table.round)
    round_.status, started, round_.time_limit, called, allowed = found
    round_.clock_started_at = _moment(started)
    round_.time_called_at = _moment(called)
    locked = copy.copy(table)
    locked.round = round_
    locked.deals_allowed_after_time = allowed
    return round_, locked


def _moment(value: object) -> datetime.datetime | None:
    """A timestamp read in plain SQL: SQLite gives text, PostgreSQL an aware datetime."""
    if value is None or isinstance(value, datetime.datetime):
        moment = value
    else:
        moment = parse_datetime(str(value))
    if moment is not None and timezone.is_naive(moment):
        moment = timezone.make_aware(moment, datetime.UTC)
    return moment


# --- Seats ----------------------------------------------------------------------------------------

# What a table's sheet reads of its seats: the seat, its registration, the registration's
# player's name (the other fields of the registration and the player stay deferred: read when
# asked for).
SEAT_FIELDS = model_fields(Seat, ("id", "table_id", "position", "registration_id"))
SEAT_REGISTRATION_FIELDS = model_fields(Registration, ("id", "tournament_id", "player_id"))
SEAT_PLAYER_FIELDS = model_fields(Player, ("id", "full_name"))


@cache
def _seats_sql(vendor: str) -> str:
    selected = ", ".join(
        (
            select_list(Seat, "s", SEAT_FIELDS),
            select_list(Registration, "e", SEAT_REGISTRATION_FIELDS),
            select_list(Player, "p", SEAT_PLAYER_FIELDS),
        )
    )
    return (
        f"SELECT {selected} FROM {table_name(Seat)} s "
        f"JOIN {table_name(Registration)} e ON e.id = {column(Seat, 'registration', 's')} "
        f"JOIN {table_name(Player)} p ON p.id = {column(Registration, 'player', 'e')} "
        f"WHERE {column(Seat, 'table', 's')} = %s "
        f"ORDER BY {column(Seat, 'position', 's')}"
    )


def table_seats(table_id: int) -> list[Seat]:
    """A table's seats in order, each with its registration and the registration's player
    (its name)."""
    seat_end = len(SEAT_FIELDS)
    registration_end = seat_end + len(SEAT_REGISTRATION_FIELDS)
    with connection.cursor() as cursor:
        cursor.execute(_seats_sql(connection.vendor), [table_id])
        rows = cursor.fetchall()
    seats = []
    for row in rows:
        seat = instance(Seat, SEAT_FIELDS, row[:seat_end])
        registration = instance(
            Registration, SEAT_REGISTRATION_FIELDS, row[seat_end:registration_end]
        )
        registration.player = instance(Player, SEAT_PLAYER_FIELDS, row[registration_end:])
        seat.registration = registration
        seats.append(seat)
    return seats


# --- Entries --------------------------------------------------------------------------------------

# What the sheet reads of a stored result: not who entered it or from where (those stay deferred:
# read when asked for, as the audit pages and the archive do). When it was written tells how
# the sheet stood when the round's time was up (`scoring.sheet.lines.deals_at`).
RESULT_FIELDS = model_fields(
    DealResult,
    (
        "id",
        "table_id",
        "position",
        "version",
        "kind",
        "game",
        "player_id",
        "points",
        "tricks",
        "galdins",
        "reason",
        "client_key",
        "created_at",
    ),
)


@cache
def _results_sql(vendor: str) -> str:
    return (
        f"SELECT {select_list(DealResult, 'd', RESULT_FIELDS)} "
        f"FROM {table_name(DealResult)} d "
        f"WHERE {column(DealResult, 'table', 'd')} = %s "
        f"ORDER BY {column(DealResult, 'position', 'd')}, {column(DealResult, 'version', 'd')}"
    )


def table_results(table_id: int) -> list[DealResult]:
    """Every version of a table's entries, ordered by position and version, with the fields the
    sheet reads (`RESULT_FIELDS`; the others are deferred)."""
    with connection.cursor() as cursor:
        cursor.execute(_results_sql(connection.vendor), [table_id])
        rows = cursor.fetchall()
    return [instance(DealResult, RESULT_FIELDS, row) for row in rows]


def insert(model: type[M], values: dict[str, object]) -> M:
    """Insert one row of `model` (`values` by attname; every column the row needs: no default
    or `auto_now_add` is filled in here) and return it as an instance, its id read back.

    The values go through each field's `get_db_prep_save`, as the ORM's insert does (a JSON
    field's encoding, a datetime's adaptation to the database); the database's constraints
    still hold, and a broken one is Django's IntegrityError as usual."""
    fields = [concrete_field(model, name) for name in values]
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
