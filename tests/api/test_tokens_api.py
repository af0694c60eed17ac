"""What an organiser's token opens: every round of the tournaments he organises, drafts
included, as his round page shows them; players imported through the import page's service,
all or nothing, each wrong player named by its line and field."""

from __future__ import annotations

import json

import pytest
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, given, settings

from api import services
from scoring.services import round_generate_seating
from tests.factories import make_club, make_player, make_registrations, make_tournament, make_user
from tests.hostile import hidden_variants
from tournaments import services as tournament_services
from tournaments.models import AuditRecord, Club, Player, Registration

pytestmark = pytest.mark.django_db


def token_of(user) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {services.api_token_create(user=user, name='P').secret}"}


def tournament_with_a_draft():
    """Round 1 published, round 2 seated but a draft."""
    tournament = make_tournament(slug="kauss")
    make_registrations(tournament, 6)
    for seed in (1, 2):
        round_ = tournament_services.round_create(tournament=tournament)
        round_generate_seating(round_=round_, seed=seed, by=None)
        if seed == 1:
            tournament_services.round_publish(round_=round_, by=None)
    return tournament


def organiser_of(tournament):
    organiser = make_user()
    tournament.organisers.add(organiser)
    return organiser


def test_an_organiser_reads_his_draft_round_with_its_seating():
    tournament = tournament_with_a_draft()
    headers = token_of(organiser_of(tournament))

    rounds = Client().get("/api/v1/organise/tournaments/kauss/rounds", **headers)
    draft = Client().get("/api/v1/organise/tournaments/kauss/rounds/2", **headers)

    assert rounds.json() == [
        {"number": 1, "status": "published"},
        {"number": 2, "status": "draft"},
    ]
    assert draft.status_code == 200
    body = draft.json()
    assert body["status"] == "draft" and body["published_at"] is None
    seated = [seat["registration_id"] for table in body["tables"] for seat in table["seats"]]
    assert sorted(seated) == sorted(tournament.registrations.values_list("pk", flat=True))
    assert [table["number"] for table in body["tables"]] == [1, 2]
    assert [seat["seat"] for seat in body["tables"][0]["seats"]] == [1, 2, 3]


def test_another_tournament_s_organiser_is_refused_its_rounds():
    tournament = tournament_with_a_draft()
    other = make_tournament(slug="cits")
    headers = token_of(organiser_of(other))

    refused = Client().get("/api/v1/organise/tournaments/kauss/rounds/2", **headers)
    listed = Client().get("/api/v1/organise/tournaments", **headers)

    assert refused.status_code == 403 and refused.json()["detail"]
    assert [each["slug"] for each in listed.json()] == ["cits"]
    assert tournament.rounds.count() == 2


def test_an_unknown_tournament_or_round_is_404():
    tournament = tournament_with_a_draft()
    headers = token_of(organiser_of(tournament))

    assert Client().get("/api/v1/organise/tournaments/nav/rounds", **headers).status_code == 404
    assert Client().get("/api/v1/organise/tournaments/kauss/rounds/9", **headers).status_code == 404


# --- Importing players ----------------------------------------------------------------------------


def staff_token():
    return token_of(make_user(is_staff=True))


def post_players(slug, players, headers):
    return Client().post(
        f"/api/v1/tournaments/{slug}/players",
        json.dumps({"players": players}),
        content_type="application/json",
        **headers,
    )


def test_players_are_imported_and_registered_in_the_tournament_and_audited():
    tournament = make_tournament(slug="kauss")
    known = make_player(full_name="Anna Ozola", licence_number="LV-1")
    headers = staff_token()

    answer = post_players(
        "kauss",
        [
            {"full_name": " Jānis Bērziņš ", "club": "Ogres Kārts", "licence_number": "LV-7"},
            {"full_name": "Anna Ozola", "licence_number": "lv-1"},
            {"full_name": "Pēteris Kalns"},
        ],
        headers,
    )

    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert (body["created"], body["updated"], body["registered"]) == (2, 0, 3)
    assert {player["full_name"] for player in body["players"]} == {
        "Jānis Bērziņš",
        "Anna Ozola",
        "Pēteris Kalns",
    }
    assert Player.objects.get(full_name="Jānis Bērziņš").club.name == "Ogres Kārts"
    assert Registration.objects.filter(tournament=tournament, player=known).exists()
    audited = AuditRecord.objects.get(action=AuditRecord.Action.PLAYERS_IMPORTED)
    assert audited.tournament == tournament and audited.detail["registered"] == 3


