"""The organiser's page of the registrations made online: the lists with the private contact,
accept, move, refuse; a freed place shown, never filled silently; hostile posts refused; the
tournament settings open registration online."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from signups import services
from signups.models import SignUp, SignUpStatus
from signups.services import signup_create, signup_move
from tests.factories import make_organiser, make_tournament
from tests.hostile import BAD_NUMBERS, assert_refused, database_state, hostile_client
from tournaments.models import AuditRecord

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return make_tournament(
        slug="kauss", signup_until=timezone.now() + datetime.timedelta(days=2), signup_places=1
    )


@pytest.fixture
def organiser(tournament):
    user = make_organiser()
    tournament.organisers.add(user)
    return user


@pytest.fixture
def staff(organiser):
    client = hostile_client()
    client.force_login(organiser)
    return client


def page(tournament) -> str:
    return reverse("organise:signups", args=[tournament.slug])


@pytest.mark.parametrize("where", ["organise:registrations", "organise:detail"])
def test_the_tournament_and_entries_pages_link_the_online_registrations(tournament, staff, where):
    signup_create(tournament=tournament, full_name="Anna Ozoliņa")
    content = staff.get(reverse(where, args=[tournament.slug])).content
    assert page(tournament) in content.decode()
    assert "1 sign-up to accept or refuse" in content.decode()


def test_the_organiser_sees_the_contact_and_accepts(tournament, staff, organiser):
    signup = signup_create(
        tournament=tournament, full_name="Anna Ozoliņa", contact="anna@example.lv"
    )
    assert "anna@example.lv" in staff.get(page(tournament)).content.decode()
    response = staff.post(page(tournament), {"signup": signup.pk, "action": "accept"}, follow=True)
    accepted = "Anna Ozoliņa: sign-up accepted, registered in the tournament."
    assert accepted in response.content.decode()
    assert tournament.registrations.get().player.full_name == "Anna Ozoliņa"
    entry = AuditRecord.objects.get(action="signup.accepted")
    assert entry.user == organiser


def test_a_refusal_shows_the_first_waiting_without_moving_him(tournament, staff):
    anna = signup_create(tournament=tournament, full_name="Anna Ozoliņa")
    janis = signup_create(tournament=tournament, full_name="Jānis Bērziņš")
    response = staff.post(page(tournament), {"signup": anna.pk, "action": "refuse"}, follow=True)
    content = response.content.decode()
    assert "Free places: 1. First on the waiting list: Jānis Bērziņš." in content
    janis.refresh_from_db()
    assert janis.status == SignUpStatus.WAITING
    staff.post(page(tournament), {"signup": janis.pk, "action": "listed"})
    janis.refresh_from_db()
    assert janis.status == SignUpStatus.LISTED
    assert "Free places" not in staff.get(page(tournament)).content.decode()


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"signup": "", "action": "accept"},
        *({"signup": value, "action": "accept"} for value in BAD_NUMBERS if value),
        {"signup": "1", "action": "<script>"},
        {"signup": "1", "action": ""},
    ],
)
def test_hostile_posts_change_nothing(tournament, staff, body):
    signup_create(tournament=tournament, full_name="Anna Ozoliņa")
    before = database_state()
    response = staff.post(page(tournament), body, follow=True)
    assert_refused(response, before, str(body)[:60])


def test_another_tournaments_registration_or_a_huge_one_is_not_found(tournament, staff):
    other = make_tournament(signup_until=tournament.signup_until)
    theirs = signup_create(tournament=other, full_name="Anna Ozoliņa")
    for pk in (theirs.pk, 10**17):
        before = database_state()
        response = staff.post(page(tournament), {"signup": pk, "action": "accept"})
        assert response.status_code == 404
        assert database_state() == before
    assert SignUp.objects.get(pk=theirs.pk).status == SignUpStatus.LISTED


def test_the_settings_open_registration_online(tournament, staff):
    from tests.test_access_matrix import tournament_form

    data = tournament_form(
        name="Kauss", slug="kauss", signup_until="2026-12-01T18:00", signup_places="24"
    )
    response = staff.post(reverse("organise:edit", args=[tournament.slug]), data)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.signup_places == 24
    assert timezone.localtime(tournament.signup_until).strftime("%Y-%m-%d %H:%M") == (
        "2026-12-01 18:00"
    )
    form = staff.get(reverse("organise:edit", args=[tournament.slug])).content.decode()
    assert 'type="datetime-local"' in form and 'value="2026-12-01T18:00"' in form


def test_the_settings_allow_late_signups_until_a_round(tournament, staff):
    from tests.test_access_matrix import tournament_form

    data = tournament_form(name="Kauss", slug="kauss", signup_late_until_round="3")
    response = staff.post(reverse("organise:edit", args=[tournament.slug]), data)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.signup_late_until_round == 3
    entry = AuditRecord.objects.filter(action=AuditRecord.Action.SETTINGS_CHANGED).last()
    assert entry.detail["after"]["signup_late_until_round"] == 3


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("signup_until", "tomorrow"),
        ("signup_until", "2026-13-45T99:99"),
        ("signup_places", "-1"),
        ("signup_late_until_round", "0"),
        ("signup_late_until_round", "6"),  # the tournament has 5 rounds
    ],
)
def test_the_settings_refuse_bad_registration_values(tournament, staff, field, value):
    from tests.test_access_matrix import tournament_form

    before = database_state()
    data = tournament_form(name="Kauss", slug="kauss", **{field: value})
    response = staff.post(reverse("organise:edit", args=[tournament.slug]), data)
    assert_refused(response, before, f"{field}={value}")


def test_the_organisers_message_is_in_his_language(tournament, staff):
    signup = signup_create(tournament=tournament, full_name="Anna Ozoliņa")
    staff.cookies["django_language"] = "lv"
    response = staff.post(page(tournament), {"signup": signup.pk, "action": "accept"}, follow=True)
    assert (
        "Anna Ozoliņa: pieteikums pieņemts, reģistrācija turnīrā izveidota."
        in response.content.decode()
    )


def accept_first(tournament) -> str:
    return reverse("organise:signups_accept", args=[tournament.slug])


def test_the_first_n_are_accepted_at_once_and_the_registrations_page_follows(staff, organiser):
    tournament = make_tournament(signup_until=timezone.now() + datetime.timedelta(days=2))
    for name in ("Anna Ozoliņa", "Berta Kalniņa", "Cilda Liepa"):
        signup_create(tournament=tournament, full_name=name)
    online = staff.get(page(tournament)).content.decode()
    assert f'action="{accept_first(tournament)}"' in online
    assert 'name="count" value="3"' in online  # the whole list, no places to keep

    response = staff.post(accept_first(tournament), {"count": "2"}, follow=True)

    assert response.redirect_chain[-1][0] == reverse(
        "organise:registrations", args=[tournament.slug]
    )
    assert "2 players accepted and registered." in response.content.decode()
    assert sorted(tournament.registrations.values_list("player__full_name", flat=True)) == [
        "Anna Ozoliņa",
        "Berta Kalniņa",
    ]
    assert AuditRecord.objects.get(action="signup.accepted").user == organiser


def test_the_bulk_form_offers_what_the_places_allow_and_refuses_more(tournament, staff):
    tournament.signup_places = 2
    tournament.save()
    for name in ("Anna Ozoliņa", "Berta Kalniņa", "Cilda Liepa"):
        signup = signup_create(tournament=tournament, full_name=name)
    signup_move(signup=signup, to="listed", by=None)  # 3 on the list, 2 places
    assert 'name="count" value="2"' in staff.get(page(tournament)).content.decode()
    before = database_state()

    response = staff.post(accept_first(tournament), {"count": "3"}, follow=True)

    assert response.redirect_chain[-1][0] == page(tournament)
    assert (
        "2 places and 0 players registered: at most 2 more can be accepted."
        in response.content.decode()
    )
    assert database_state() == before


@pytest.mark.parametrize("count", ["", "abc", "0", "-3", "1.5", "9" * 30, "<b>"])
def test_a_hostile_count_is_refused_and_accepts_nobody(tournament, staff, count):
    signup_create(tournament=tournament, full_name="Anna Ozoliņa")
    before = database_state()
    response = staff.post(accept_first(tournament), {"count": count}, follow=True)
    assert_refused(response, before, count)


def test_each_signup_shows_its_number_on_its_list_and_a_decided_one_none(tournament, staff):
    services.signup_create(tournament=tournament, full_name="Anna Ozoliņa")
    services.signup_create(tournament=tournament, full_name="Jānis Bērziņš")
    refused = services.signup_create(tournament=tournament, full_name="Pēteris Kalns")
    services.signup_refuse(signup=refused, by=None)

    html = staff.get(page(tournament)).content.decode()

    def number_of(name: str) -> str:
        found = re.search(rf"<td>([^<]*)</td>\s*<td>{name}<br>", html)
        assert found is not None, name
        return found.group(1)

    # One place: Anna is on the list, Jānis first on the waiting list.
    assert (number_of("Anna Ozoliņa"), number_of("Jānis Bērziņš")) == ("1", "1")
    assert number_of("Pēteris Kalns") == ""
