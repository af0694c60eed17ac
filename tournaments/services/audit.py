"""The audit log: the line every organiser or referee write leaves (who, when, from where, what),
and a setting's value as the log keeps it."""

import datetime
from decimal import Decimal

from django.contrib.auth.models import AnonymousUser, User
from django.db import models

from tournaments.models import AuditRecord, Table, Tournament


def audit(
    *,
    action: str,
    by: User | AnonymousUser | None,
    tournament: Tournament | None = None,
    table: Table | None = None,
    ip_address: str | None = None,
    **detail: object,
) -> AuditRecord:
    user = by if isinstance(by, User) and by.is_authenticated else None
    return AuditRecord.objects.create(
        tournament_id=tournament.pk if tournament is not None else None,
        table_id=table.pk if table is not None else None,
        action=action,
        user=user,
        ip_address=ip_address,
        detail=detail,
    )


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
