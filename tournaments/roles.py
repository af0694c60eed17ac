"""Who may do what: the one place that answers it, and the writes that give and take roles.

The roles (DESIGN.md):
- federation staff (`user.is_staff`) organise every tournament and keep the player register;
- a tournament's organisers run that tournament (entries, rounds, links, table referees, audit
  log);
- its chief referees (galvenais tiesnesis) write, confirm and alone unlock any of its tables;
  staff and the chief referees appoint them, never the organisers (can_manage_role);
- its organisers and chief referees keep the round clock (start it, call time, reset it);
- its table referees write the tables an organiser assigned them to;
- whoever holds a table's private link (/r/<token>/) writes that table: the link is not an
  account, so scoring.views.entry checks it, not this module;
- everyone else reads the public pages.

Views decide with these checks and answer 403; they never test `is_staff` or a relation
themselves, so a rule changes here and nowhere else.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db import models, transaction
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.models import AuditEntry, Role, Table, Tournament
from tournaments.services import ServiceError, audit, lock_round_and_table

AnyUser = AbstractBaseUser | AnonymousUser


# The tournament's relation that holds each role.
ROLE_RELATIONS: dict[str, str] = selectors.ROLE_HOLDERS


# --- Checks -------------------------------------------------------------------------------------


def _signed_in(user: AnyUser | None) -> bool:
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


# --- Writes -------------------------------------------------------------------------------------


def _relation(tournament: Tournament, role: str) -> models.Manager:
    try:
        return getattr(tournament, ROLE_RELATIONS[role])
    except KeyError:
        raise ServiceError(_("unknown role “%(role)s”") % {"role": role}) from None


@transaction.atomic
def role_grant(
    *,
    tournament: Tournament,
    user: User,
    role: str,
    by: User | None,
    ip_address: str | None = None,
) -> bool:
    """Give `user` the role in the tournament; False (and no audit entry) if he already has it.
    Nobody gives a role to himself: every role is given by a second person."""
    relation = _relation(tournament, role)
    if by is not None and by.pk == user.pk:
        raise ServiceError(
            _("nobody gives a role to himself: another person who may give it has to")
        )
    if not user.is_active:
        raise ServiceError(_("the account %(username)s is disabled") % {"username": user.username})
    if relation.filter(pk=user.pk).exists():
        return False
    relation.add(user)
    audit(
        action=AuditEntry.Action.ROLE_GRANTED,
        by=by,
        tournament=tournament,
        ip_address=ip_address,
        role=role,
        username=user.username,
    )
    return True


@dataclass(frozen=True)
class NewAccount:
    user: User
    password: str  # shown once to the organiser, who hands it over; never stored in clear


@transaction.atomic
def referee_account_create(
    *,
    tournament: Tournament,
    username: str,
    full_name: str = "",
    by: User | None,
    ip_address: str | None = None,
) -> NewAccount:
    """A new account, a table referee of the tournament, with a made-up password: what the
    organiser needed Django's admin for. The audit entry says the account was created."""
    username = username.strip()
    if not username:
        raise ServiceError(_("the account needs a name"))
    if User.objects.filter(username__iexact=username).exists():
        raise ServiceError(
            _("The username “%(username)s” is already taken.") % {"username": username}
        )
    first_name, _space, last_name = full_name.strip().partition(" ")
    password = secrets.token_urlsafe(9)
    user = User.objects.create_user(
        username=username, password=password, first_name=first_name, last_name=last_name.strip()
    )
    _relation(tournament, Role.REFEREE).add(user)
    audit(
        action=AuditEntry.Action.ROLE_GRANTED,
        by=by,
        tournament=tournament,
        ip_address=ip_address,
        role=Role.REFEREE.value,
        username=username,
        account_created=True,
    )
    return NewAccount(user=user, password=password)


@transaction.atomic
def role_revoke(
    *,
    tournament: Tournament,
    user: User,
    role: str,
    by: User | None,
    ip_address: str | None = None,
) -> bool:
    """Take the role away; a referee also leaves every table of the tournament he was assigned
    to. False (and no audit entry) if he did not have it."""
    relation = _relation(tournament, role)
    if not relation.filter(pk=user.pk).exists():
        return False
    relation.remove(user)
    tables: list[tuple[int, int]] = []
    if role == Role.REFEREE:
        assignments = Table.referees.through.objects.filter(
            user_id=user.pk, table__round__tournament=tournament
        )
        tables = sorted(assignments.values_list("table__round__number", "table__number"))
        assignments.delete()
    audit(
        action=AuditEntry.Action.ROLE_REVOKED,
        by=by,
        tournament=tournament,
        ip_address=ip_address,
        role=role,
        username=user.username,
        # [round number, table number] of each table he leaves.
        **({"tables": [list(pair) for pair in tables]} if tables else {}),
    )
    return True


@transaction.atomic
def table_referees_set(
    *,
    table: Table,
    referees: Iterable[User],
    by: User | None,
    ip_address: str | None = None,
) -> bool:
    """Exactly these referee accounts are assigned to the table; each must be one of the
    tournament's referees. False (and no audit entry) when nothing changes."""
    _round, table = lock_round_and_table(table)
    tournament = table.round.tournament
    wanted = {user.pk: user for user in referees}
    allowed = set(tournament.referees.filter(pk__in=wanted).values_list("pk", flat=True))
    strangers = sorted(user.username for pk, user in wanted.items() if pk not in allowed)
    if strangers:
        raise ServiceError(
            _("%(usernames)s must be referees of the tournament before a table is assigned to them")
            % {"usernames": ", ".join(strangers)}
        )
    before = {user.pk: user.username for user in table.referees.all()}
    if set(before) == set(wanted):
        return False
    table.referees.set(wanted.values())
    audit(
        action=AuditEntry.Action.TABLE_REFEREES,
        by=by,
        tournament=tournament,
        table=table,
        ip_address=ip_address,
        round=table.round.number,
        before=sorted(before.values()),
        after=sorted(user.username for user in wanted.values()),
    )
    return True


@transaction.atomic
def tables_referees_set(
    *,
    assignments: Iterable[tuple[Table, Iterable[User]]],
    by: User | None,
    ip_address: str | None = None,
) -> int:
    """Several tables' referees at once, all or nothing; returns how many tables changed."""
    return sum(
        table_referees_set(table=table, referees=referees, by=by, ip_address=ip_address)
        for table, referees in assignments
    )
