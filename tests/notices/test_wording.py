"""The messages say the stored figures in the reader's language, and each opens the player's
own page; the mails say where the player stands and, once accepted, give his page."""

import datetime
from fractions import Fraction

import pytest
from django.utils import timezone

from notices.models import Notice, NoticeKind
from notices.selectors import Placing, SeatFacts, TableLine
from notices.wording import push_message, signup_mail
from signups.models import SignUp, SignUpStatus
from tests.factories import make_published_round, make_registrations, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_():
    return make_published_round(make_tournament(name="Rīgas kauss"), players=7)


def message(round_, kind, language="lv", **facts):
    notice = Notice(tournament=round_.tournament, kind=kind, round=round_)
    notice.table = round_.tables.get(number=2) if kind == NoticeKind.TABLE_CONFIRMED else None
    return push_message(notice, language=language, token="secret", **facts)


def test_the_seating_says_table_seat_and_tablemates_as_players_say_it(round_):
    seat = SeatFacts(table_number=7, position=2, others=("Jānis Bērziņš", "Līga Liepa"))
    said = message(round_, NoticeKind.SEATING_PUBLISHED, seat=seat)
    assert said == {
        "title": "Rīgas kauss",
        "body": "1. kārta: 7. galds, 2. vieta. Ar Jānis Bērziņš, Līga Liepa.",
        "url": f"/t/{round_.tournament.slug}/me/secret/",
        "tag": f"{round_.tournament.slug}:seating_published",
    }
    assert message(round_, NoticeKind.SEATING_PUBLISHED, "en", seat=seat)["body"] == (
        "Round 1: table 7, seat 2. With Jānis Bērziņš, Līga Liepa."
    )
    assert message(round_, NoticeKind.SEATING_PUBLISHED, seat=None) is None


def test_a_confirmed_table_says_points_place_and_place_so_far(round_):
    line = TableLine(game_points=-14, place=3, place_points=Fraction(5, 2))
    said = message(round_, NoticeKind.TABLE_CONFIRMED, "en", line=line, placing=Placing("4–5", 7))[
        "body"
    ]
    assert said == (
        "Round 1, table 2 is confirmed: −14 points, place 3 at the table, 2½ place points. "
        "Your place: 4–5 of 7."
    )


def test_the_round_clock_says_its_minutes_and_end(round_):
    start = timezone.now().replace(hour=10, minute=0, second=0, microsecond=0)
    round_.clock_started_at, round_.time_limit = start, 90
    said = message(round_, NoticeKind.ROUND_STARTED, "en")["body"]
    end = timezone.localtime(start + datetime.timedelta(minutes=90)).strftime("%H:%M")
    assert said.startswith("Round 1 has started: 90 minutes, until ")
    assert said.endswith(f"until {end}.")


def test_the_final_standings_say_the_place_and_the_prize(round_):
    said = message(
        round_, NoticeKind.FINAL_STANDINGS, "ru", placing=Placing("2", 40), prize="120,00 €"
    )["body"]
    assert said == "Итог: 2-е место из 40. Ваш приз: 120,00 €."


def test_an_acceptance_mail_gives_the_players_own_page(settings):
    settings.SITE_URL = "https://zole.example.lv"
    tournament = make_tournament(name="Rīgas kauss")
    registration = make_registrations(tournament, 1)[0]
    signup = SignUp(
        tournament=tournament,
        full_name="Anna Ozoliņa",
        status=SignUpStatus.ACCEPTED,
        registration=registration,
        language="lv",
        queued_at=timezone.now(),
    )
    notice = Notice(tournament=tournament, kind=NoticeKind.SIGNUP_ACCEPTED, signup=signup)
    mail = signup_mail(notice, signup=signup, number=None)
    assert mail["subject"] == "Rīgas kauss: jūsu reģistrācija ir apstiprināta"
    assert mail["body"].startswith("Sveiki, Anna Ozoliņa!")
    link = f"https://zole.example.lv/t/{tournament.slug}/me/{registration.check_in_token}/"
    assert link in mail["body"]


def test_a_waiting_list_mail_says_the_number():
    tournament = make_tournament(name="Rīgas kauss")
    signup = SignUp(tournament=tournament, full_name="Anna Ozoliņa", language="en")
    notice = Notice(tournament=tournament, kind=NoticeKind.SIGNUP_WAITING, signup=signup)
    mail = signup_mail(notice, signup=signup, number=3)
    assert mail["subject"] == "Rīgas kauss: you are on the waiting list"
    assert "number 3 on the waiting list" in mail["body"]
