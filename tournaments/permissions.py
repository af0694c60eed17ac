"""Who may do what: the one place that answers it (`accounts.services.roles` gives and takes
the roles).

The roles:
- federation staff (`user.is_staff`) organise every tournament and keep the player register;
- a tournament's organisers run that tournament (entries, rounds, links, table referees, audit
  log);
- its chief referees (galvenais tiesnesis) write, confirm and alone unlock any of its tables;
  staff and the chief referees appoint them, never the organisers (can_manage_role);
- its organisers and chief referees keep the round clock (start it, call time, reset it);
- its table referees write the tables an organiser assigned them to;
- whoever holds a table's private link (/r/<token>/) writes that table: the link is not an
  account, so entry.views checks it, not this module;
- everyone else reads the public pages.

Views decide with these checks and answer 403; they never test `is_staff` or a relation
themselves, so a rule changes here and nowhere else.
"""

from __future__ import annotations

from typing import TypeGuard

from django.contrib.auth.models import AnonymousUser, User
from django.db import models

from tournaments.models import ROLE_RELATIONS, Role, Table, Tournament

AnyUser = User | AnonymousUser


# --- Checks -------------------------------------------------------------------------------------


def _signed_in(user: AnyUser | None) -> TypeGuard[User]:
    return user is not None and user.is_authenticated and user.is_active


def is_federation_staff(user: AnyUser | None) -> bool:
    """Federation staff: every tournament, the player register, new tournaments."""
    return _signed_in(user) and user.is_staff


def _holds(user: AnyUser, tournament: Tournament, role: str) -> bool:
    # By primary key: `tournament` may be a lazy object that loads only when a query needs it.
    relation = getattr(Tournament, ROLE_RELATIONS[role]).through.objects
    return relation.filter(tournament_id=tournament.pk, user_id=user.pk).exists()


def is_organiser(user: AnyUser | None, tournament: Tournament) -> bool:
    """Federation staff organise all tournaments; a tournament's organisers organise it."""
    if not _signed_in(user):
        return False
    return user.is_staff or _holds(user, tournament, Role.ORGANISER)


def is_chief_referee(user: AnyUser | None, tournament: Tournament) -> bool:
    """The tournament's chief referees (and superusers, who stand in for anyone)."""
    if not _signed_in(user):
        return False
    return user.is_superuser or _holds(user, tournament, Role.CHIEF_REFEREE)


def is_table_referee(user: AnyUser | None, table: Table) -> bool:
    """A referee account an organiser assigned to this table."""
    if not _signed_in(user):
        return False
    return Table.referees.through.objects.filter(table_id=table.pk, user_id=user.pk).exists()


def can_write_table(user: AnyUser | None, table: Table) -> bool:
    """Enter, correct and confirm a table's deals while signed in (the link is the other door)."""
    tournament = table.round.tournament
    return (
        is_organiser(user, tournament)
        or is_chief_referee(user, tournament)
        or is_table_referee(user, table)
    )


def can_print_sheets(user: AnyUser | None, tournament: Tournament) -> bool:
    """A round's score sheets carry the tables' private links: organisers and chief referees."""
    return is_organiser(user, tournament) or is_chief_referee(user, tournament)


def can_run_clock(user: AnyUser | None, tournament: Tournament) -> bool:
    """Start, reset and call time on a round's clock: organisers and chief referees."""
    return is_organiser(user, tournament) or is_chief_referee(user, tournament)


def can_manage_role(user: AnyUser | None, tournament: Tournament, role: str) -> bool:
    """Who gives and takes away each role of a tournament (never to himself: role_grant).

    - organisers: federation staff only (an organiser cannot make more, or remove the others);
    - chief referees: federation staff and the tournament's chief referees. Separation of
      duties: the chief referee alone unlocks a confirmed table, so the organisers, who run the
      tournament, neither appoint one (themselves, or a friend) nor remove one who stands in
      their way; a chief referee may step down;
    - table referees: the tournament's organisers."""
    if role == Role.ORGANISER:
        return is_federation_staff(user)
    if role == Role.CHIEF_REFEREE:
        return is_federation_staff(user) or is_chief_referee(user, tournament)
    return is_organiser(user, tournament)


def manageable_roles(user: AnyUser | None, tournament: Tournament) -> list[str]:
    """The roles of the tournament the account gives and takes away; none: not his page."""
    return [role for role in Role.values if can_manage_role(user, tournament, role)]


def can_hold_api_tokens(user: AnyUser | None) -> bool:
    """Personal API tokens read and write what their owner's signed-in pages do: federation
    staff and the accounts that organise some tournament make them (api.services)."""
    if not _signed_in(user):
        return False
    return user.is_staff or Tournament.organisers.through.objects.filter(user_id=user.pk).exists()


def has_any_role(user: AnyUser | None) -> bool:
    """Staff, or anyone who organises or referees some tournament: the dashboard is theirs."""
    if not _signed_in(user):
        return False
    if user.is_staff or user.is_superuser:
        return True
    return (
        User.objects.filter(pk=user.pk)
        .filter(
            models.Q(organised_tournaments__isnull=False)
            | models.Q(refereed_tournaments__isnull=False)
            | models.Q(table_referee_tournaments__isnull=False)
        )
        .exists()
    )
