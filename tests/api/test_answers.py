"""How every answer of the API is served: other origins (CORS), the address's renders, the
cache and its 304s."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from api.answers import answer
from tests.factories import make_published_round, make_tournament

pytestmark = pytest.mark.django_db

FEDERATION = "https://lzf.example.lv"


@pytest.fixture
def allowed_origin(settings) -> None:
    settings.CORS_ALLOWED_ORIGINS = [FEDERATION]


def test_an_origin_the_setting_names_may_read_the_api(allowed_origin):
    make_tournament(slug="kauss")

    answer = Client().get("/api/v1/tournaments/kauss", HTTP_ORIGIN=FEDERATION)

    assert answer["Access-Control-Allow-Origin"] == FEDERATION
    assert "ETag" in answer["Access-Control-Expose-Headers"]


def test_another_origin_is_not_allowed(allowed_origin):
    answer = Client().get("/api/v1/tournaments", HTTP_ORIGIN="https://evil.example")

    assert "Access-Control-Allow-Origin" not in answer


def test_only_gets_are_allowed_from_another_origin(allowed_origin):
    preflight = Client().options(
        "/api/v1/tournaments",
        HTTP_ORIGIN=FEDERATION,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
    )

    assert "POST" not in preflight["Access-Control-Allow-Methods"]
    assert "GET" in preflight["Access-Control-Allow-Methods"]


def test_the_pages_are_never_opened_to_another_origin(allowed_origin):
    make_tournament(slug="kauss")

    page = Client().get("/t/kauss/", HTTP_ORIGIN=FEDERATION)

    assert "Access-Control-Allow-Origin" not in page


class TestTheAddressesRenders:
    HOSTILE = "198.51.100.66"
    VIEWER = "203.0.113.5"

    @pytest.fixture(autouse=True)
    def few_renders(self, settings) -> None:
        settings.RATE_LIMITS = {**settings.RATE_LIMITS, "render": {"failures": 3, "seconds": 60}}

    def test_an_address_asking_for_too_many_new_answers_gets_429_in_json(self):
        tournament = make_tournament(slug="kauss")
        make_published_round(tournament)
        client = Client(REMOTE_ADDR=self.HOSTILE)
        for page in (1, 2, 3):
            assert client.get(f"/api/v1/tournaments?per_page={page}").status_code == 200

        refused = client.get("/api/v1/tournaments?per_page=4")
        cached = client.get("/api/v1/tournaments/kauss/standings", REMOTE_ADDR=self.VIEWER)
        again = Client(REMOTE_ADDR=self.HOSTILE).get("/api/v1/tournaments/kauss/standings")

        assert refused.status_code == 429
        assert refused["Retry-After"] == "60"
        assert "Too many" in refused.json()["detail"]
        # What the cache holds is served to everyone, limited or not.
        assert cached.status_code == 200
        assert again.status_code == 200
        assert again.content == cached.content

    def test_a_signed_in_user_is_never_limited(self, django_user_model):
        user = django_user_model.objects.create(username="organiser")
        client = Client(REMOTE_ADDR=self.HOSTILE)
        client.force_login(user)
        for page in (1, 2, 3, 4, 5):
            assert client.get(f"/api/v1/clubs?per_page={page}").status_code == 200


def test_a_repeated_parameter_is_sent_to_the_answers_own_address():
    make_tournament(slug="kauss")

    answer = Client().get("/api/v1/tournaments/kauss/standings?page=1&page=1&made=up")

    assert answer.status_code == 302
    assert answer["Location"] == "/api/v1/tournaments/kauss/standings?page=1"


def test_what_a_tokens_holder_reads_is_never_stored_for_the_public(rf):
    """A token's holder may read what the public may not (his drafts): his answer is built for
    him alone, and the public's next request does not find it in the cache."""
    tournament = make_tournament(slug="kauss")
    builds = []

    def build() -> dict:
        builds.append(1)
        return {"secret": len(builds)}

    with_token = rf.get("/api/v1/tournaments/kauss")
    with_token.auth = "a token"  # what ninja's authentication sets
    with_token.user = AnonymousUser()
    public = rf.get("/api/v1/tournaments/kauss")
    public.user = AnonymousUser()

    held = answer(with_token, build, cached_under=tournament.pk)
    seen = answer(public, build, cached_under=tournament.pk)

    assert json.loads(held.content) == {"secret": 1}
    assert "private" in held["Cache-Control"]
    assert json.loads(seen.content) == {"secret": 2}
    assert "public" in seen["Cache-Control"]
