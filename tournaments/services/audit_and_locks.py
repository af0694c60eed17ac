"""What every write of the tournaments app shares: the refusal it raises, the audit entry it
leaves, and the one lock order (round, then table) every write that touches a table takes."""

import datetime
from decimal import Decimal

from django.contrib.auth.models import AnonymousUser, User
from django.db import models
from django.utils.translation import gettext as _

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
    by: User | AnonymousUser | None,
    tournament: Tournament | None = None,
    table: Table | None = None,
    ip_address: str | None = None,
    **detail: object,
) -> AuditEntry:
    user = by if isinstance(by, User) and by.is_authenticated else None
    return AuditEntry.objects.create(
        tournament_id=tournament.pk if tournament is not None else None,
        table_id=table.pk if table is not None else None,
        action=action,
        user=user,
        ip_address=ip_address,
        detail=detail,
    )


class TableGoneError(ServiceError):
    """The table is no more: its round was seated again (its link was revoked with it)."""


def table_gone_message() -> str:
    return _("This round was re-seated: use the new link of your table.")


def lock_round_and_table(table: Table) -> tuple[Round, Table]:
    """The round's row, then the table's: the one order of every write that touches both
    (seating, swaps, publishing, the clock and closing lock the round alone), so that two
    writes never wait for each other in a circle. A table deleted meanwhile (its round was
    seated again) is a `TableGoneError`. A deal of a round in play takes the round's row
    shared instead (scoring.sheet.plain_sql.lock_table_in_round_in_play), in the same order."""
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


class RuleSetLockedError(ServiceError):
    """The rule set cannot change while a round is played with it."""


def audit_value(value: object) -> object:
    """A setting as the audit log's JSON keeps it (dates as ISO text)."""
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, models.Model):  # a club: its name, which the log keeps
        return str(value)
    if isinstance(value, Decimal):  # a percentage: JSON has no exact decimals
        return str(value)
    return value


def changes(instance: models.Model, values: dict[str, object]) -> tuple[dict, dict]:
    """What `values` change on the instance: (before, after), as the audit log keeps them."""
    changed = [name for name, value in values.items() if getattr(instance, name) != value]
    return (
        {name: audit_value(getattr(instance, name)) for name in changed},
        {name: audit_value(values[name]) for name in changed},
    )
