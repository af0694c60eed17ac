"""Self check-in, the players' pages: the tournament's check-in page (a name search, then the
round's code) and a player's own link; the hall display shows the code while check-in is open."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_player, make_tournament
from tournaments import services
from tournaments.models import AuditEntry, CheckIn, CheckInMethod, Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    tournament = make_tournament(slug="gulbene")
    names = (
        "Jānis Bērziņš",
        "Anna Bērziņa",
        "Pēteris Ozols",
        "Līga Kalniņa",
        "Иван Иванов",
        "Ella Ē",
    )
    entries = [
        Registration.objects.create(tournament=tournament, player=make_player(full_name=name))
        for name in names
    ]
    round_ = services.round_create(tournament=tournament)
    return tournament, entries, round_


def check_in_url(tournament) -> str:
    return reverse("public:check_in", args=[tournament.slug])


def my_url(entry) -> str:
    return reverse("public:my_check_in", args=[entry.tournament.slug, entry.check_in_token])


def method_of(round_, entry) -> str:
    return CheckIn.objects.get(round=round_, registration=entry).method


def test_the_hall_display_shows_the_code_while_check_in_is_open(
    event, client, django_capture_on_commit_callbacks
):
    tournament, _entries, round_ = event
    display = reverse("public:display", args=[tournament.slug])
    page = client.get(display).content.decode()
    assert round_.check_in_code in page and check_in_url(tournament) in page

    with django_capture_on_commit_callbacks(execute=True):  # the cached display is renewed
        services.round_generate_seating(round_=round_, mode="random", seed=1, by=None)

    assert round_.check_in_code not in client.get(display).content.decode()


def test_a_player_finds_himself_without_marks_and_checks_in_by_the_code(event, client):
    tournament, entries, round_ = event
    found = client.get(check_in_url(tournament), {"q": "berzin"})
    names = [entry.player.full_name for entry in found.context["matches"]]
    assert names == ["Anna Bērziņa", "Jānis Bērziņš"]

    response = client.post(
        check_in_url(tournament),
        {"registration": entries[0].pk, "code": round_.check_in_code.lower(), "q": "berzin"},
        REMOTE_ADDR="10.1.1.1",
    )

    assert response.status_code == 302
    assert method_of(round_, entries[0]) == CheckInMethod.CODE
    page = client.get(response.url).content.decode()
    assert "Jānis Bērziņš is checked in for round 1" in page
    assert AuditEntry.objects.get(action=AuditEntry.Action.SELF_CHECK_IN).ip_address == "10.1.1.1"


def test_cyrillic_is_found_in_latin_letters(event, client):
    tournament, _entries, _round = event
    found = client.get(check_in_url(tournament), {"q": "ivanov"})
    assert [entry.player.full_name for entry in found.context["matches"]] == ["Иван Иванов"]


def test_a_wrong_code_is_refused_clearly_and_changes_nothing(event, client):
    tournament, entries, round_ = event
    wrong = "XXXXX" if round_.check_in_code != "XXXXX" else "YYYYY"
    response = client.post(check_in_url(tournament), {"registration": entries[0].pk, "code": wrong})
    assert response.status_code == 400
    assert "is not this round" in response.content.decode()
    assert method_of(round_, entries[0]) == CheckInMethod.ROUND


def test_wrong_codes_are_limited_per_address(event, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "check-in": {"failures": 3, "seconds": 600}}
    tournament, entries, round_ = event
    guesser, neighbour = Client(REMOTE_ADDR="10.9.9.9"), Client(REMOTE_ADDR="10.9.9.8")
    codes = [code for code in ("AAAAA", "CCCCC", "DDDDD", "EEEEE") if code != round_.check_in_code]
    answers = [
        guesser.post(check_in_url(tournament), {"registration": entries[0].pk, "code": code})
        for code in codes[:3]
    ]
    assert [answer.status_code for answer in answers] == [400, 400, 400]

    # Even the right code is refused to that address now; another address is served.
    right = {"registration": entries[0].pk, "code": round_.check_in_code}
    assert guesser.post(check_in_url(tournament), right).status_code == 429
    assert method_of(round_, entries[0]) == CheckInMethod.ROUND
    assert neighbour.post(check_in_url(tournament), right).status_code == 302


def test_the_private_link_checks_in_with_one_tap(event, client):
    _tournament, entries, round_ = event
    page = client.get(my_url(entries[1]))
    assert page.status_code == 200 and "I am here" in page.content.decode()

    response = client.post(my_url(entries[1]))

    assert response.status_code == 302
    assert method_of(round_, entries[1]) == CheckInMethod.LINK
    after = client.get(my_url(entries[1])).content.decode()
    assert "You are checked in for round 1" in after and "I am here" not in after


def test_an_unknown_link_is_not_found_and_counted(event, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "check-in": {"failures": 2, "seconds": 600}}
    tournament, _entries, _round = event
    visitor = Client(REMOTE_ADDR="10.7.7.7")
    url = reverse("public:my_check_in", args=[tournament.slug, "x" * 32])
    assert [visitor.get(url).status_code for _ in range(3)] == [404, 404, 429]


def test_a_link_of_another_tournament_is_not_found(event, client):
    _tournament, entries, _round = event
    other = make_tournament(slug="cits")
    url = reverse("public:my_check_in", args=[other.slug, entries[0].check_in_token])
    assert client.get(url).status_code == 404


def test_the_organisers_untick_stands_against_the_player(event, client):
    _tournament, entries, round_ = event
    services.check_in_set(round_=round_, entries=entries[1:])
    response = client.post(my_url(entries[0]))
    assert response.status_code == 409
    assert "marked Jānis Bērziņš absent" in response.content.decode()
    assert not CheckIn.objects.filter(round=round_, registration=entries[0]).exists()


def test_check_in_is_closed_once_the_round_is_seated(event, client):
    tournament, entries, round_ = event
    services.round_generate_seating(round_=round_, mode="random", seed=1, by=None)
    assert "Check-in is not open" in client.get(check_in_url(tournament)).content.decode()
    response = client.post(
        check_in_url(tournament), {"registration": entries[0].pk, "code": round_.check_in_code}
    )
    assert response.status_code == 409
    assert client.post(my_url(entries[0])).status_code == 409


@pytest.mark.parametrize("language", ["lv", "ru", "en"])
def test_the_pages_speak_the_readers_language(event, client, language):
    tournament, entries, _round = event
    client.cookies["django_language"] = language
    words = {"lv": "Esmu klāt", "ru": "Я здесь", "en": "I am here"}[language]
    assert words in client.get(my_url(entries[0])).content.decode()
    found = client.get(check_in_url(tournament), {"q": "ozol"}).content.decode()
    assert words in found


def test_the_tournament_page_leads_to_check_in_while_it_is_open(
    event, client, django_capture_on_commit_callbacks
):
    tournament, _entries, round_ = event
    page = reverse("public:tournament", args=[tournament.slug])
    assert check_in_url(tournament) in client.get(page).content.decode()

    with django_capture_on_commit_callbacks(execute=True):
        services.round_generate_seating(round_=round_, mode="random", seed=1, by=None)

    assert check_in_url(tournament) not in client.get(page).content.decode()
