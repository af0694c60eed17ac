"""The hall display's private link, which shows the round's check-in code: issued (renewing
the old one) and revoked."""

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from hall.models import DisplayLink
from tournaments.models import AuditRecord, Tournament
from tournaments.services.audit import audit


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
        action=AuditRecord.Action.DISPLAY_LINK_ISSUED,
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
        action=AuditRecord.Action.DISPLAY_LINK_REVOKED,
        by=by,
        tournament=tournament,
        ip_address=ip_address,
        revoked=revoked,
    )
    return revoked
