"""The sheet's statements in plain SQL (scoring/sheet/plain_sql.py) and the reader that uses them
(scoring/sheet/reader.py): each gives what the ORM gives, on SQLite and PostgreSQL alike (CI
runs both), and both doors of the entry page read the same row."""

import datetime
import itertools

import pytest
from django.utils import timezone

from engine import Galdins, PenaltyPule, Play
from engine.rules import Game
from scoring import services
from scoring.models import DealResult, TableResult
from scoring.services import Writer, round_generate_seating
from scoring.sheet import plain_sql
from scoring.sheet.plain_sql import RESULT_FIELDS, table_results, table_seats
from scoring.sheet.reader import table_by_id, table_by_link
from tests.factories import deals_on_sheet, make_published_round, play_round_with, seat_keys
from tournaments import services as tournament_services
from tournaments.models import Round, Seat, TableToken

pytestmark = pytest.mark.django_db

keys = (f"plain-key-{number}" for number in itertools.count())
REFEREE = Writer(ip_address="2001:db8::7")


def record(table, entry, position):
    return services.deal_record(
        table=table, entry=entry, position=position, client_key=next(keys), writer=REFEREE
    )


@pytest.fixture
def table():
    round_ = make_published_round(players=6)
    table = round_.tables.get(number=1)
    play_round_with(round_, all_pass="galdins_pule")
    a, b, c = seat_keys(table)
    record(table, Play(Game.LIELAIS, b, tricks=5, points=75), 1)
    record(table, PenaltyPule(a), 2)
    record(
        table,
        Galdins(tricks={a: 2, b: 3, c: 3}, points={a: 20, b: 45, c: 55}),
        3,
    )
    services.deal_correct(
        table=table,
        position=1,
        entry=Play(Game.ZOLE, c, tricks=6, points=90),
        base_version=1,
        client_key=next(keys),
        reason='a "typo" <fixed>',
        writer=REFEREE,
    )
    return table


def test_a_tables_results_are_the_orms_in_order_and_field_for_field(table):
    read = table_results(table.pk)
    orm = list(DealResult.objects.filter(table=table).order_by("position", "version"))
    assert [result.pk for result in read] == [result.pk for result in orm]
    for plain, stored in zip(read, orm, strict=True):
        for name in RESULT_FIELDS:
            assert getattr(plain, name) == getattr(stored, name), name
    galdins = next(result for result in read if result.kind == "galdins")
    assert isinstance(galdins.galdins, dict) and galdins.galdins["points"]
    # What the sheet does not read stays deferred, and is read when asked for.
    assert read[0].ip_address == "2001:db8::7"


def test_a_tables_seats_come_in_order_with_their_players_names(table):
    seats = table_seats(table.pk)
    orm = list(
        Seat.objects.filter(table=table).select_related("registration__player").order_by("position")
    )
    assert [(seat.pk, seat.position, seat.registration_id) for seat in seats] == [
        (seat.pk, seat.position, seat.registration_id) for seat in orm
    ]
    assert [seat.registration.player.full_name for seat in seats] == [
        seat.registration.player.full_name for seat in orm
    ]
    assert table_seats(0) == []


def test_a_link_comes_with_its_table_round_tournament_and_confirmation(table):
    token = TableToken.objects.get(table=table, revoked_at__isnull=True)
    linked = table_by_link(token.token)
    round_ = Round.objects.select_related("tournament").get(pk=table.round_id)
    assert linked.link.pk == token.pk and linked.table.pk == table.pk
    assert linked.table.number == table.number
    assert linked.table.round.status == round_.status == "in_play"
    assert linked.table.round.rule_set == round_.rule_set  # JSON, decoded
    assert linked.table.round.tournament.slug == round_.tournament.slug
    assert linked.confirmation is None
    assert table_by_link("never-issued") is None


def test_the_signed_in_door_reads_the_links_row_without_a_link(table):
    token = TableToken.objects.get(table=table, revoked_at__isnull=True)
    linked = table_by_link(token.token)
    door = table_by_id(table.pk)
    assert door.link is None
    assert (door.table.pk, door.table.round.status, door.table.round.tournament.slug) == (
        linked.table.pk,
        linked.table.round.status,
        linked.table.round.tournament.slug,
    )
    assert door.confirmation == linked.confirmation and door.heard == linked.heard
    assert table_by_id(0) is None


