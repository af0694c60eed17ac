"""Registrations: players registered in a tournament, a registration changed, a withdrawal."""

from collections.abc import Iterable
from typing import TypedDict, Unpack

from django.contrib.auth.models import User
from django.db import transaction

from core.page_cache import tournament_changed
from tournaments.models import AuditRecord, CheckIn, Player, Registration, Tournament
from tournaments.services.audit import audit, changes


class RegistrationsDetail(TypedDict, total=False):
    """What else the audit record of a registration says: the season whose final's qualifiers
    the ranking registers."""

    season: str


@transaction.atomic
def registrations_create(
    *,
    tournament: Tournament,
    players: Iterable[Player],
    first_round: int = 1,
    by: User | None = None,
    ip_address: str | None = None,
    action: str = AuditRecord.Action.REGISTRATIONS_CREATED,
    **detail: Unpack[RegistrationsDetail],
) -> list[Registration]:
    """Register players; a registration after round 1 has started is a late one. One audit
    entry names them (`action` and `detail`: the ranking registers a final's qualifiers)."""
    existing = set(tournament.registrations.values_list("player_id", flat=True))
    registrations = [
        Registration(tournament=tournament, player=player, first_round=first_round)
        for player in players
        if player.pk not in existing
    ]
    created = Registration.objects.bulk_create(registrations)
    if created:
        audit(
            action=action,
            by=by,
            tournament=tournament,
            ip_address=ip_address,
            **detail,
            players=[registration.player.full_name for registration in created],
            first_round=first_round,
        )
    tournament_changed(tournament.pk)
    return created


@transaction.atomic
def registration_update(
    *,
    registration: Registration,
    values: dict[str, object],
    by: User | None,
    ip_address: str | None = None,
) -> bool:
    """Change a registration (team, fixed table, first round), with what changed in the audit log.
    False (and no audit record) when nothing changes."""
    registration = (
        Registration.objects.select_for_update()
        .select_related("player", "tournament")
        .get(pk=registration.pk)
    )
    before, after = changes(registration, values)
    if not after:
        return False
    for name, value in values.items():
        setattr(registration, name, value)
    registration.save(update_fields=list(values))
    tournament_changed(registration.tournament_id)
    audit(
        action=AuditRecord.Action.REGISTRATION_CHANGED,
        by=by,
        tournament=registration.tournament,
        ip_address=ip_address,
        player=registration.player.full_name,
        before=before,
        after=after,
    )
    return True


@transaction.atomic
def registration_withdraw(
    *, registration: Registration, after_round: int, by: User | None, ip_address: str | None = None
) -> Registration:
    """The player leaves: not seated in any round after `after_round`; results so far stay."""
    registration.withdrawn_after_round = after_round
    registration.save(update_fields=["withdrawn_after_round"])
    CheckIn.objects.filter(registration=registration, round__number__gt=after_round).delete()
    tournament_changed(registration.tournament_id)
    audit(
        action=AuditRecord.Action.REGISTRATION_WITHDRAWN,
        by=by,
        tournament=registration.tournament,
        ip_address=ip_address,
        player=registration.player.full_name,
        after_round=after_round,
    )
    return registration
