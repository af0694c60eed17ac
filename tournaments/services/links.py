"""A table's private link for its referee's phone."""

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from tournaments.models import AuditRecord, Table, TableToken
from tournaments.services.audit import audit
from tournaments.services.locks import lock_round_and_table


@transaction.atomic
def table_token_issue(
    *, table: Table, by: User | None, ip_address: str | None = None
) -> TableToken:
    """A new private entry link for the table; the old one stops working."""
    _round, table = lock_round_and_table(table)
    TableToken.objects.filter(table=table, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    token = TableToken.objects.create(table=table, round_id=table.round_id)
    audit(
        action=AuditRecord.Action.TOKEN_ISSUED,
        by=by,
        tournament=table.round.tournament,
        table=table,
        ip_address=ip_address,
    )
    return token


@transaction.atomic
def table_token_revoke(*, table: Table, by: User | None, ip_address: str | None = None) -> int:
    """The table's entry link stops working (a lost phone, a leaked link)."""
    _round, table = lock_round_and_table(table)
    revoked = TableToken.objects.filter(table=table, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    audit(
        action=AuditRecord.Action.TOKEN_REVOKED,
        by=by,
        tournament=table.round.tournament,
        table=table,
        ip_address=ip_address,
    )
    return revoked
