"""Self check-in, the players' pages: the tournament's check-in page (a name search, then the
round's code) and a player's own link; the code is read in the hall only (the private display),
never on a public page, and wrong codes are limited per address and per round."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from api.services import api_token_create
from archive.export import tournament_archive
from scoring.services import round_generate_seating
from tests.factories import make_player, make_published_round, make_tournament, make_user
from tournaments import services
from tournaments.models import AuditRecord, CheckIn, CheckInMethod, Registration

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


def test_the_public_display_says_where_to_check_in_but_never_the_code(event, client):
    """Anyone on the internet reads the public display: with the code he could check every
    player in. It shows the check-in page; the code is the hall's (the private display)."""
    tournament, _entries, round_ = event
    display = reverse("public:display", args=[tournament.slug])

    page = client.get(display).content.decode()
    live = client.get(display, HTTP_HX_REQUEST="true").content.decode()

    assert check_in_url(tournament) in page and "Check-in for round 1" in page
    assert round_.check_in_code not in page + live


def test_no_public_page_export_api_answer_or_archive_carries_the_code(event, client):
    tournament, entries, round_ = event
    published = make_tournament(slug="valka")
    make_published_round(published)
    draft_after = services.round_create(tournament=published)  # round 2 open, round 1 public
    organiser = make_user()
    tournament.organisers.add(organiser)
    published.organisers.add(organiser)
    token = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=organiser, name='P').secret}"}
    public = [reverse("public:tournament", args=[slug]) for slug in ("gulbene", "valka")] + [
        reverse("public:display", args=["valka"]),
        reverse("public:standings", args=["valka"]),
        reverse("public:standings", args=["valka"]) + "?_export=csv",
        reverse("public:round", args=["valka", 1]),
        reverse("public:check_in", args=["gulbene"]) + "?q=berz",
        reverse("public:my_check_in", args=["gulbene", entries[0].check_in_token]),
        reverse("documents:round_seating_pdf", args=["valka", 1]),
        reverse("documents:standings_pdf", args=["valka"]),
        "/api/v1/tournaments",
        "/api/v1/tournaments/valka",
        "/api/v1/tournaments/valka/rounds/1",
        "/api/v1/tournaments/valka/standings",
    ]
    organiser_api = [
        "/api/v1/organise/tournaments",
        "/api/v1/organise/tournaments/gulbene/rounds",
        "/api/v1/organise/tournaments/gulbene/rounds/1",
        "/api/v1/organise/tournaments/valka/rounds/2",
    ]
    codes = (round_.check_in_code.encode(), draft_after.check_in_code.encode())

    answers = {url: client.get(url) for url in public}
    answers |= {url: client.get(url, **token) for url in organiser_api}
    archives = [json.dumps(tournament_archive(t)) for t in (tournament, published)]

    assert {url: answer.status_code for url, answer in answers.items()} == dict.fromkeys(
        answers, 200
    )
    for url, answer in answers.items():
        assert not any(code in answer.content for code in codes), url
    assert not any(code.decode() in archive for code in codes for archive in archives)


def test_a_player_finds_himself_without_marks_and_checks_in_by_the_code(event, client):
    tournament, entries, round_ = event
    found = client.get(check_in_url(tournament), {"q": "berzin"})
    names = [match.registration.player.full_name for match in found.context["matches"]]
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
    assert AuditRecord.objects.get(action=AuditRecord.Action.SELF_CHECK_IN).ip_address == "10.1.1.1"


def test_cyrillic_is_found_in_latin_letters(event, client):
    tournament, _entries, _round = event
    found = client.get(check_in_url(tournament), {"q": "ivanov"})
    assert [match.registration.player.full_name for match in found.context["matches"]] == [
        "Иван Иванов"
    ]


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


def test_wrong_codes_are_limited_per_round_whatever_the_address(event, settings):
    """A guesser spread over many addresses: the round takes so many wrong codes in all, then
    refuses codes (even the right one) for a while; the players' own links still work."""
    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "check-in-round": {"failures": 3, "seconds": 3600},
    }
    tournament, entries, round_ = event
    codes = [code for code in ("AAAAA", "CCCCC", "DDDDD", "EEEEE") if code != round_.check_in_code]
    wrong = [
        Client(REMOTE_ADDR=f"10.8.0.{number}").post(
            check_in_url(tournament), {"registration": entries[0].pk, "code": code}
        )
        for number, code in enumerate(codes[:3], 1)
    ]
    right = {"registration": entries[1].pk, "code": round_.check_in_code}

    refused = Client(REMOTE_ADDR="10.8.1.1").post(check_in_url(tournament), right)

    assert [answer.status_code for answer in wrong] == [400, 400, 400]
    assert refused.status_code == 429 and refused["Retry-After"] == "3600"
    assert "own link" in refused.content.decode()
    assert method_of(round_, entries[1]) == CheckInMethod.ROUND
    assert Client(REMOTE_ADDR="10.8.1.1").post(my_url(entries[1])).status_code == 302


def test_right_codes_take_nothing_from_the_rounds_wrong_codes(event, settings):
    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "check-in-round": {"failures": 1, "seconds": 3600},
    }
    tournament, entries, round_ = event
    for entry in entries[:4]:  # the same phone, or the hall's shared address
        right = {"registration": entry.pk, "code": round_.check_in_code}
        assert Client().post(check_in_url(tournament), right).status_code == 302
    wrong = "XXXXX" if round_.check_in_code != "XXXXX" else "YYYYY"
    last = {"registration": entries[4].pk, "code": wrong}
    assert Client().post(check_in_url(tournament), last).status_code == 400


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
    services.check_in_set(round_=round_, registrations=entries[1:])
    response = client.post(my_url(entries[0]))
    assert response.status_code == 409
    assert "marked Jānis Bērziņš absent" in response.content.decode()
    assert not CheckIn.objects.filter(round=round_, registration=entries[0]).exists()


def test_check_in_is_closed_once_the_round_is_seated(event, client):
    tournament, entries, round_ = event
    round_generate_seating(round_=round_, mode="random", seed=1, by=None)
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
        round_generate_seating(round_=round_, mode="random", seed=1, by=None)

    assert check_in_url(tournament) not in client.get(page).content.decode()
