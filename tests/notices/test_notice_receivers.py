"""A player whose phone is subscribed hears of each step of his event through the push
service: check-in opened, his seat with his tablemates, the clock, his table confirmed with
his points and place, the round closed, the final standings. Each notice is written in the
step's own transaction and sent once it commits."""

from decimal import Decimal

import pytest
from django.db import transaction

from notices.models import Delivery, DeliveryState, Notice, NoticeKind
from scoring.selectors import prize_list
from scoring.services import Writer, round_close, round_generate_seating
from tests.factories import (
    make_organiser,
    make_registrations,
    make_tournament,
    seat_keys,
    subscribe_phone,
)
from tests.tournament_play import confirm_with_totals
from tournaments import services
from tournaments.models import Seat
from tournaments.services import CategoryRow

pytestmark = pytest.mark.django_db(transaction=True)


def messages(push_service, browser):
    return [message["body"] for message in push_service.messages_for(browser["endpoint"])]


@pytest.fixture
def tournament():
    tournament = make_tournament(rounds_planned=2, round_time_limit=90)
    make_registrations(tournament, 7)
    return tournament


def test_a_subscribed_player_hears_of_his_round_step_by_step(push_service, tournament):
    organiser = make_organiser()
    anna = tournament.registrations.order_by("pk").first()
    phone = subscribe_phone(push_service, anna, language="lv")

    round_ = services.round_create(tournament=tournament, by=organiser)
    assert messages(push_service, phone) == [
        "1. kārtas atzīmēšanās ir atvērta: pieskarieties, lai atzīmētos."
    ]
    round_generate_seating(round_=round_, seed=1, by=organiser)
    services.round_publish(round_=round_, by=organiser)
    seat = Seat.objects.select_related("table").get(registration=anna, table__round=round_)
    others = (
        Seat.objects.filter(table=seat.table)
        .exclude(registration=anna)
        .order_by("position")
        .values_list("registration__player__full_name", flat=True)
    )
    assert messages(push_service, phone)[-1] == (
        f"1. kārta: {seat.table.number}. galds, {seat.position}. vieta. Ar {', '.join(others)}."
    )
    services.round_clock_start(round_=round_, by=organiser)
    assert messages(push_service, phone)[-1].startswith("1. kārta ir sākusies: 90 minūtes, līdz ")

    players = seat_keys(seat.table)
    others = [player for player in players if player != str(anna.pk)]
    totals = {str(anna.pk): 12, **dict(zip(others, [-4, -8, 0][: len(others)], strict=True))}
    from scoring import reactions
    from scoring.models import TableResult

    with transaction.atomic():  # as table_confirm writes and announces it
        result = confirm_with_totals(seat.table, totals)
        reactions.table_confirmed.send(TableResult, table_result=result)
    confirmed = messages(push_service, phone)[-1]
    assert confirmed.startswith(f"1. kārtas {seat.table.number}. galds ir apstiprināts: +12 punkti")
    for table in round_.tables.exclude(pk=seat.table_id):
        confirm_with_totals(table, dict.fromkeys(seat_keys(table), 0))
    round_close(round_=round_, writer=Writer(user=organiser))
    assert messages(push_service, phone)[-1].startswith("1. kārta ir noslēgta. Jūsu vieta: 1 no 7.")

    kinds = list(Notice.objects.order_by("pk").values_list("kind", flat=True))
    assert kinds == [
        NoticeKind.CHECK_IN_OPENED,
        NoticeKind.SEATING_PUBLISHED,
        NoticeKind.ROUND_STARTED,
        NoticeKind.TABLE_CONFIRMED,
        NoticeKind.ROUND_CLOSED,
    ]
    assert not Delivery.objects.exclude(state=DeliveryState.SENT).exists()
    # Each tap opens his own page.
    urls = {message["url"] for message in push_service.messages_for(phone["endpoint"])}
    assert urls == {f"/t/{tournament.slug}/me/{anna.check_in_token}/"}


def test_the_last_round_closed_gives_the_final_standings_and_the_prize(push_service):
    tournament = make_tournament(rounds_planned=1, prize_shares="100")
    make_registrations(tournament, 6)
    services.fee_categories_save(
        tournament=tournament, rows=[CategoryRow(None, "Standarta", Decimal(10))], by=None
    )
    services.fees_paid_set(tournament=tournament, paid=tournament.registrations.all(), by=None)
    anna = tournament.registrations.order_by("pk").first()
    phone = subscribe_phone(push_service, anna, language="en")
    round_ = services.round_create(tournament=tournament)
    round_generate_seating(round_=round_, seed=1, by=None)
    services.round_publish(round_=round_, by=None)
    for table in round_.tables.all():
        keys = seat_keys(table)
        confirm_with_totals(table, {key: (6 if key == str(anna.pk) else -3) for key in keys})
    round_close(round_=round_, writer=Writer(user=make_organiser()))
    prize = prize_list(tournament=tournament).rows[0]
    assert prize.registration_id == anna.pk
    assert messages(push_service, phone)[-1] == (
        f"Final standings: place 1 of 6. Your prize: {prize.amount_text}."
    )


def test_players_without_a_phone_subscribed_make_no_delivery(push_service, tournament):
    round_ = services.round_create(tournament=tournament)
    assert Notice.objects.get().round == round_
    assert not Delivery.objects.exists()
    assert push_service.received == []


def test_a_step_undone_tells_nobody(push_service, tournament):
    """Seating publication refused (no seating): no notice, no message."""
    subscribe_phone(push_service, tournament.registrations.first())
    round_ = services.round_create(tournament=tournament)
    with pytest.raises(services.ServiceError):
        services.round_publish(round_=round_, by=None)
    assert list(Notice.objects.values_list("kind", flat=True)) == [NoticeKind.CHECK_IN_OPENED]
