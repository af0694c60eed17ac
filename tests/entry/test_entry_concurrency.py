"""Deals of different tables are written side by side: a deal locks its table's row and, while the
round is in play, the round's row only FOR SHARE, so 200 tables do not queue behind one lock; a
write of the round itself (closing, the clock) still excludes them. Row locks are PostgreSQL's: on
SQLite (one writer at a time) there is nothing to show."""

import json
import threading
import time

import pytest
from django.db import OperationalError, connection, transaction
from django.test import Client
from django.urls import reverse

from engine import Play
from engine.rules import Game
from scoring import services
from scoring.models import DealResult
from scoring.services import Writer
from scoring.sheet import plain_sql
from scoring.sheet.reader import locked_sheet
from tests.factories import make_published_round, seat_keys
from tournaments.models import Registration, Round, RoundStatus, Seat, Table, TableToken

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


# --- A player put out of the round while another phone sends the table's entries ----------------


def table_of_four_waiting_for_x() -> tuple[Table, str, list[str]]:
    """A table of 4 whose hall has reached the tournament's deal (1): X may be put out of the
    round. Returns the table, X (who would declare its first deal) and the other three."""
    from tests.tournament_play import hall_plays, with_rules

    round_ = make_published_round(players=7)  # a table of 4 and one of 3
    table = with_rules(
        next(t for t in round_.tables.all() if t.seats.count() == 4),
        late_wait_minutes=5,
        late_out_deal=1,
    )
    hall_plays(table, 1)
    players = seat_keys(table)
    dealer = players[table.first_dealer_position - 1]
    x = next(player for player in players if player != dealer)
    return with_round(table), x, [player for player in players if player != x]


def batch_with_a_deal_of(x: str, others: list[str], *, penalties: int = 2) -> list[dict]:
    """`penalties` penalty pules, then deal 1 declared by X: what a phone kept offline sends at
    once."""
    batch = [
        {
            "key": f"p-{position}",
            "action": "penalty",
            "fields": {
                "penalty-position": str(position),
                "penalty-client_key": f"p-{position}",
                "penalty-player": others[position - 1],
            },
            "scores": None,
        }
        for position in range(1, penalties + 1)
    ]
    deal = {"game": "lielais", "declarer": x, "points": "75", "tricks": "5"}
    fields = {"deal-position": str(penalties + 1), "deal-client_key": "x-deal"}
    fields |= {f"deal-{name}": value for name, value in deal.items()}
    return [*batch, {"key": "x-deal", "action": "deal", "fields": fields, "scores": None}]


def post_in_thread(url: str, answers: list, **post: object) -> threading.Thread:
    def run() -> None:
        try:
            answers.append(Client().post(url, **post))
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def sync_post(entries: list[dict]) -> dict[str, object]:
    body = {"entries": entries, "waiting": len(entries), "refused": 0}
    return {"data": json.dumps(body), "content_type": "application/json"}


def out_post(x: str) -> dict[str, object]:
    return {"data": {"action": "out", "out-player": x}}


def waiting_for_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND datname = current_database()"
        )
        return cursor.fetchone()[0] > 0


def test_a_deal_of_a_player_put_out_after_the_sync_read_the_seats_is_refused(monkeypatch):
    """Phone 1's sync reads the seats; phone 2 puts X out of the round and commits; phone 1's
    deal of X, checked by its form against the seats it read, is checked again by the write
    against the seats read under the table's lock, and refused in words."""
    import entry.sync

    table, x, others = table_of_four_waiting_for_x()
    link = TableToken.objects.get(table=table, revoked_at__isnull=True).token
    seats_read, out_done = threading.Event(), threading.Event()
    read_seats = entry.sync.sheet_frame

    def read_then_wait(*args, **kwargs):
        frame = read_seats(*args, **kwargs)
        seats_read.set()
        out_done.wait(30)
        return frame

    monkeypatch.setattr(entry.sync, "sheet_frame", read_then_wait)
    synced: list = []
    phone_1 = post_in_thread(
        reverse("entry:token_sync", args=[link]),
        synced,
        **sync_post(batch_with_a_deal_of(x, others, penalties=0)),
    )
    assert seats_read.wait(30)
    out = Client().post(reverse("entry:token_sheet", args=[link]), **out_post(x))
    assert out.status_code == 302  # done: the referee is sent back to the sheet
    out_done.set()
    phone_1.join(30)
    results = synced[0].json()["results"]
    assert [result["status"] for result in results] == ["refused"]
    name = Registration.objects.get(pk=int(x)).player.full_name
    assert results[0]["message"] == f"deal 1: declarer {name} is not at this table"
    assert not DealResult.objects.filter(table=table).exists()
    assert not Seat.objects.filter(table=table, registration_id=int(x)).exists()


def test_a_player_is_not_put_out_while_his_deal_is_being_written(monkeypatch):
    """Phone 1 holds the table's lock, writing X's deal; phone 2's "out X" waits for the lock and
    then finds a table that has played a deal: X keeps his seat."""
    table, x, others = table_of_four_waiting_for_x()
    link = TableToken.objects.get(table=table, revoked_at__isnull=True).token
    writing, release = threading.Event(), threading.Event()
    insert = plain_sql.insert

    def insert_then_hold(model, values):
        row = insert(model, values)
        if values["kind"] == "play":
            writing.set()
            release.wait(30)
        return row

    monkeypatch.setattr(plain_sql, "insert", insert_then_hold)
    synced: list = []
    phone_1 = post_in_thread(
        reverse("entry:token_sync", args=[link]),
        synced,
        **sync_post(batch_with_a_deal_of(x, others)),
    )
    assert writing.wait(30)
    answered: list = []
    phone_2 = post_in_thread(reverse("entry:token_sheet", args=[link]), answered, **out_post(x))
    for _attempt in range(300):
        if waiting_for_a_lock():
            break
        time.sleep(0.05)
    else:
        pytest.fail("phone 2 never waited for the table's lock")
    release.set()
    phone_1.join(30)
    phone_2.join(30)
    assert [r["status"] for r in synced[0].json()["results"]] == ["stored"] * 3
    assert answered[0].status_code == 200  # the form again, with the refusal
    assert "has played 1 deals" in answered[0].content.decode()
    assert Seat.objects.filter(table=table, registration_id=int(x)).exists()