def test_a_confirmed_tables_link_carries_the_confirmation_with_an_aware_time(table):
    play_round_with(table.round, deals_per_round=3)
    record(table, Play(Game.LIELAIS, seat_keys(table)[0], tricks=5, points=75), 4)
    confirmer = table.seats.order_by("position").first().registration
    services.table_confirm(
        table=table, writer=REFEREE, confirmer=confirmer, deals_seen=deals_on_sheet(table)
    )
    token = TableToken.objects.get(table=table, revoked_at__isnull=True)
    confirmation = table_by_link(token.token).confirmation
    stored = TableResult.objects.get(table=table)
    assert confirmation.pk == stored.pk
    assert confirmation.confirmed_at == stored.confirmed_at
    assert timezone.is_aware(confirmation.confirmed_at)
    assert confirmation.confirmed_by_registration_id == confirmer.pk
    assert confirmation.time_called is False
    under_lock = plain_sql.table_confirmation(table.pk)
    assert (under_lock.pk, under_lock.confirmed_at, under_lock.last_version_id) == (
        stored.pk,
        stored.confirmed_at,
        stored.last_version_id,
    )
    assert plain_sql.table_confirmation(0) is None


def test_a_link_whose_round_was_seated_again_has_no_table():
    round_ = make_published_round(players=6)
    table = round_.tables.get(number=1)
    token = TableToken.objects.get(table=table, revoked_at__isnull=True)
    round_generate_seating(
        round_=round_,
        seed=2,
        by=None,
        confirmation=tournament_services.regenerate_confirmation(round_),
    )
    linked = table_by_link(token.token)
    assert linked.table is None and linked.confirmation is None
    assert linked.link.revoked_at is not None and timezone.is_aware(linked.link.revoked_at)


def test_an_insert_stores_what_the_orm_reads_back():
    round_ = make_published_round(players=6)
    table = round_.tables.get(number=1)
    at = timezone.now()
    galdins = {"tricks": {"1": 3}, "points": {"1": 'Ērika "Ē"'}}
    values = {
        "table_id": table.pk,
        "position": 1,
        "version": 1,
        "kind": "galdins",
        "game": "",
        "player_id": None,
        "points": None,
        "tricks": None,
        "galdins": galdins,
        "reason": "",
        "client_key": "key",
        "entered_by_id": None,
        "entered_via_token_id": None,
        "ip_address": "10.1.2.3",
        "created_at": at,
    }
    entry = plain_sql.insert(DealResult, values)
    stored = DealResult.objects.get(pk=entry.pk)
    assert stored.created_at == at and timezone.is_aware(stored.created_at)
    assert stored.galdins == galdins == entry.galdins
    assert stored.ip_address == "10.1.2.3" and stored.table_id == table.pk


def test_an_insert_that_breaks_a_constraint_is_an_integrity_error_and_stores_nothing():
    from django.db import IntegrityError, transaction

    round_ = make_published_round(players=6)
    table = round_.tables.get(number=1)
    values = {
        "table_id": table.pk,
        "position": 1,
        "version": 1,
        "kind": "pass",
        "game": "",
        "player_id": None,
        "points": None,
        "tricks": None,
        "galdins": None,
        "reason": "",
        "client_key": "same",
        "entered_by_id": None,
        "entered_via_token_id": None,
        "ip_address": None,
        "created_at": timezone.now() - datetime.timedelta(seconds=1),
    }
    plain_sql.insert(DealResult, values)
    with pytest.raises(IntegrityError), transaction.atomic():
        plain_sql.insert(DealResult, {**values, "client_key": "other"})  # same position, version
    assert DealResult.objects.count() == 1


def test_an_unknown_field_is_refused_by_name():
    with pytest.raises(ValueError, match="no_such"):
        plain_sql.model_fields(Seat, ("id", "no_such"))
