"""What every write of the tournaments app shares: the refusal it raises, the audit entry it
leaves, and the one lock order (round, then table) every write that touches a table takes."""

import copy
import datetime

from django.contrib.auth.models import User
from django.db import connection, models
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from core import plain_sql
from tournaments.models import (
    AuditEntry,
    Round,
    Table,
    Tournament,
)


class ServiceError(Exception):
    """A request the rules of the tournament refuse; the message says what is wrong, in the
    language of the request (it is shown to the person, never stored)."""


def audit(
    *,
    action: str,
    by: User | None,
    tournament: Tournament | None = None,
    table: Table | None = None,
    ip_address: str | None = None,
    **detail: object,
) -> AuditEntry:
    # Every write leaves one, a deal too: written in plain SQL (core.plain_sql.insert), which
    # costs a third of the ORM's insert.
    user = by if by is not None and by.is_authenticated else None
    return plain_sql.insert(
        AuditEntry,
        {
            "tournament_id": tournament.pk if tournament is not None else None,
            "table_id": table.pk if table is not None else None,
            "action": action,
            "user_id": user.pk if user is not None else None,
            "at": timezone.now(),
            "ip_address": ip_address,
            "detail": detail,
        },
    )


class TableGoneError(ServiceError):
    """The table is no more: its round was seated again (its link was revoked with it)."""


def table_gone_message() -> str:
    return _("This round was re-seated: use the new link of your table.")


def lock_round_and_table(table: Table, *, shared: bool = False) -> tuple[Round, Table]:
    """The round's row, then the table's: the one order of every write that touches both
    (seating, swaps, publishing, the clock and closing lock the round alone), so that two
    writes never wait for each other in a circle. A table deleted meanwhile (its round was
    seated again) is a `TableGoneError`.

    `shared`: for a write that does not change the round's row (a deal of a round in play): the
    round's row is locked FOR SHARE (PostgreSQL), not FOR UPDATE, so the deals of different
    tables are written side by side while a write of the round itself (FOR UPDATE) still waits
    for them and they for it (a shared lock held by two writes that both update the row would
    deadlock). Only the round's status is read again, with the table's lock: the round and its
    tournament as `table.round` holds them stay as read (a round in play changes nothing else
    a deal reads: its rule set is fixed when it is published)."""
    if shared:
        return _lock_table_in_round_in_play(table)
    round_ = (
        Round.objects.select_for_update(of=("self",))
        .select_related("tournament")
        .get(pk=table.round_id)
    )
    # The table's row alone: Table's ordering joins the round and the tournament, and a bare
    # FOR UPDATE would lock their rows too (every write of a tournament queued behind one row).
    locked = Table.objects.select_for_update(of=("self",)).filter(pk=table.pk).first()
    if locked is None:
        raise TableGoneError(table_gone_message())
    locked.round = round_
    return round_, locked


def _lock_table_in_round_in_play(table: Table) -> tuple[Round, Table]:
    """The round's row FOR SHARE, then the table's FOR UPDATE with the round's status, in plain
    SQL (names from the models): a deal takes these locks on every write, and the ORM spent
    several times longer building the two statements than the database took to run them. On
    SQLite, which has no row locks, the write's transaction (BEGIN IMMEDIATE) already keeps
    every other writer out, and the status is read inside it."""
    quote = connection.ops.quote_name
    rounds, tables = quote(Round._meta.db_table), quote(Table._meta.db_table)
    round_column = quote(Table._meta.get_field("round").column)
    locks = connection.features.has_select_for_update
    # Read after the round's lock was taken, as they are now: the round's status and clock (time
    # called while this request was on its way limits the deals it may add) and the deals the
    # chief referee allowed the table after time.
    round_fields = ("status", "clock_started_at", "time_limit", "time_called_at")
    columns = ", ".join(
        [f"r.{quote(Round._meta.get_field(name).column)}" for name in round_fields]
        + [f"t.{quote(Table._meta.get_field('deals_allowed_after_time').column)}"]
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


class RuleSetLockedError(ServiceError):
    """The rule set cannot change while a round is played with it."""


def audit_value(value: object) -> object:
    """A setting as the audit log's JSON keeps it (dates as ISO text)."""
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, models.Model):  # a club: its name, which the log keeps
        return str(value)
    return value


def changes(instance: models.Model, values: dict[str, object]) -> tuple[dict, dict]:
    """What `values` change on the instance: (before, after), as the audit log keeps them."""
    changed = [name for name, value in values.items() if getattr(instance, name) != value]
    return (
        {name: audit_value(getattr(instance, name)) for name in changed},
        {name: audit_value(values[name]) for name in changed},
    )
