"""A published round seated again while its referees enter deals.

Every write that touches a round and one of its tables locks the round's row first, then the
table's: seating again (which deletes the tables) and a first deal (which puts the round in
play) wait for each other in one order, never in a circle. Whichever comes second gets a clear
answer: the deal is refused because the round was re-seated (its table is gone), or the seating
is refused because a deal is on a sheet. A referee holding a link of a deleted table is told to
use the new link, never a 500."""

from __future__ import annotations

import itertools
import os
import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from core.ratelimit import TABLE_LINK_FAILURES
from engine import Play
from engine.rules import Game
from entry import views as entry_views
from scoring import services
from scoring.models import DealResult
from scoring.services import Writer, round_generate_seating
from tests.factories import make_organiser, make_published_round, seat_keys
from tournaments import services as tournament_services
from tournaments.models import Round, Table, TableToken
from tournaments.services import ServiceError, TableGoneError

keys = (f"reseat-{number}" for number in itertools.count())
REFEREE = Writer(ip_address="10.0.0.7")
RESEATED = "This round was re-seated: use the new link of your table."


def first_deal(table: Table):
    """A won lielais by the first player who does not deal the first deal."""
    players = seat_keys(table)
    dealer = players[table.first_dealer_position - 1]
    declarer = next(player for player in players if player != dealer)
    return Play(Game.LIELAIS, declarer, tricks=5, points=75)


def reseat(round_: Round, by=None) -> Round:
    return round_generate_seating(
        round_=round_,
        seed=(round_.seed or 0) + 1,
        by=by,
        confirmation=tournament_services.regenerate_confirmation(round_),
    )


def deal_data(table: Table, client_key: str) -> dict[str, object]:
    deal = first_deal(table)
    return {
        "action": "deal",
        "deal-position": 1,
        "deal-client_key": client_key,
        "deal-game": "lielais",
        "deal-declarer": deal.declarer,
        "deal-points": 75,
        "deal-tricks": 5,
    }


@pytest.mark.django_db
class TestAReseatedRound:
    def test_a_deal_for_a_table_that_went_is_refused_with_the_reason(self):
        round_ = make_published_round(players=6)
        table = round_.tables.get(number=1)
        deal = first_deal(table)
        reseat(round_)

        with pytest.raises(TableGoneError, match="re-seated"):
            services.deal_record(
                table=table,
                entry=deal,
                position=1,
                client_key=next(keys),
                writer=REFEREE,
            )
        assert not DealResult.objects.exists()

    def test_the_links_of_the_old_tables_stay_behind_revoked_and_new_ones_are_issued(self):
        round_ = make_published_round(players=6)
        old = set(TableToken.objects.filter(round=round_).values_list("token", flat=True))
        reseat(round_)

        gone = TableToken.objects.filter(token__in=old)
        assert gone.count() == 2
        assert all(token.table_id is None and token.revoked_at for token in gone)
        assert TableToken.objects.filter(table__round=round_, revoked_at=None).count() == 2

    def test_the_old_link_says_the_round_was_reseated_and_is_no_failed_guess(self, client):
        round_ = make_published_round(players=6)
        table = round_.tables.get(number=1)
        url = reverse("entry:token_sheet", args=[TableToken.objects.get(table=table).token])
        data = deal_data(table, "late")
        reseat(round_)

        shown = client.get(url)
        posted = client.post(url, data)

        for response in (shown, posted):
            assert response.status_code == 410
            page = response.content.decode()
            assert RESEATED in page
            assert reverse("public:tournament", args=[round_.tournament.slug]) in page
        assert not DealResult.objects.exists()
        request = client.get(url).wsgi_request
        assert TABLE_LINK_FAILURES.refusal(request) is None

    def test_the_old_link_reads_in_latvian(self, client):
        round_ = make_published_round(players=6)
        table = round_.tables.get(number=1)
        url = reverse("entry:token_sheet", args=[TableToken.objects.get(table=table).token])
        reseat(round_)

        page = client.get(url, HTTP_ACCEPT_LANGUAGE="lv").content.decode()

        assert "izsēdināta no jauna" in page

    def test_a_request_that_read_the_table_before_the_reseating_is_told_too(
        self, client, monkeypatch
    ):
        """SQLite takes no row locks: the request reads the sheet, the organiser seats the round
        again, then the request's write finds no table: a refusal, not a Table.DoesNotExist 500."""
        round_ = make_published_round(players=6)
        table = round_.tables.get(number=1)
        url = reverse("entry:token_sheet", args=[TableToken.objects.get(table=table).token])
        read_table = entry_views.sheet_frame

        def read_then_reseated(table, confirmation):
            frame = read_table(table, confirmation)
            reseat(Round.objects.get(pk=round_.pk))
            return frame

        monkeypatch.setattr(entry_views, "sheet_frame", read_then_reseated)
        response = Client(raise_request_exception=False).post(url, deal_data(table, "race"))

        assert response.status_code == 410
        assert RESEATED in response.content.decode()
        assert not DealResult.objects.exists()


