"""The private links: a table's link for its referee's phone, and the hall display's link that
shows the round's check-in code."""

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from tournaments.models import AuditEntry, DisplayLink, Table, TableToken, Tournament
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
        action=AuditEntry.Action.TOKEN_ISSUED,
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
        action=AuditEntry.Action.TOKEN_REVOKED,
        by=by,
        tournament=table.round.tournament,
        table=table,
        ip_address=ip_address,
    )
    return revoked


def _lock_tournament(tournament: Tournament) -> Tournament:
    # Two organisers renewing at once: one after the other, one working link left.
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


@transaction.atomic
def display_link_issue(
    *, tournament: Tournament, by: User | None, ip_address: str | None = None
) -> DisplayLink:
    """A new private link of the hall display (it shows the check-in code); the old one stops
    working."""
    tournament = _lock_tournament(tournament)
    renewed = DisplayLink.objects.filter(tournament=tournament, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    link = DisplayLink.objects.create(tournament=tournament)
    audit(
        action=AuditEntry.Action.DISPLAY_LINK_ISSUED,
        by=by,
        tournament=tournament,
        ip_address=ip_address,
        replaced=bool(renewed),
    )
    return link


@transaction.atomic
def display_link_revoke(
    *, tournament: Tournament, by: User | None, ip_address: str | None = None
) -> int:
    """The hall display's private link stops working (a leaked link); how many were working."""
    tournament = _lock_tournament(tournament)
    revoked = DisplayLink.objects.filter(tournament=tournament, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    audit(
        action=AuditEntry.Action.DISPLAY_LINK_REVOKED,
        by=by,
        tournament=tournament,
        ip_address=ip_address,
        revoked=revoked,
    )
    return revoked
