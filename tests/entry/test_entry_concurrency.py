"""Deals of different tables are written side by side: a deal locks its table's row and, while the
round is in play, the round's row only FOR SHARE, so 200 tables do not queue behind one lock; a
write of the round itself (closing, the clock) still excludes them. Row locks are PostgreSQL's: on
SQLite (one writer at a time) there is nothing to show."""

import threading

import pytest
from django.db import OperationalError, connection, transaction

from engine import Play
from engine.rules import Game
from scoring import services
from scoring.models import DealResult
from scoring.services import Writer
from scoring.sheet.reader import locked_sheet
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
                locked_sheet(with_round(one), entry_write=True)
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


def lielais(table: Table, position: int, key: str) -> None:
    players = seat_keys(table)
    services.deal_record(
        table=table,
        entry=Play(Game.LIELAIS, players[1 + position % 2], tricks=5, points=75),
        position=position,
        client_key=key,
        writer=REFEREE,
    )


def timed_table_with_three_deals() -> Table:
    from tests.factories import make_organiser, make_tournament
    from tournaments import services as tournament_services

    tournament = make_tournament(deals_per_round=9, round_time_limit=50)
    round_ = make_published_round(tournament, players=6)
    table = round_.tables.get(number=1)
    for position in (1, 2, 3):
        lielais(table, position, f"deal-{position}")
    tournament_services.round_clock_start(round_=round_, by=make_organiser(username="kungs"))
    return table


def call_time(table: Table) -> None:
    from django.contrib.auth.models import User

    from tournaments import services as tournament_services

    round_ = Round.objects.get(pk=table.round_id)
    tournament_services.round_time_call(round_=round_, by=User.objects.get(username="kungs"))


def test_a_deal_written_while_time_is_called_is_the_deal_under_way():
    """The deal holds the round's row (shared) when time is called: the call waits, and the
    deal counts as one the table had when time was up, so the next is the deal under way."""
    table = timed_table_with_three_deals()
    holding, release = threading.Event(), threading.Event()

    def deal_mid_write() -> None:
        try:
            with transaction.atomic():
                lielais(with_round(table), 4, "deal-4")
                holding.set()
                release.wait(30)
        finally:
            connection.close()

    def time_call() -> None:
        try:
            call_time(table)
        finally:
            connection.close()

    writer = threading.Thread(target=deal_mid_write)
    writer.start()
    assert holding.wait(30)
    caller = threading.Thread(target=time_call)
    caller.start()
    release.set()
    writer.join(30)
    caller.join(30)
    assert Round.objects.get(pk=table.round_id).time_called_at is not None
    lielais(with_round(table), 5, "deal-5")  # under way at the signal
    with pytest.raises(services.ServiceError, match="only the deal that was under way"):
        lielais(with_round(table), 6, "deal-6")
    assert DealResult.objects.filter(table=table).count() == 5


def test_a_deal_read_before_time_was_called_sees_the_call_once_it_has_its_locks():
    """Time is called while a deal waits for the round's row: the deal reads the clock again
    under its locks, so a table at its last deal is refused one more."""
    table = timed_table_with_three_deals()
    stale = with_round(table)  # the page read the round before time was called
    holding, release = threading.Event(), threading.Event()

    def time_call_mid_write() -> None:
        try:
            with transaction.atomic():
                call_time(table)
                holding.set()
                release.wait(30)
        finally:
            connection.close()

    caller = threading.Thread(target=time_call_mid_write)
    caller.start()
    assert holding.wait(30)
    outcome: list[object] = []

    def deal() -> None:
        try:
            lielais(stale, 4, "deal-4")
            lielais(stale, 5, "deal-5")
            outcome.append("stored")
        except services.ServiceError as error:
            outcome.append(str(error))
        finally:
            connection.close()

    writer = threading.Thread(target=deal)
    writer.start()
    release.set()
    caller.join(30)
    writer.join(30)
    assert len(outcome) == 1 and "only the deal that was under way" in str(outcome[0])
    assert DealResult.objects.filter(table=table).count() == 4