ON_POSTGRESQL = os.environ.get("DATABASE_URL", "").startswith("postgres")
TRIES = 6
REFEREES = 5  # 15 players: five tables of 3


def _referee_enters(table: Table, start: threading.Barrier, outcomes, unexpected) -> None:
    try:
        start.wait()
        services.deal_record(
            table=table,
            entry=first_deal(table),
            position=1,
            client_key=next(keys),
            writer=REFEREE,
        )
        outcomes.append("deal")
    except TableGoneError:
        outcomes.append("gone")
    except Exception as error:  # every other outcome is the failure
        unexpected.append(f"referee: {type(error).__name__}: {error}")
    finally:
        connection.close()


def _organiser_reseats(round_id: int, by, start: threading.Barrier, outcomes, unexpected) -> None:
    try:
        start.wait()
        reseat(Round.objects.get(pk=round_id), by=by)
        outcomes.append("reseated")
    except ServiceError:  # a deal came first: the round is in play, its seating final
        outcomes.append("refused")
    except Exception as error:
        unexpected.append(f"organiser: {type(error).__name__}: {error}")
    finally:
        connection.close()


@pytest.mark.skipif(
    not ON_POSTGRESQL, reason="row locks and deadlocks need PostgreSQL (DATABASE_URL)"
)
@pytest.mark.django_db(transaction=True)
def test_seating_again_while_every_table_enters_its_first_deal_never_deadlocks():
    """Real concurrency: five referees post the first deal of their tables while the organiser
    seats the round again, several times over. Each write either happens or is refused with
    its reason (re-seated, or the seating is final); none waits for the other in a circle
    (PostgreSQL's DeadlockDetected would be a 500 for the organiser and the referees)."""
    organiser = make_organiser()
    unexpected: list[str] = []
    outcomes: list[str] = []
    for attempt in range(TRIES):
        round_ = make_published_round(players=3 * REFEREES, seed=attempt + 1)
        tables = list(round_.tables.order_by("number"))
        start = threading.Barrier(REFEREES + 1)
        this_try: list[str] = []
        threads = [
            threading.Thread(target=_referee_enters, args=(table, start, this_try, unexpected))
            for table in tables
        ]
        threads.append(
            threading.Thread(
                target=_organiser_reseats,
                args=(round_.pk, organiser, start, this_try, unexpected),
            )
        )
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert not any(thread.is_alive() for thread in threads)
        # What is stored agrees with what was answered: a re-seated round has no deal, and a
        # deal was refused only because the round was re-seated.
        stored = DealResult.objects.filter(table__round=round_)
        assert stored.count() == this_try.count("deal")
        if "reseated" in this_try:
            assert not stored.exists()
        if "gone" in this_try:
            assert "reseated" in this_try
        outcomes.extend(this_try)

    assert not unexpected, unexpected
    assert "deal" in outcomes
