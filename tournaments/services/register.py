"""The register: a player added or changed, a club added."""

from django.contrib.auth.models import User
from django.db import transaction

from tournaments.models import AuditRecord, Club, Player
from tournaments.services.audit import audit, audit_value, changes


@transaction.atomic
def player_save(
    *, player: Player, values: dict[str, object], by: User | None, ip_address: str | None = None
) -> Player:
    """Add a player to the register, or change one, with what changed in the audit log (the
    register belongs to no tournament, and neither does its audit record)."""
    creating = player.pk is None
    if not creating:
        player = Player.objects.select_for_update().get(pk=player.pk)
    before, after = changes(player, values)
    if creating:
        before, after = {}, {name: audit_value(value) for name, value in values.items()}
    for name, value in values.items():
        setattr(player, name, value)
    player.save()
    if after:
        audit(
            action=AuditRecord.Action.PLAYER_SAVED,
            by=by,
            ip_address=ip_address,
            player=player.full_name,
            created=creating,
            before=before,
            after=after,
        )
    return player


@transaction.atomic
def club_create(*, name: str, city: str, by: User | None, ip_address: str | None = None) -> Club:
    club = Club.objects.create(name=name, city=city)
    audit(
        action=AuditRecord.Action.CLUB_ADDED,
        by=by,
        ip_address=ip_address,
        club=club.name,
        city=club.city,
    )
    return club
