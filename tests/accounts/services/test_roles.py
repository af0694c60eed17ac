"""The roles' writes (accounts.services.roles): given once and audited, never to oneself,
taken back with the tables a referee leaves, referees assigned to tables all or nothing, and the
referee accounts an organiser creates."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from accounts.services.roles import (
    referee_account_create,
    role_grant,
    role_revoke,
    table_referees_set,
    tables_referees_set,
)
from tests.factories import make_published_round
from tournaments import permissions
from tournaments.models import AuditRecord, Role, Table
from tournaments.services import ServiceError

pytestmark = pytest.mark.django_db


def account(username: str, **fields: object) -> User:
    return User.objects.create(username=username, **fields)


@pytest.fixture
def round_():
    return make_published_round(players=6)  # two tables of three


@pytest.fixture
def tournament(round_):
    return round_.tournament


@pytest.fixture
def tables(round_) -> tuple[Table, Table]:
    first, second = round_.tables.select_related("round__tournament").order_by("number")
    return first, second


class TestRoleWrites:
    def test_a_role_is_given_once_and_audited(self, tournament):
        organiser, referee = account("organiser"), account("referee")
        assert role_grant(
            tournament=tournament, user=referee, role=Role.REFEREE, by=organiser, ip_address="::1"
        )
        assert not role_grant(tournament=tournament, user=referee, role=Role.REFEREE, by=organiser)
        audit = AuditRecord.objects.get(action="role.granted")
        assert (audit.user, audit.ip_address, audit.detail) == (
            organiser,
            "::1",
            {"role": "referee", "username": "referee"},
        )

    def test_nobody_gives_himself_a_role(self, tournament):
        staff, organiser = account("staff", is_staff=True), account("organiser")
        tournament.organisers.add(organiser)
        for user, role in (
            (organiser, Role.CHIEF_REFEREE),
            (organiser, Role.REFEREE),
            (staff, Role.CHIEF_REFEREE),
            (staff, Role.ORGANISER),
        ):
            with pytest.raises(ServiceError, match="nobody gives a role to himself"):
                role_grant(tournament=tournament, user=user, role=role, by=user)
        assert not tournament.chief_referees.exists() and not tournament.referees.exists()
        assert list(tournament.organisers.all()) == [organiser]
        assert not AuditRecord.objects.filter(action="role.granted").exists()

    def test_a_chief_referee_may_step_down(self, tournament):
        chief = account("chief")
        tournament.chief_referees.add(chief)
        assert role_revoke(tournament=tournament, user=chief, role=Role.CHIEF_REFEREE, by=chief)
        assert not tournament.chief_referees.exists()

    def test_a_disabled_account_gets_no_role(self, tournament):
        with pytest.raises(ServiceError, match="disabled"):
            role_grant(
                tournament=tournament,
                user=account("gone", is_active=False),
                role=Role.CHIEF_REFEREE,
                by=None,
            )
        assert not tournament.chief_referees.exists()

    def test_a_removed_referee_leaves_his_tables(self, tournament, tables):
        referee = account("referee")
        tournament.referees.add(referee)
        table_referees_set(table=tables[0], referees=[referee], by=None)
        assert role_revoke(tournament=tournament, user=referee, role=Role.REFEREE, by=None)
        assert not tables[0].referees.exists()
        assert not permissions.can_write_table(referee, tables[0])
        audit = AuditRecord.objects.get(action="role.revoked")
        assert audit.detail["tables"] == [[1, tables[0].number]]
        assert not role_revoke(tournament=tournament, user=referee, role=Role.REFEREE, by=None)

    def test_only_the_tournaments_referees_are_assigned_to_tables(self, tournament, tables):
        stranger, referee = account("stranger"), account("referee")
        tournament.referees.add(referee)
        with pytest.raises(ServiceError, match="stranger must be referees"):
            table_referees_set(table=tables[0], referees=[referee, stranger], by=None)
        assert not tables[0].referees.exists()
        assert table_referees_set(table=tables[0], referees=[referee], by=None)
        assert not table_referees_set(table=tables[0], referees=[referee], by=None)
        audit = AuditRecord.objects.get(action="table.referees")
        assert (audit.table, audit.detail["before"], audit.detail["after"]) == (
            tables[0],
            [],
            ["referee"],
        )

    def test_several_tables_are_assigned_all_or_nothing(self, tournament, tables):
        referee, stranger = account("referee"), account("stranger")
        tournament.referees.add(referee)
        with pytest.raises(ServiceError):
            tables_referees_set(
                assignments=[(tables[0], [referee]), (tables[1], [stranger])], by=None
            )
        assert not tables[0].referees.exists()
        changed = tables_referees_set(
            assignments=[(tables[0], [referee]), (tables[1], [referee])], by=None
        )
        assert changed == 2 and permissions.can_write_table(referee, tables[1])

    def test_a_referee_account_is_created_with_the_role_and_audited(self, tournament):
        organiser = account("organiser")
        created = referee_account_create(
            tournament=tournament, username=" Jānis ", full_name="Jānis Bērziņš", by=organiser
        )
        assert created.user.check_password(created.password)
        assert (created.user.username, created.user.last_name) == ("Jānis", "Bērziņš")
        assert tournament.referees.filter(pk=created.user.pk).exists()
        audit = AuditRecord.objects.get(action="role.granted")
        assert (audit.user, audit.detail) == (
            organiser,
            {"role": "referee", "username": "Jānis", "account_created": True},
        )
        with pytest.raises(ServiceError, match="already taken"):
            referee_account_create(tournament=tournament, username="jānis", by=organiser)
        assert User.objects.filter(username__iexact="jānis").count() == 1
