"""The player's own page's reads: his table in the round being played and who sits with him,
his results round by round as stored with his tables' scores, his line of the standings, his
fee and his prize; all in a fixed number of queries."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import SeatResult
from scoring.selectors import prize_list, tournament_standings
from scoring.selectors.own_page import own_page
from tests.factories import make_registrations, make_tournament, seat_keys
from tests.tournament_play import confirm_with_totals, publish_next_round
from tournaments import services
from tournaments.models import Registration, Round, RoundStatus
from tournaments.services import CategoryRow

pytestmark = pytest.mark.django_db


def play_rounds(tournament, count: int) -> None:
    """`count` rounds seated, every table confirmed (the first seat best), and closed."""
    for _number in range(count):
        round_ = publish_next_round(tournament, seed=tournament.rounds.count() + 1)
        for table in round_.tables.all():
            keys = seat_keys(table)
            confirm_with_totals(table, dict(zip(keys, [12, 4, -4, -12][: len(keys)], strict=True)))
        Round.objects.filter(pk=round_.pk).update(status=RoundStatus.CLOSED)


@pytest.fixture
def tournament():
    tournament = make_tournament(rounds_planned=3, prize_shares="60 40")
    make_registrations(tournament, 8)
    return tournament


def test_the_round_being_played_shows_his_table_and_who_sits_with_him(tournament):
    play_rounds(tournament, 1)
    round_ = publish_next_round(tournament, seed=9)
    entry = tournament.registrations.first()
    seat = round_.tables.get(seats__registration=entry).seats.get(registration=entry)
    others = seat.table.seats.exclude(registration=entry).order_by("position")

    page = own_page(registration=entry)

    assert page.current is not None and page.current_round == round_
    assert (page.current.round_number, page.current.table_number) == (2, seat.table.number)
    assert page.current.own.position == seat.position
    assert [(mate.position, mate.name) for mate in page.current.tablemates] == [
        (other.position, other.registration.player.full_name) for other in others
    ]
    assert [played.round_number for played in page.played] == [1]  # round 2 is not confirmed


def test_his_results_and_his_tables_scores_are_the_stored_ones(tournament):
    play_rounds(tournament, 2)
    entry = tournament.registrations.last()

    page = own_page(registration=entry)

    assert page.current is None  # both rounds closed
    assert [played.round_number for played in page.played] == [2, 1]
    for played in page.played:
        stored = SeatResult.objects.filter(
            table_result__table__round__number=played.round_number,
            table_result__table__number=played.table_number,
            table_result__table__round__tournament=tournament,
        )
        assert {
            (seat.name, seat.game_points, seat.place_points, seat.place) for seat in played.seats
        } == {
            (
                result.registration.player.full_name,
                result.game_points,
                result.place_points,
                str(result.place),
            )
            for result in stored
        }
        assert played.own.name == entry.player.full_name


def test_his_place_is_his_line_of_the_standings(tournament):
    play_rounds(tournament, 2)
    entry = tournament.registrations.all()[3]
    standings = tournament_standings(tournament=tournament)

    page = own_page(registration=entry)

    assert page.standing == next(row for row in standings.rows if row.registration_id == entry.pk)
    assert not page.standings_final  # two of three rounds


def test_his_fee_is_his_category_or_the_first_and_says_whether_it_is_paid(tournament):
    first, second = tournament.registrations.all()[:2]
    services.fee_categories_save(
        tournament=tournament,
        rows=[CategoryRow(None, "Standarta", Decimal(15)), CategoryRow(None, "Dāmām", Decimal(10))],
        by=None,
    )
    Registration.objects.filter(pk=second.pk).update(
        fee_category=tournament.fee_categories.get(name="Dāmām")
    )
    services.fees_paid_set(tournament=tournament, paid=[second], by=None)
    second.refresh_from_db()

    assert own_page(registration=first).fee is not None
    mine = own_page(registration=first).fee
    hers = own_page(registration=second).fee
    assert (mine.category, mine.amount_cents, mine.paid) == ("Standarta", 1500, False)
    assert (hers.category, hers.amount_cents, hers.paid) == ("Dāmām", 1000, True)


def test_no_fee_when_the_tournament_has_none(tournament):
    assert own_page(registration=tournament.registrations.first()).fee is None


def test_his_prize_is_the_prize_lists_once_the_standings_are_final(tournament):
    services.fee_categories_save(
        tournament=tournament, rows=[CategoryRow(None, "Standarta", Decimal(15))], by=None
    )
    services.fees_paid_set(tournament=tournament, paid=tournament.registrations.all(), by=None)
    play_rounds(tournament, 2)
    leader = tournament_standings(tournament=tournament).rows[0].registration_id
    assert own_page(registration=Registration.objects.get(pk=leader)).prize is None  # not final

    play_rounds(tournament, 1)
    prizes = prize_list(tournament=tournament)
    prized = {row.registration_id: row for row in prizes.rows}
    last = tournament_standings(tournament=tournament).rows[-1].registration_id

    for registration_id, row in prized.items():
        page = own_page(registration=Registration.objects.get(pk=registration_id))
        assert page.standings_final and page.prize == row
    assert own_page(registration=Registration.objects.get(pk=last)).prize is None


def test_the_reads_do_not_grow_with_the_rounds_played(django_assert_max_num_queries):
    tournament = make_tournament(rounds_planned=6, prize_shares="60 40")
    make_registrations(tournament, 8)
    entry = tournament.registrations.first()
    play_rounds(tournament, 1)
    with CaptureQueriesContext(connection) as after_one:
        own_page(registration=entry)
    play_rounds(tournament, 4)

    with django_assert_max_num_queries(len(after_one)):
        page = own_page(registration=entry)

    assert len(page.played) == 5
