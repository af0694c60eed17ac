"""A tournament's settings, its entries (registration, changes, withdrawal), the player register
and the clubs."""

from collections.abc import Iterable

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from core.page_cache import tournament_changed
from tournaments import selectors
from tournaments.models import (
    AuditEntry,
    CheckIn,
    Club,
    Player,
    Registration,
    Tournament,
)
from tournaments.rule_set import RULE_SET_FIELDS
from tournaments.services.audit import audit, audit_value, changes
from tournaments.services.refusal import ServiceError


class RuleSetLockedError(ServiceError):
    """The rule set cannot change while a round is played with it."""


@transaction.atomic
def tournament_settings_save(
    *,
    tournament: Tournament,
    values: dict[str, object],
    by: User | None,
    ip_address: str | None = None,
) -> Tournament:
    """Create a tournament, or change its settings, and audit what changed (before and after).

    The rule set (`tournaments.rule_set.RULE_SET_FIELDS`) is fixed for a round once it is
    published: while a round is published or in play it cannot change; a change made between
    rounds applies from the next round (each round keeps the rules it was played with)."""
    creating = tournament.pk is None
    if not creating:
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    before = {name: getattr(tournament, name) for name in values}
    changed = [name for name, value in values.items() if creating or before[name] != value]
    rule_changes = [name for name in changed if name in RULE_SET_FIELDS]
    if rule_changes and not creating:
        playing = selectors.playing_round(tournament=tournament)
        if playing is not None:
            fields = ", ".join(
                str(Tournament._meta.get_field(name).verbose_name) for name in rule_changes
            )
            raise RuleSetLockedError(
                _(
                    "round %(number)d is %(status)s and is played with the rules it was "
                    "published with: %(fields)s can change once it is closed, and the change "
                    "then applies from the next round"
                )
                % {
                    "number": playing.number,
                    "status": playing.get_status_display(),
                    "fields": fields,
                }
            )
    for name, value in values.items():
        setattr(tournament, name, value)
    tournament.save()
    if changed:
        audit(
            action=AuditEntry.Action.SETTINGS_CHANGED,
            by=by,
            tournament=tournament,
            ip_address=ip_address,
            created=creating,
            before={} if creating else {name: audit_value(before[name]) for name in changed},
            after={name: audit_value(values[name]) for name in changed},
        )
    tournament_changed(tournament.pk)
    return tournament


@transaction.atomic
def registrations_create(
    *,
    tournament: Tournament,
    players: Iterable[Player],
    first_round: int = 1,
    by: User | None = None,
    ip_address: str | None = None,
    action: str = AuditEntry.Action.ENTRIES_REGISTERED,
    **detail: object,
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
    False (and no audit entry) when nothing changes."""
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
        action=AuditEntry.Action.ENTRY_CHANGED,
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
        action=AuditEntry.Action.ENTRY_WITHDRAWN,
        by=by,
        tournament=registration.tournament,
        ip_address=ip_address,
        player=registration.player.full_name,
        after_round=after_round,
    )
    return registration


@transaction.atomic
def player_save(
    *, player: Player, values: dict[str, object], by: User | None, ip_address: str | None = None
) -> Player:
    """Add a player to the register, or change one, with what changed in the audit log (the
    register belongs to no tournament, and neither does its audit entry)."""
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
            action=AuditEntry.Action.PLAYER_SAVED,
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
        action=AuditEntry.Action.CLUB_ADDED,
        by=by,
        ip_address=ip_address,
        club=club.name,
        city=club.city,
    )
    return club
