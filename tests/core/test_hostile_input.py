"""Hostile requests stopped before any page reads them: a NUL character anywhere in a request
(core.security), rows per page that are no whole number in range (core.query), and a sign-in
with garbage (core.ratelimit's login)."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from api import services as api_services
from tests import hostile
from tests.factories import make_user
from tests.hostile import (
    HUGE,
    LONG_TEXT,
    NUL_TEXT,
    SCRIPT,
    assert_escaped,
    database_state,
    hostile_client,
)

pytestmark = pytest.mark.django_db

world = hostile.world  # a fixture: the tournament full of hostile names
staff = hostile.staff  # a fixture: an organiser signed in


class TestNulCharacters:
    """PostgreSQL text cannot hold a NUL character. A request that carries one anywhere (its
    address, a query parameter's name or value, a form field, a cookie) is refused with 400
    before any page reads it, says where the NUL is and changes nothing."""

    def test_it_is_refused_wherever_it_is(self, world):
        slug = world.tournament.slug
        token = world.token.token
        players = reverse("organise:players")
        upload = ("players.csv", b"Anna Liepa;Klubs;\n", "text/csv")

        def multipart(client: Client) -> Any:
            file = io.BytesIO(upload[1])
            file.name = upload[0]
            return client.post(reverse("organise:player_import"), {"file": file, "x": "\x00"})

        attempts: dict[str, tuple[str, Callable[[Client], Any]]] = {
            "a table link": ("The address", lambda c: c.get("/r/%00/")),
            "after a table link": ("The address", lambda c: c.get(f"/r/{token}%00/")),
            "a public search": (
                "“q”",
                lambda c: c.get(reverse("public:round", args=[slug, 1]), {"q": "Jā\x00nis"}),
            ),
            "an organiser search": ("“q”", lambda c: c.get(players + "?q=%00")),
            "a ranking filter": (
                "“club”",
                lambda c: c.get(reverse("ranking:season") + "?club=%00"),
            ),
            "a parameter's name": ("“␀”", lambda c: c.get(players + "?%00=1")),
            "a form field": (
                "“full_name”",
                lambda c: c.post(reverse("organise:player_create"), {"full_name": NUL_TEXT}),
            ),
            "a multipart field": ("“x”", multipart),
            "a deal at a table": ("“action”", lambda c: c.post(f"/r/{token}/", {"action": "\x00"})),
            "a sign-in": (
                "“username”",
                lambda c: c.post(reverse("login"), {"username": NUL_TEXT, "password": "x"}),
            ),
            "a session cookie": (
                "“sessionid”",
                lambda c: c.get("/", HTTP_COOKIE="sessionid=abcdefgh\x00ijk"),
            ),
        }
        client = world.staff()  # signed in (which writes) before the state is taken
        client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
        before = database_state()
        for what, (where, attempt) in attempts.items():
            response = attempt(client)
            assert response.status_code == 400, f"{what}: {response.status_code}"
            content = response.content.decode()
            assert "NUL" in content and where in content, f"{what}: does not say where"
            assert database_state() == before, f"{what}: something was written"


class TestPublicQueries:
    @pytest.mark.parametrize("per_page", ["-1", "0", "-0", "²", "٣", str(HUGE), "9" * 5000])
    def test_rows_per_page(self, world, per_page):
        """Rows per page are a whole number from 1 to the page's most; anything else is a plain
        404, for the public (not signed in) and the organiser alike."""
        slug = world.tournament.slug
        pages = {
            reverse("public:standings", args=[slug]): hostile_client(),
            reverse("organise:players"): world.staff(),
            reverse("ranking:season"): hostile_client(),
        }
        for url, client in pages.items():
            response = client.get(url, {"per_page": per_page})
            assert response.status_code == 404, f"{url}?per_page={per_page[:20]}"
            assert client.get(url, {"per_page": "5"}).status_code == 200, url

    @pytest.mark.parametrize("page", ["public round", "organiser players"])
    def test_a_nul_in_a_search(self, world, page):
        """PostgreSQL cannot hold a NUL in text: a search for one is refused, never a 500."""
        url = {
            "public round": reverse("public:round", args=[world.tournament.slug, 1]),
            "organiser players": reverse("organise:players"),
        }[page]
        assert world.staff().get(url, {"q": "Jā\x00nis"}).status_code < 500

    def test_sign_in_with_garbage(self):
        make_user(username="tiesnesis")
        client = hostile_client()
        for username, password in (
            (LONG_TEXT, LONG_TEXT),
            (NUL_TEXT, "x"),
            (SCRIPT, SCRIPT),
            ("' OR '1'='1", "' OR '1'='1"),
            ("tiesnesis", ""),
            (["a", "b"], "x"),
        ):
            before = database_state()
            response = client.post(reverse("login"), {"username": username, "password": password})
            assert response.status_code < 500, str(username)[:20]
            assert database_state() == before
            if response.status_code == 200:
                assert_escaped(response, "sign-in page")


class TestLoneSurrogates:
    """A lone UTF-16 surrogate (JSON's escape "\\ud800" without its pair, or its three bytes)
    is no text a database can hold. A JSON body that carries one, the phone's sync or the API's
    player import, is refused with 400 before anything reads it, naming where; a proper pair
    (an emoji) is text like any other."""

    @pytest.fixture
    def staff_token(self) -> dict[str, str]:
        secret = api_services.api_token_create(user=make_user(is_staff=True), name="Vietne").secret
        return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}

    def post(self, client: Client, url: str, body: bytes, **headers: str) -> Any:
        return client.post(url, body, content_type="application/json", **headers)

    @pytest.mark.parametrize(
        "name", [b"J\\ud800nis", b"J\\uDFFFnis", b"J\xed\xa0\x80nis", b"\\ud83c\\ud83c"]
    )
    def test_the_api_import_refuses_it_naming_the_field(self, world, staff_token, name):
        url = f"/api/v1/tournaments/{world.tournament.slug}/players"
        before = database_state()

        answer = self.post(
            hostile_client(), url, b'{"players": [{"full_name": "' + name + b'"}]}', **staff_token
        )

        assert answer.status_code == 400
        assert answer.json()["field"] == "players.0.full_name"
        assert "surrogate" in answer.json()["detail"]
        assert database_state() == before

    def test_the_phones_sync_refuses_it_on_both_doors(self, world):
        token = world.token.token
        body = b'{"entries": [{"key": "k\\udfff", "action": "deal", "fields": {}}]}'
        before = database_state()

        by_link = self.post(hostile_client(), f"/r/{token}/entries/", body)
        by_api = self.post(hostile_client(), f"/api/v1/tables/{token}/entries", body)

        assert by_link.status_code == 400 and "entries.0.key" in by_link.content.decode()
        assert by_api.status_code == 400 and by_api.json()["field"] == "entries.0.key"
        assert database_state() == before

    def test_a_pair_is_text(self, world, staff_token):
        url = f"/api/v1/tournaments/{world.tournament.slug}/players"
        body = b'{"players": [{"full_name": "J\\u0101nis Joker", "club": "\\ud83c\\udccf"}]}'

        answer = self.post(hostile_client(), url, body, **staff_token)

        assert answer.status_code == 201
        assert answer.json()["players"][0]["club"] == "\U0001f0cf"
