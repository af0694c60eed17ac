"""Who hears of a notice, the facts its messages say, and what the organiser sees of them."""

import pytest
from django.utils import timezone

from notices.models import Delivery, DeliveryState, Notice, NoticeKind
from notices.selectors import notice_reach, notice_recipients, round_seats
from tests.factories import (
    make_published_round,
    make_registrations,
    make_tournament,
    subscribe_phone,
)

pytestmark = pytest.mark.django_db


def test_a_table_notice_reaches_only_that_tables_players(push_service):
    tournament = make_tournament()
    make_registrations(tournament, 7)
    round_ = make_published_round(tournament)
    for registration in tournament.registrations.all():
        subscribe_phone(push_service, registration)
    table = round_.tables.get(number=1)
    notice = Notice(
        tournament=tournament, kind=NoticeKind.TABLE_CONFIRMED, round=round_, table=table
    )
    assert {recipient.registration_id for recipient in notice_recipients(notice)} == set(
        table.seats.values_list("registration_id", flat=True)
    )
    everyone = Notice(tournament=tournament, kind=NoticeKind.ANNOUNCEMENT)
    assert len(notice_recipients(everyone)) == 7


def test_a_seat_names_the_others_at_the_table_in_seat_order():
    tournament = make_tournament()
    make_registrations(tournament, 7)
    round_ = make_published_round(tournament)
    seats = round_seats(round_id=round_.pk)
    table = round_.tables.get(number=1)
    first, *others = table.seats.order_by("position").select_related("registration__player")
    facts = seats[first.registration_id]
    assert (facts.table_number, facts.position) == (1, first.position)
    assert facts.others == tuple(seat.registration.player.full_name for seat in others)
    assert len(seats) == 7


def test_the_organiser_sees_how_many_players_receive_messages(push_service):
    tournament = make_tournament()
    anna, juris, _liga = make_registrations(tournament, 3)
    subscribe_phone(push_service, anna)
    subscribe_phone(push_service, anna)  # her tablet too
    phone = subscribe_phone(push_service, juris)
    notice = Notice.objects.create(
        tournament=tournament, kind=NoticeKind.ANNOUNCEMENT, expanded_at=timezone.now()
    )
    for state in (DeliveryState.SENT, DeliveryState.SENT, DeliveryState.FAILED):
        Delivery.objects.create(notice=notice, message={}, state=state, expires_at=timezone.now())
    reach = notice_reach(tournament=tournament)
    assert (reach.players, reach.phones, reach.registrations) == (2, 3, 3)
    assert (reach.sent, reach.waiting, reach.failed) == (2, 0, 1)
    assert phone["endpoint"]
