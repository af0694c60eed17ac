"""The federation's season rules (season_create, season_update) and final invitations."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from engine.errors import SheetError
from engine.ranking import PointsTable, QualifiedBy
from ranking import selectors
from ranking.models import (
    Invitation,
    Season,
)
from ranking.ranking_page_cache import season_ranking_changed
from tournaments.models import AuditRecord, Player, Tournament
from tournaments.services import ServiceError, audit

# What a season's audit record records of it, as stored (dates as ISO text).
SEASON_FIELDS = ("name", "starts_on", "ends_on", "best_k", "qualifiers", "points_table")


def _season_values(season: Season) -> dict[str, object]:
    values = {name: getattr(season, name) for name in SEASON_FIELDS}
    for name in ("starts_on", "ends_on"):
        if isinstance(values[name], datetime.date):
            values[name] = values[name].isoformat()
    return values


def _checked_table(points_table: object) -> dict[str, list[int]]:
    """The points table as the engine accepts it (levels in order), or a ServiceError."""
    try:
        return PointsTable.from_mapping(points_table).as_mapping()
    except SheetError as error:
        raise ServiceError(str(error)) from None


def _save_season(season: Season) -> None:
    """Check the season as the model does (dates, points table, unique name) and save it."""
    try:
        season.full_clean()
    except ValidationError as error:
        raise ServiceError(
            "; ".join(message for messages in error.message_dict.values() for message in messages)
        ) from None
    season.save()


@transaction.atomic
def season_create(
    *,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date,
    best_k: int,
    qualifiers: int,
    points_table: dict[str, list[int]],
    by: User | None,
    ip_address: str | None = None,
) -> Season:
    """A new season with its rules; the ranking pages show it at once."""
    season = Season(
        name=name,
        starts_on=starts_on,
        ends_on=ends_on,
        best_k=best_k,
        qualifiers=qualifiers,
        points_table=_checked_table(points_table),
    )
    _save_season(season)
    audit(
        action=AuditRecord.Action.RANKING_CHANGED,
        by=by,
        ip_address=ip_address,
        season=season.name,
        before={},
        after=_season_values(season),
    )
    season_ranking_changed()
    return season


@transaction.atomic
def season_update(
    *,
    season: Season,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date,
    best_k: int,
    qualifiers: int,
    points_table: dict[str, list[int]],
    by: User | None,
    ip_address: str | None = None,
) -> bool:
    """Change a season's rules. The ranking points are computed when read (`Placing` keeps the
    place, not the points), so a new points table or best K changes the ranking at once; the
    ranking pages' cache is renewed. False (and no audit record) when nothing changes."""
    current = Season.objects.select_for_update().get(pk=season.pk)
    before = _season_values(current)
    current.name = name
    current.starts_on = starts_on
    current.ends_on = ends_on
    current.best_k = best_k
    current.qualifiers = qualifiers
    current.points_table = _checked_table(points_table)
    after = _season_values(current)
    changed = [field for field in SEASON_FIELDS if before[field] != after[field]]
    if not changed:
        return False
    _save_season(current)
    for field in SEASON_FIELDS:
        setattr(season, field, getattr(current, field))
    audit(
        action=AuditRecord.Action.RANKING_CHANGED,
        by=by,
        ip_address=ip_address,
        season=current.name,
        before={field: before[field] for field in changed},
        after={field: after[field] for field in changed},
    )
    season_ranking_changed()
    return True


def invitations_covering(*, season: Season, final: Tournament):
    """The season's invitations that invite to `final`: to every final, or to this one."""
    return Invitation.objects.filter(season=season).filter(
        Q(tournament__isnull=True) | Q(tournament=final)
    )


@transaction.atomic
def invitation_create(
    *,
    season: Season,
    final: Tournament,
    player: Player,
    whole_season: bool,
    reason: str,
    by: User | None,
    ip_address: str | None = None,
) -> Invitation:
    """Invite `player` to the final `final` (or, `whole_season`, to every final of the season):
    a title holder, a wild card. Refused for an inactive player, one invited to this final
    already, and one who qualifies by the ranking anyway. The audit record is the final's."""
    # One invitation of a season at a time: two organisers cannot invite the same player twice.
    Season.objects.select_for_update().filter(pk=season.pk).order_by().first()
    name = player.full_name
    if not player.is_active:
        raise ServiceError(
            _("%(name)s is not an active player: only active players are invited.") % {"name": name}
        )
    existing = invitations_covering(season=season, final=final).filter(player=player).first()
    if existing is not None:
        if existing.tournament_id is None:
            message = _("%(name)s is already invited to every final of season %(season)s.")
        else:
            message = _("%(name)s is already invited to this final.")
        raise ServiceError(message % {"name": name, "season": season.name})
    ranked = next(
        (
            row
            for row in selectors.qualification(tournament=final, season=season).rows
            if row.player.pk == player.pk and row.qualified_by == QualifiedBy.RANKING
        ),
        None,
    )
    if ranked is not None:
        raise ServiceError(
            _(
                "%(name)s already qualifies by the season ranking (rank %(rank)s): "
                "no invitation is needed."
            )
            % {"name": name, "rank": ranked.rank}
        )
    invitation = Invitation.objects.create(
        season=season,
        player=player,
        tournament=None if whole_season else final,
        reason=reason.strip(),
    )
    audit(
        action=AuditRecord.Action.RANKING_CHANGED,
        by=by,
        tournament=final,
        ip_address=ip_address,
        season=season.name,
        player=name,
        reason=invitation.reason,
        invited=True,
        whole_season=whole_season,
    )
    return invitation


@transaction.atomic
def invitation_withdraw(
    *,
    invitation: Invitation,
    final: Tournament,
    by: User | None,
    ip_address: str | None = None,
) -> bool:
    """Take an invitation back (done from the final `final`'s page; the audit record is that
    final's). Returns whether the player is registered for the final all the same: withdrawing
    the invitation does not withdraw an entry."""
    player = invitation.player
    season = invitation.season
    whole_season = invitation.tournament_id is None
    reason = invitation.reason
    deleted, _rows = Invitation.objects.filter(pk=invitation.pk).delete()
    if not deleted:
        raise ServiceError(
            _("The invitation of %(name)s was withdrawn already.") % {"name": player.full_name}
        )
    audit(
        action=AuditRecord.Action.RANKING_CHANGED,
        by=by,
        tournament=final,
        ip_address=ip_address,
        season=season.name,
        player=player.full_name,
        reason=reason,
        invited=False,
        whole_season=whole_season,
    )
    return final.registrations.filter(player=player).exists()
