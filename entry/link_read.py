"""A table's private link, read with the table as its sheet reads it: one statement.

Every deal sent from a referee's phone and every view of its sheet starts here, so the link, its
table, the table's round and tournament and the table's confirmation are read in one statement of
plain SQL (core.plain_sql), with the fields `scoring.sheet_view.sheet_tables` names, and when the
table was last heard from (`scoring.models.TableHeard`: written only when it changed).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from django.db import connection

from core import plain_sql
from scoring.models import TableHeard, TableResult
from scoring.sheet_view import (
    SHEET_CONFIRMATION_FIELDS,
    SHEET_ROUND_FIELDS,
    SHEET_TABLE_FIELDS,
    SHEET_TOURNAMENT_FIELDS,
)
from tournaments.models import Round, Table, TableToken, Tournament

LINK_FIELDS = plain_sql.model_fields(
    TableToken, ("id", "round_id", "table_id", "token", "revoked_at")
)
HEARD_FIELDS = ("table_id", "heard_at", "waiting", "refused")
HEARD_FIELDS = ("table_id", "heard_at", "waiting", "refused")
# Each model's part of the row, in the order of the statement's columns.
PARTS = (
    (TableToken, "k", LINK_FIELDS),
    (Table, "t", plain_sql.model_fields(Table, SHEET_TABLE_FIELDS)),
    (Round, "r", plain_sql.model_fields(Round, SHEET_ROUND_FIELDS)),
    (Tournament, "n", plain_sql.model_fields(Tournament, SHEET_TOURNAMENT_FIELDS)),
    (TableResult, "x", plain_sql.model_fields(TableResult, SHEET_CONFIRMATION_FIELDS)),
    (TableHeard, "h", plain_sql.model_fields(TableHeard, HEARD_FIELDS)),
)


@dataclass(frozen=True)
class LinkedTable:
    token: TableToken
    table: Table | None  # None: the round was seated again (the link outlived its table)
    confirmation: TableResult | None
    heard: TableHeard | None = None  # when the table was last heard from (None: never)


@cache
def _link_sql(vendor: str) -> str:
    column = plain_sql.column
    selected = ", ".join(
        plain_sql.select_list(model, alias, names) for model, alias, names in PARTS
    )
    return (
        f"SELECT {selected} FROM {plain_sql.table_name(TableToken)} k "
        f"LEFT JOIN {plain_sql.table_name(Table)} t ON t.id = {column(TableToken, 'table', 'k')} "
        f"LEFT JOIN {plain_sql.table_name(Round)} r ON r.id = {column(Table, 'round', 't')} "
        f"LEFT JOIN {plain_sql.table_name(Tournament)} n "
        f"ON n.id = {column(Round, 'tournament', 'r')} "
        f"LEFT JOIN {plain_sql.table_name(TableResult)} x "
        f"ON {column(TableResult, 'table', 'x')} = t.id "
        f"LEFT JOIN {plain_sql.table_name(TableHeard)} h "
        f"ON {column(TableHeard, 'table', 'h')} = t.id "
        f"WHERE {column(TableToken, 'token', 'k')} = %s"
    )


def linked_table(token: str) -> LinkedTable | None:
    """The link `token` with its table, the table's round and tournament, its confirmation and
    when it was last heard from; None for a token that was never issued."""
    with connection.cursor() as cursor:
        cursor.execute(_link_sql(connection.vendor), [token])
        row = cursor.fetchone()
    if row is None:
        return None
    instances = []
    start = 0
    for model, _alias, names in PARTS:
        values = row[start : start + len(names)]
        start += len(names)
        # A part whose id is NULL is missing (no table, no confirmation).
        instances.append(plain_sql.instance(model, names, values) if values[0] else None)
    link, table, round_, tournament, confirmation, heard = instances
    if table is not None:
        round_.tournament = tournament
        table.round = round_
        link.table = table
    return LinkedTable(link, table, confirmation, heard)