def test_a_wrong_player_refuses_the_whole_list_naming_its_line_and_field():
    make_tournament(slug="kauss")
    make_player(full_name="Anna Ozola", licence_number="LV-1")
    headers = staff_token()

    answer = post_players(
        "kauss",
        [
            {"full_name": "Jānis Bērziņš", "club": "Jauns klubs"},
            {"full_name": "  "},
            {"full_name": "Cits Cilvēks", "licence_number": "LV-1"},
            {"full_name": "Ilga Vārda", "club": "x" * 121},
        ],
        headers,
    )

    assert answer.status_code == 422
    body = answer.json()
    assert body["detail"].startswith("nothing imported")
    assert body["field"] == "players.1.full_name"
    assert [(error["line"], error["field"]) for error in body["errors"]] == [
        (2, "full_name"),
        (3, "licence_number"),
        (4, "club"),
    ]
    assert body["errors"][1]["loc"] == ["body", "players", 2, "licence_number"]
    assert "Anna Ozola" in body["errors"][1]["detail"]
    assert Player.objects.count() == 1 and not Club.objects.exists()
    assert not Registration.objects.exists()
    assert not AuditRecord.objects.filter(action=AuditRecord.Action.PLAYERS_IMPORTED).exists()


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"players": "Anna"},
        {"players": [{"club": "Ogre"}]},
        {"players": [{"full_name": 7}]},
        {"players": [{"full_name": None}]},
    ],
)
def test_a_malformed_body_is_422_with_its_location(body):
    make_tournament(slug="kauss")

    answer = Client().post(
        "/api/v1/tournaments/kauss/players",
        json.dumps(body),
        content_type="application/json",
        **staff_token(),
    )

    assert answer.status_code == 422
    assert answer.json()["detail"][0]["loc"][0] == "body"
    assert not Player.objects.exists()


def test_an_empty_list_imports_nothing():
    make_tournament(slug="kauss")

    answer = post_players("kauss", [], staff_token())

    assert answer.status_code == 422
    assert answer.json()["errors"][0]["line"] == 0


def test_only_federation_staff_import_players_as_on_the_import_page():
    tournament = make_tournament(slug="kauss")
    headers = token_of(organiser_of(tournament))

    refused = post_players("kauss", [{"full_name": "Jānis Bērziņš"}], headers)

    assert refused.status_code == 403 and "staff" in refused.json()["detail"]
    assert not Player.objects.exists()


def test_an_unknown_tournament_is_404_and_imports_nothing():
    answer = post_players("nav", [{"full_name": "Jānis Bērziņš"}], staff_token())

    assert answer.status_code == 404
    assert not Player.objects.exists()


def test_an_import_needs_a_token():
    make_tournament(slug="kauss")

    answer = post_players("kauss", [{"full_name": "Jānis Bērziņš"}], {})

    assert answer.status_code == 401
    assert not Player.objects.exists()


def test_an_organiser_s_reads_are_private_with_an_etag_and_304():
    tournament = tournament_with_a_draft()
    headers = token_of(organiser_of(tournament))
    url = "/api/v1/organise/tournaments/kauss/rounds/2"

    first = Client().get(url, **headers)
    again = Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"], **headers)

    assert "private" in first["Cache-Control"] and "public" not in first["Cache-Control"]
    assert "Authorization" in first["Vary"]
    assert again.status_code == 304


@pytest.mark.parametrize("number", ["0", "-1", "x", "9" * 30])
def test_an_odd_round_number_is_refused_naming_it(number):
    tournament = tournament_with_a_draft()
    headers = token_of(organiser_of(tournament))

    answer = Client().get(f"/api/v1/organise/tournaments/kauss/rounds/{number}", **headers)

    assert answer.status_code in (404, 422)
    assert answer.status_code == 404 or "number" in json.dumps(answer.json())


@pytest.mark.parametrize(
    ("player", "field"),
    [
        ({"full_name": "Jā\x00nis"}, "full_name"),
        ({"full_name": "Jānis", "club": "Og\x07re"}, "club"),
        ({"full_name": "Jānis", "licence_number": "L" * 21}, "licence_number"),
        ({"full_name": "J" * 121}, "full_name"),
    ],
)
def test_a_hostile_player_is_refused_by_its_field(player, field):
    make_tournament(slug="kauss")

    answer = post_players("kauss", [player], staff_token())

    assert answer.status_code == 422
    assert answer.json()["field"] == f"players.0.{field}"
    assert not Player.objects.exists()


