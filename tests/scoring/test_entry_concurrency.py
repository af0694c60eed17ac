"""Deals of different tables are written side by side (issue 14, item 1): a deal locks its
table's row and, while the round is in play, the round's row only FOR SHARE, so 200 tables do not
queue behind one lock; a write of the round itself (closing, the clock) still excludes them.
Row locks are PostgreSQL's: on SQLite (one writer at a time) there is nothing to show."""

import threading

import pytest
from django.db import OperationalError, connection, transaction

from engine import Play
from engine.rules import Game
from scoring import services
from scoring.models import DealResult
from scoring.services import Writer
from tests.factories import make_published_round, seat_keys
from tournaments.models import Round, RoundStatus, Table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks: this run is on SQLite"
    ),
]

REFEREE = Writer(ip_address="10.0.0.8")


def first_deal(table: Table, key: str) -> None:
    players = seat_keys(table)
    services.deal_record(
        table=table,
        entry=Play(Game.LIELAIS, players[1], tricks=5, points=75),
        position=1,
        client_key=key,
        writer=REFEREE,
    )


def with_round(table: Table) -> Table:
    return Table.objects.select_related("round__tournament").get(pk=table.pk)


def test_a_deal_is_written_while_another_table_of_the_round_is_being_written():
    round_ = make_published_round(players=6)  # two tables of three
    one, two = round_.tables.order_by("number")
    first_deal(one, "first")  # the round is in play now
    assert Round.objects.get(pk=round_.pk).status == RoundStatus.IN_PLAY
    holding, release = threading.Event(), threading.Event()

    def another_table_mid_write() -> None:
        try:
            with transaction.atomic():
                services._lock_table(with_round(one), entry_write=True)
                holding.set()
                release.wait(30)
        finally:
            connection.close()

    writer = threading.Thread(target=another_table_mid_write)
    writer.start()
    assert holding.wait(30)
    try:
        # Blocked behind the other table's lock, this would fail with a lock timeout.
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '2s'")
            first_deal(with_round(two), "second")
        # The round itself cannot be locked for a write of its own meanwhile.
        with pytest.raises(OperationalError), transaction.atomic():
            Round.objects.select_for_update(nowait=True).get(pk=round_.pk)
    finally:
        release.set()
        writer.join(30)
    assert DealResult.objects.filter(table=two).count() == 1
