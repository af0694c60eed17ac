"""Giving and taking a tournament's roles, assigning referees to tables, and creating referee
accounts. Who may give which role is answered by `tournaments.permissions` (the views ask it
first); who holds which role is read by `accounts.selectors`.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.services.organisers import account_username
from engine.names import clean_name
from tournaments.models import ROLE_RELATIONS, AuditRecord, Role, Table, Tournament
from tournaments.services.audit import audit
from tournaments.services.locks import lock_round_and_table
from tournaments.services.refusal import ServiceError

if TYPE_CHECKING:  # built by Django at run time: only the stubs declare it
    from django.db.models.fields.related_descriptors import ManyRelatedManager


def _relation(tournament: Tournament, role: str) -> ManyRelatedManager[User, Any]:
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
    """Give `user` the role in the tournament; False (and no audit record) if he already has it.
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
        action=AuditRecord.Action.ROLE_GRANTED,
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
    organiser needed Django's admin for. The audit record says the account was created."""
    username = account_username(username)
    if User.objects.filter(username__iexact=username).exists():
        raise ServiceError(
            _("The username “%(username)s” is already taken.") % {"username": username}
        )
    first_name, _space, last_name = clean_name(full_name).partition(" ")
    password = secrets.token_urlsafe(9)
    user = User.objects.create_user(
        username=username, password=password, first_name=first_name, last_name=last_name.strip()
    )
    _relation(tournament, Role.REFEREE).add(user)
    audit(
        action=AuditRecord.Action.ROLE_GRANTED,
        by=by,
        tournament=tournament,
        ip_address=ip_address,
        role=Role.REFEREE.value,
        username=username,
        account_created=True,
    )
    return NewAccount(user=user, password=password)


class TablesLeft(TypedDict, total=False):
    """A referee's revoked role in the audit log: the tables he leaves, if any."""

    # [round number, table number] of each table he leaves.
    tables: list[list[int]]


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
    to. False (and no audit record) if he did not have it."""
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
    left: TablesLeft = {"tables": [list(pair) for pair in tables]} if tables else {}
    audit(
        action=AuditRecord.Action.ROLE_REVOKED,
        by=by,
        tournament=tournament,
        ip_address=ip_address,
        role=role,
        username=user.username,
        **left,
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
    tournament's referees. False (and no audit record) when nothing changes."""
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
        action=AuditRecord.Action.TABLE_REFEREES,
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
