"""A notice becomes one message per subscribed phone of the players it concerns, each in the
phone's language, written once; a sign-up's notice becomes one mail when its contact is an
address."""

import datetime

import pytest
from django.utils import timezone, translation

from notices.models import Delivery, Notice, NoticeKind
from notices.services import notices_expand
from notices.services.expansion import mail_address, notice_deliveries
from signups.services import signup_create
from tests.factories import (
    make_published_round,
    make_registrations,
    make_tournament,
    subscribe_phone,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("contact", "address"),
    [
        ("anna@example.lv", "anna@example.lv"),
        ("  anna@example.lv ", "anna@example.lv"),
        ("+371 29 123 456", None),
        ("anna at example", None),
        ("", None),
    ],
)
def test_only_a_mail_address_is_mailed(contact, address):
    assert mail_address(contact) == address


def test_each_phone_reads_its_seat_in_its_own_language(push_service):
    tournament = make_tournament()
    make_registrations(tournament, 6)
    anna = tournament.registrations.order_by("pk").first()
    for language in ("lv", "ru", "en"):
        subscribe_phone(push_service, anna, language=language)
    round_ = make_published_round(tournament, players=6)
    seat = anna.seats.get(table__round=round_)
    notice = Notice(tournament=tournament, kind=NoticeKind.SEATING_PUBLISHED, round=round_)
    notice.created_at = timezone.now()
    bodies = sorted(
        delivery.message["body"].split(" ")[0] for delivery in notice_deliveries(notice)
    )
    assert bodies == ["1.", "Round", "Тур"]
    assert all(
        f"{seat.table.number}" in delivery.message["body"] for delivery in notice_deliveries(notice)
    )


def test_a_player_not_seated_hears_nothing_of_the_seating(push_service):
    tournament = make_tournament()
    make_registrations(tournament, 6)
    round_ = make_published_round(tournament, players=6)
    late = make_registrations(tournament, 1)[0]  # registered after the seating
    subscribe_phone(push_service, late)
    notice = Notice(tournament=tournament, kind=NoticeKind.SEATING_PUBLISHED, round=round_)
    notice.created_at = timezone.now()
    assert notice_deliveries(notice) == []


def test_a_notice_is_expanded_once(push_service):
    tournament = make_tournament()
    subscribe_phone(push_service, make_registrations(tournament, 1)[0])
    Notice.objects.create(tournament=tournament, kind=NoticeKind.ANNOUNCEMENT, text="Sākam")
    assert notices_expand() == 1
    assert notices_expand() == 0
    assert Delivery.objects.count() == 1


def test_a_sign_up_with_an_address_gets_one_mail_in_its_language():
    tournament = make_tournament(signup_until=timezone.now() + datetime.timedelta(days=2))
    with translation.override("ru"):  # she signed up on the Russian page
        signup = signup_create(
            tournament=tournament, full_name="Anna Ozoliņa", contact="anna@example.lv"
        )
    notice = Notice.objects.get(signup=signup)
    (mail,) = notice_deliveries(notice)
    assert mail.address == "anna@example.lv"
    assert mail.message["subject"] == f"{tournament.name}: вы в списке игроков"
    assert "номер 1" in mail.message["body"]


def test_a_sign_up_with_a_phone_number_gets_no_mail():
    tournament = make_tournament(signup_until=timezone.now() + datetime.timedelta(days=2))
    signup = signup_create(tournament=tournament, full_name="Anna Ozoliņa", contact="29123456")
    assert notice_deliveries(Notice.objects.get(signup=signup)) == []
