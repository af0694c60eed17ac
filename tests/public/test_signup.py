"""The public registration page: the form while registration is open, the player's place
after it, both lists (names and clubs, never the contact), the honeypot and the rate limit."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings

from signups.models import SignUp
from signups.services import signup_create
from tests.factories import make_player, make_registrations, make_tournament
from tests.hostile import (
    HOSTILE_NAMES,
    LONG_TEXT,
    NUL_TEXT,
    assert_refused,
    database_state,
    hidden_variants,
)
from tests.hostile import hostile_client as client_for
from tournaments import services
from tournaments.models import Club, Player, Round, RoundStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return make_tournament(
        slug="kauss", signup_until=timezone.now() + datetime.timedelta(days=2), signup_places=1
    )


def url(tournament) -> str:
    return reverse("public:signup", args=[tournament.slug])


def form(**changes: str) -> dict[str, str]:
    data = {"full_name": "Anna Ozoliņa", "club": "Ogre", "licence_number": "", "contact": ""}
    data.update(changes)
    return data


def test_the_tournament_page_links_the_form_while_it_is_open(tournament, client):
    page = client.get(reverse("public:tournament", args=[tournament.slug]))
    assert url(tournament) in page.content.decode()
    closed = make_tournament(slug="slegts")
    page = client.get(reverse("public:tournament", args=[closed.slug]))
    assert url(closed) not in page.content.decode()


def test_he_sees_his_place_on_the_list_then_on_the_waiting_list(tournament, client):
    page = client.post(url(tournament), form(contact="+371 2000 0000"), follow=True)
    content = page.content.decode()
    assert "number 1 on the list of players" in content
    page = client.post(url(tournament), form(full_name="Jānis Bērziņš"), follow=True)
    content = page.content.decode()
    assert "number 1 on the waiting list" in content
    assert "Anna Ozoliņa" in content and "Jānis Bērziņš" in content
    assert "2000" not in content  # the contact stays private


def test_a_second_registration_is_refused_saying_where_he_is(tournament, client):
    client.post(url(tournament), form())
    before = database_state()
    page = client.post(url(tournament), form(full_name="anna ozolina", club="OGRE"))
    assert_refused(page, before, "the same player twice")
    assert "number 1 on the list of players" in page.content.decode()


def test_a_licence_of_another_player_is_refused_without_naming_him(tournament, client):
    """The register's players are not public (a player without a public result has no page):
    the form tells a visitor the licence is taken, never by whom."""
    make_player(full_name="Kārlis Slepenais", licence_number="LV-777")
    before = database_state()

    page = client.post(url(tournament), form(licence_number="LV-777"))

    assert_refused(page, before, "a licence of another player")
    content = page.content.decode()
    assert "LV-777" in content and "Slepenais" not in content and "Kārlis" not in content


def test_a_closed_registration_shows_no_form_and_takes_nothing(client):
    closed = make_tournament(signup_until=timezone.now() - datetime.timedelta(hours=1))
    assert 'name="full_name"' not in client.get(url(closed)).content.decode()
    before = database_state()
    assert_refused(client.post(url(closed), form()), before, "closed")


@pytest.mark.parametrize("where", ["public:tournament", "public:signup"])
def test_the_player_sees_what_he_pays_before_he_signs_up(tournament, client, where):
    services.fee_categories_save(
        tournament=tournament,
        rows=[
            services.CategoryRow(None, "Standarta", Decimal("15")),
            services.CategoryRow(None, "Dāmām", Decimal("10.50")),
        ],
        by=None,
    )
    client.cookies["django_language"] = "lv"
    content = client.get(reverse(where, args=[tournament.slug])).content.decode()
    assert "Dalības maksa" in content
    assert "Standarta 15,00\u00a0€" in content and "Dāmām 10,50\u00a0€" in content


def test_a_finished_tournament_takes_no_one(client):
    finished = make_tournament(
        rounds_planned=2,
        signup_until=timezone.now() + datetime.timedelta(days=2),
        signup_late_until_round=2,
    )
    for number in (1, 2):
        Round.objects.create(tournament=finished, number=number, status=RoundStatus.CLOSED)
    assert 'name="full_name"' not in client.get(url(finished)).content.decode()
    page = client.get(reverse("public:tournament", args=[finished.slug]))
    assert url(finished) not in page.content.decode()
    before = database_state()
    assert_refused(client.post(url(finished), form()), before, "finished")


def test_a_late_signup_is_told_the_round_he_plays_from(client):
    started = make_tournament(
        signup_until=timezone.now() + datetime.timedelta(days=2), signup_late_until_round=3
    )
    Round.objects.create(tournament=started, number=1, status=RoundStatus.IN_PLAY)
    content = client.get(url(started)).content.decode()
    assert 'name="full_name"' in content
    assert "The tournament has started: a player accepted now plays from round 2." in content


def test_the_honeypot_is_hidden_by_a_class_and_refuses_a_bot(tournament, client):
    content = client.get(url(tournament)).content.decode()
    assert 'class="signup-trap"' in content and "style=" not in content
    before = database_state()
    assert_refused(client.post(url(tournament), form(website="http://spam")), before, "honeypot")


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("full_name", ""),
        ("full_name", "   "),
        ("full_name", "12345"),
        ("full_name", NUL_TEXT),
        ("full_name", LONG_TEXT),
        ("full_name", "Anna\x07Ozoliņa"),
        ("club", "x" * 121),
        ("club", NUL_TEXT),
        ("licence_number", "L" * 21),
        ("licence_number", "<script>"),
        ("contact", "not a contact"),
        ("contact", "anna@"),
        ("contact", "12"),
        ("contact", "١٢٣٤٥٦٧٨"),  # Arabic-Indic digits: no phone number people dial here
        ("contact", LONG_TEXT),
    ],
)
def test_bad_input_is_refused_field_by_field(tournament, field, value):
    """An error on the field (a NUL byte: the site's own refusal, which names the field)."""
    before = database_state()
    page = client_for().post(url(tournament), form(**{field: value}))
    assert_refused(page, before, f"{field}={value[:20]!r}")


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_odd_names_are_stored_as_typed_and_shown_escaped(tournament, name):
    client = client_for()
    page = client.post(url(tournament), form(full_name=name), follow=True)
    assert page.status_code == 200
    if SignUp.objects.exists():  # a name of marks alone has no letter and is refused
        assert "<script>alert" not in page.content.decode()


def test_floods_from_one_address_are_stopped(tournament, client, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "signup": {"failures": 3, "seconds": 3600}}
    for number in range(3):
        assert client.post(url(tournament), form(full_name=f"Bots {number}a")).status_code == 302
    refused = client.post(url(tournament), form(full_name="Bots d"))
    assert refused.status_code == 429
    assert SignUp.objects.count() == 3
    assert client.get(url(tournament)).status_code == 200  # reading is never limited


@pytest.mark.parametrize("language", ["lv", "ru", "en"])
def test_the_page_speaks_every_language(tournament, client, language):
    client.cookies["django_language"] = language
    page = client.get(url(tournament))
    heading = {"lv": "Pieteikties", "ru": "Записаться", "en": "Sign up"}[language]
    assert f"<h1>{heading}</h1>" in page.content.decode()


@pytest.mark.parametrize("language", ["lv", "ru", "en"])
def test_signing_up_and_checking_in_are_two_words_on_one_page(client, language):
    """Round 1 is under way, late sign-ups are open and round 2's check-in too: the public page
    offers both, and no reader takes one for the other."""
    tournament = make_tournament(
        signup_until=timezone.now() + datetime.timedelta(days=2), signup_late_until_round=3
    )
    make_registrations(tournament, 3)
    Round.objects.create(tournament=tournament, number=1, status=RoundStatus.CLOSED)
    services.round_create(tournament=tournament)
    client.cookies["django_language"] = language
    content = client.get(reverse("public:tournament", args=[tournament.slug])).content.decode()
    sign_up = re.search(r'class="actions signup-link"><a[^>]*>([^<]+)</a>', content).group(1)
    check_in = re.search(r'class="actions check-in-link-public"><a[^>]*>([^<]+)</a>', content)
    # The verb comes first in every language: "Pieteikties turnīram", "Atzīmēties 2. kārtai".
    assert sign_up.split()[0] != check_in.group(1).split()[0], (sign_up, check_in.group(1))


def test_the_page_reads_the_same_few_queries_whatever_the_lists_hold(tournament, client):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url(tournament)).status_code == 200
        return len(captured)

    signup_create(tournament=tournament, full_name="Anna Ozoliņa")
    few = queries()
    make_registrations(tournament, 30, clubs=3)
    for number in range(20):
        signup_create(tournament=tournament, full_name=f"Spēlētājs {number}a")
    assert queries() == few


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(name=hidden_variants("Jānis Bērziņš"), club=hidden_variants("Rīgas Zoles klubs"))
def test_a_hidden_variant_of_a_registered_player_is_refused_as_the_same_player(name, club):
    with transaction.atomic():
        tournament = make_tournament(
            slug="kauss", signup_until=timezone.now() + datetime.timedelta(days=2)
        )
        client = client_for()
        client.post(url(tournament), form(full_name="Jānis Bērziņš", club="Rīgas Zoles klubs"))
        before = database_state()
        page = client.post(url(tournament), form(full_name=name, club=club))
        assert_refused(page, before, f"{name!r} of {club!r}")
        assert "has signed up already" in page.content.decode()
        transaction.set_rollback(True)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("club", "Rīgas Zοles klubs", "Club: the word “Zοles” mixes Latin and Greek letters"),
        ("club", "Rīgа", "Club: the word “Rīgа” mixes Latin and Cyrillic letters"),
        (
            "full_name",
            "Jānis Веrziņš",
            "Name and surname: the word “Веrziņš” mixes Cyrillic and Latin letters",
        ),
    ],
)
def test_a_word_of_two_alphabets_is_refused_naming_the_field(tournament, field, value, message):
    before = database_state()
    page = client_for().post(url(tournament), form(**{field: value}))
    assert_refused(page, before, f"{field}={value!r}")
    assert message in page.content.decode()


def test_a_name_in_cyrillic_is_taken(tournament, client):
    client.post(url(tournament), form(full_name="Иван Петров", club="Даугавпилс"))
    assert SignUp.objects.get().full_name == "Иван Петров"


def test_a_name_is_stored_without_its_hidden_letters(tournament, client):
    client.post(url(tournament), form(full_name="Zw\u200bsp \u202eevil", club="\u2066Ogre\u2069"))
    signup = SignUp.objects.get()
    assert (signup.full_name, signup.club) == ("Zwsp evil", "Ogre")
    assert not Player.objects.exists() and not Club.objects.exists()