def test_a_list_longer_than_the_import_s_limit_is_refused_whole(settings):
    make_tournament(slug="kauss")
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000_000
    players = [{"full_name": f"Spēlētājs {number}"} for number in range(5_001)]

    answer = post_players("kauss", players, staff_token())

    assert answer.status_code == 422
    assert "5000" in answer.json()["detail"] and answer.json()["field"] == "players"
    assert not Player.objects.exists()


def test_every_answer_of_the_token_s_endpoints_is_valid_against_its_schema():
    """The organiser's answers are written by hand (private, with their ETag): each is checked
    against the schema the documentation shows, no field missing, none undeclared."""
    from pydantic import TypeAdapter

    from api import tokens_api

    tournament = tournament_with_a_draft()
    staff = staff_token()
    organiser = token_of(organiser_of(tournament))
    answers = [
        ("/api/v1/organise/tournaments", list[tokens_api.OrganisedTournament], organiser),
        (
            "/api/v1/organise/tournaments/kauss/rounds",
            list[tokens_api.OrganisedRoundSummary],
            organiser,
        ),
        ("/api/v1/organise/tournaments/kauss/rounds/1", tokens_api.RoundOut, organiser),
        ("/api/v1/organise/tournaments/kauss/rounds/2", tokens_api.RoundOut, staff),
        ("/api/v1/organise/tournaments/kauss/rounds/9", tokens_api.Refusal, organiser),
        ("/api/v1/organise/tournaments", tokens_api.Refusal, {}),
    ]
    for url, schema, headers in answers:
        TypeAdapter(schema).validate_python(Client().get(url, **headers).json())
    imported = post_players("kauss", [{"full_name": "Jānis Bērziņš"}], staff)
    refused = post_players("kauss", [{"full_name": ""}], staff)
    TypeAdapter(tokens_api.ImportOut).validate_python(imported.json())
    TypeAdapter(tokens_api.ImportRefusal).validate_python(refused.json())


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    name=hidden_variants("Jānis Bērziņš"),
    other=hidden_variants("Anna Ozola"),
    club=hidden_variants("Rīgas Zoles klubs"),
    licence=hidden_variants("LV-1"),
)
def test_an_invisible_variant_of_a_register_player_is_that_player(name, other, club, licence):
    with transaction.atomic():
        make_tournament(slug="kauss")
        janis = make_player(
            full_name="Jānis Bērziņš",
            club=make_club(name="Rīgas Zoles klubs"),
            licence_number="LV-1",
        )
        anna = make_player(full_name="Anna Ozola", club=janis.club)

        answer = post_players(
            "kauss",
            [
                {"full_name": name, "club": club, "licence_number": licence},
                {"full_name": other, "club": club},
            ],
            staff_token(),
        )

        assert answer.status_code == 201, answer.content
        assert answer.json()["created"] == 0
        assert {player["id"] for player in answer.json()["players"]} == {janis.pk, anna.pk}
        assert Player.objects.count() == 2 and Club.objects.count() == 1
        transaction.set_rollback(True)


@pytest.mark.parametrize(
    ("player", "field", "word"),
    [
        ({"full_name": "Jānis Bērziņš", "club": "Rīgа"}, "club", "Rīgа"),  # a Cyrillic а
        ({"full_name": "Jānis Bērziņš", "club": "Rīgas Zοles klubs"}, "club", "Zοles"),  # Greek ο
        ({"full_name": "Jānis Веrziņš"}, "full_name", "Веrziņš"),  # Cyrillic В and е
    ],
)
def test_a_word_of_two_alphabets_is_refused_by_its_field(player, field, word):
    make_tournament(slug="kauss")

    answer = post_players("kauss", [player], staff_token())

    assert answer.status_code == 422
    assert answer.json()["field"] == f"players.0.{field}"
    assert f"the word “{word}” mixes" in answer.json()["errors"][0]["detail"]
    assert not Player.objects.exists() and not Club.objects.exists()


def test_the_staff_import_cleans_a_hidden_override():
    make_tournament(slug="kauss")

    answer = post_players("kauss", [{"full_name": "Zw\u200bsp \u202eevil"}], staff_token())

    assert answer.status_code == 201
    assert answer.json()["players"][0]["full_name"] == "Zwsp evil"
    assert Player.objects.get().full_name == "Zwsp evil"
