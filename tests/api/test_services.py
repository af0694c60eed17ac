"""Personal API tokens: made with a secret shown once and stored only as its SHA-256, revoked
by their owner, each change in the audit log; only organisers hold them."""

from __future__ import annotations

import hashlib

import pytest

from api import services
from api.models import ApiToken
from tests.factories import make_organiser, make_tournament, make_user
from tournaments.models import AuditRecord
from tournaments.services import ServiceError

pytestmark = pytest.mark.django_db


def tournament_organiser():
    organiser = make_user()
    make_tournament().organisers.add(organiser)
    return organiser


def test_a_token_keeps_only_the_hash_of_its_secret():
    organiser = tournament_organiser()

    made = services.api_token_create(user=organiser, name="Federācijas vietne")

    stored = ApiToken.objects.get()
    assert made.secret.startswith("zole_") and len(made.secret) > 40
    assert stored.digest == hashlib.sha256(made.secret.encode()).hexdigest()
    assert made.secret not in [str(value) for value in ApiToken.objects.values_list().get()]
    assert made.secret.startswith(stored.hint) and len(stored.hint) < 12
    assert services.token_for_secret(made.secret) == stored


def test_making_and_revoking_a_token_are_audited_with_their_author():
    organiser = tournament_organiser()
    made = services.api_token_create(user=organiser, name="Vietne", ip_address="10.0.0.7")

    services.api_token_revoke(token=made.token, by=organiser, ip_address="10.0.0.7")

    entries = list(AuditRecord.objects.order_by("pk"))
    assert [entry.action for entry in entries] == [
        AuditRecord.Action.API_TOKEN_CREATED,
        AuditRecord.Action.API_TOKEN_REVOKED,
    ]
    assert {entry.user for entry in entries} == {organiser}
    assert {entry.ip_address for entry in entries} == {"10.0.0.7"}
    assert all(made.secret not in str(entry.detail) for entry in entries)


def test_a_revoked_token_opens_nothing_and_revoking_again_changes_nothing():
    organiser = tournament_organiser()
    made = services.api_token_create(user=organiser, name="Vietne")

    services.api_token_revoke(token=made.token, by=organiser)
    services.api_token_revoke(token=made.token, by=organiser)

    assert services.token_for_secret(made.secret) is None
    assert AuditRecord.objects.filter(action=AuditRecord.Action.API_TOKEN_REVOKED).count() == 1


def test_only_the_owner_revokes_his_token():
    made = services.api_token_create(user=tournament_organiser(), name="Vietne")

    with pytest.raises(ServiceError):
        services.api_token_revoke(token=made.token, by=make_organiser())

    assert services.token_for_secret(made.secret) is not None


@pytest.mark.parametrize("name", ["", "   ", "x" * 81])
def test_a_token_needs_a_name_of_at_most_80_characters(name):
    with pytest.raises(ServiceError):
        services.api_token_create(user=tournament_organiser(), name=name)

    assert not ApiToken.objects.exists()


def test_an_account_that_organises_nothing_holds_no_token():
    with pytest.raises(ServiceError, match="organisers"):
        services.api_token_create(user=make_user(), name="Vietne")

    assert not ApiToken.objects.exists()


def test_a_token_whose_owner_no_longer_organises_opens_nothing():
    organiser = make_user()
    tournament = make_tournament()
    tournament.organisers.add(organiser)
    made = services.api_token_create(user=organiser, name="Vietne")

    tournament.organisers.remove(organiser)

    assert services.token_for_secret(made.secret) is None


@pytest.mark.parametrize("secret", ["", "zole_", "zole_" + "A" * 43, "Bearer x", "z" * 5000])
def test_any_other_text_opens_nothing(secret):
    services.api_token_create(user=tournament_organiser(), name="Vietne")

    assert services.token_for_secret(secret) is None


def test_an_owner_has_at_most_twenty_tokens_in_use():
    organiser = tournament_organiser()
    made = [
        services.api_token_create(user=organiser, name=f"Programma {number}")
        for number in range(services.ACTIVE_MAX)
    ]

    with pytest.raises(ServiceError, match="revoke"):
        services.api_token_create(user=organiser, name="Vēl viena")
    services.api_token_revoke(token=made[0].token, by=organiser)
    services.api_token_create(user=organiser, name="Vēl viena")

    assert ApiToken.objects.filter(revoked_at__isnull=True).count() == services.ACTIVE_MAX


def test_a_deactivated_owner_s_token_opens_nothing():
    organiser = tournament_organiser()
    made = services.api_token_create(user=organiser, name="Vietne")

    organiser.is_active = False
    organiser.save()

    assert services.token_for_secret(made.secret) is None


def test_using_a_token_is_recorded_at_most_every_few_minutes(django_assert_num_queries):
    made = services.api_token_create(user=tournament_organiser(), name="Vietne")
    services.api_token_used(made.token)
    first = made.token.last_used_at

    with django_assert_num_queries(0):
        services.api_token_used(made.token)

    assert made.token.last_used_at == first
