"""Public pages from the cache (core.page_cache): a repeated request costs one query, and every
write the public sees (a confirmation, an unlock, a correction, a published round, a closed
round) shows on the very next request, once it is committed. Local memory, as in development;
the last tests run the same on Redis (REDIS_URL), a throwaway Debian redis-server."""

from __future__ import annotations

import csv
import io
import itertools
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.core.cache.backends import locmem
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from core import page_cache
from core.models import FailureCount
from core.page_cache import cached_public_page, tournament_changed, tournament_generation
from core.ratelimit import LOGIN_FAILURES
from engine import Play, dealer_for
from engine.rules import Game
from scoring import selectors, services
from scoring.services import Writer, round_generate_seating
from tests.factories import (
    deals_on_sheet,
    make_organiser,
    make_registrations,
    make_tournament,
    seat_keys,
)
from tournaments import services as tournament_services
from tournaments.models import Round, Table, Tournament

pytestmark = pytest.mark.django_db

keys = (f"cache-key-{number}" for number in itertools.count())
REFEREE = Writer(ip_address="10.0.0.8")
DEALS = 6
# On a hit: the tournament by its slug (a 404 for an unknown one), then the cache alone.
HIT_QUERIES = 1


@pytest.fixture(autouse=True)
def local_memory_cache(settings) -> None:
    """The local memory cache, whatever REDIS_URL says, empty for each test."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "test-cache",
        }
    }
    cache.clear()


def play_round(table: Table) -> None:
    """Every deal a won lielais (75 points) of the first seat, or of the second while the first
    deals: the first seat ends well ahead."""
    players = seat_keys(table)
    first_dealer = players[table.first_dealer_position - 1]
    for index in range(DEALS):
        dealer = dealer_for(players, first_dealer, index)
        declarer = players[0] if dealer != players[0] else players[1]
        services.deal_record(
            table=table,
            entry=Play(Game.LIELAIS, declarer, tricks=5, points=75),
            position=index + 1,
            client_key=next(keys),
            writer=REFEREE,
        )


def confirm(table: Table) -> None:
    confirmer = table.seats.order_by("position").first().registration
    services.table_confirm(
        table=table, writer=REFEREE, confirmer=confirmer, deals_seen=deals_on_sheet(table)
    )


@pytest.fixture
def round_in_play(django_capture_on_commit_callbacks) -> tuple[Tournament, Round, list[Table]]:
    """Six players at two tables of 3, every deal entered, table 1 confirmed, table 2 not."""
    tournament = make_tournament(deals_per_round=DEALS, rounds_planned=2, slug="kesa-kauss")
    make_registrations(tournament, 6)
    with django_capture_on_commit_callbacks(execute=True):
        round_ = tournament_services.round_create(tournament=tournament)
        round_generate_seating(round_=round_, seed=1, by=None)
        tournament_services.round_publish(round_=round_, by=None)
        tables = list(round_.tables.order_by("number"))
        for table in tables:
            play_round(table)
        confirm(tables[0])
    return tournament, round_, tables


def standings_url(tournament: Tournament) -> str:
    return reverse("public:standings", args=[tournament.slug])


def names_at(table: Table) -> set[str]:
    return {
        seat.registration.player.full_name
        for seat in table.seats.select_related("registration__player")
    }


def export_rows(client: Client, tournament: Tournament) -> list[list[str]]:
    """The public CSV export (served from the cache too): rank, player, club, place points,
    game points, then round 1's game and place points (blank while unconfirmed)."""
    response = client.get(standings_url(tournament) + "?_export=csv")
    return list(csv.reader(io.StringIO(response.content.decode("utf-8"))))[1:]


def confirmed(client: Client, tournament: Tournament) -> set[str]:
    """The players with a confirmed result in round 1."""
    return {row[1] for row in export_rows(client, tournament) if row[5] != ""}


class TestServedFromTheCache:
    def test_the_second_request_runs_one_query_and_gets_the_same_page(
        self, client: Client, round_in_play, django_assert_max_num_queries
    ):
        tournament, _round, _tables = round_in_play
        first = client.get(standings_url(tournament))
        assert first.status_code == 200

        with django_assert_max_num_queries(HIT_QUERIES):
            second = client.get(standings_url(tournament))

        assert second.status_code == 200
        assert second.content == first.content
        assert second["Content-Type"] == first["Content-Type"]
        # The headers the middleware adds are there on a hit too.
        assert second["Content-Security-Policy"] == first["Content-Security-Policy"]

    @pytest.mark.parametrize(
        "url",
        [
            "/t/kesa-kauss/",
            "/t/kesa-kauss/rounds/1/",
            "/t/kesa-kauss/rounds/1/?q=a",
            "/t/kesa-kauss/rounds/1/tables/1/",
            "/t/kesa-kauss/standings/?provisional=1",
            "/t/kesa-kauss/standings/?_export=csv",
            "/t/kesa-kauss/standings/?_export=xlsx",
            "/t/kesa-kauss/standings.pdf",
            "/t/kesa-kauss/rounds/1/seating.pdf",
            "/t/kesa-kauss/display/",
        ],
    )
    def test_every_public_page_of_a_tournament_is_cached(
        self, client: Client, round_in_play, url, django_assert_max_num_queries
    ):
        first = client.get(url)
        assert first.status_code == 200

        with django_assert_max_num_queries(HIT_QUERIES):
            second = client.get(url)

        assert second.content == first.content
        assert second.get("Content-Disposition") == first.get("Content-Disposition")

    def test_the_htmx_partial_and_the_page_are_cached_apart(self, client: Client, round_in_play):
        tournament, _round, _tables = round_in_play
        page = client.get(standings_url(tournament)).content.decode()
        partial = client.get(standings_url(tournament), HTTP_HX_REQUEST="true").content.decode()
        page_again = client.get(standings_url(tournament)).content.decode()

        assert "<html" in page and "<html" not in partial
        assert 'id="standings-live"' in partial
        assert page_again == page

    def test_a_head_request_is_answered_from_the_cache(
        self, client: Client, round_in_play, django_assert_max_num_queries
    ):
        tournament, _round, _tables = round_in_play
        url = standings_url(tournament) + "?_export=xlsx"
        client.get(url)

        with django_assert_max_num_queries(HIT_QUERIES):
            response = client.head(url)

        assert response.status_code == 200

    def test_an_escaped_ampersand_never_takes_the_key_of_two_parameters(
        self, client: Client, round_in_play
    ):
        """`?_export=csv%26round%3D1` is one parameter whose value holds "&round=1": the page
        it renders (HTML: no such export) must not be what `?_export=csv&round=1` gets."""
        tournament, _round, _tables = round_in_play
        poisoned = client.get(standings_url(tournament) + "?_export=csv%26round%3D1")
        assert poisoned["Content-Type"].startswith("text/html")

        export = client.get(standings_url(tournament) + "?_export=csv&round=1")

        assert export.status_code == 200
        assert export["Content-Type"].startswith("text/csv")

    def test_signed_in_users_always_see_the_database(self, client: Client, round_in_play):
        tournament, _round, tables = round_in_play
        client.get(standings_url(tournament))  # cached for the public
        # A change no service makes (so nothing invalidates): the public sees it when the page
        # expires (PUBLIC_PAGE_CACHE_SECONDS), an organiser at once.
        player = tables[0].seats.order_by("position").first().registration.player
        player.full_name = "Ojārs Ķēniņš"
        player.save()

        public = client.get(standings_url(tournament))
        client.force_login(make_organiser())
        organiser = client.get(standings_url(tournament))

        assert "Ojārs Ķēniņš" not in public.content.decode()
        assert "Ojārs Ķēniņš" in organiser.content.decode()
        # The organiser's own page (sign-out form, CSRF token) never reaches the public.
        assert "csrfmiddlewaretoken" in organiser.content.decode()
        client.logout()
        assert "csrfmiddlewaretoken" not in client.get(standings_url(tournament)).content.decode()

    def test_a_page_no_write_invalidates_expires_after_the_refresh_period(
        self, client: Client, round_in_play, settings, monkeypatch
    ):
        tournament, _round, tables = round_in_play
        client.get(standings_url(tournament))
        player = tables[0].seats.order_by("position").first().registration.player
        player.full_name = "Ojārs Ķēniņš"
        player.save()  # no service: nothing invalidates
        assert "Ojārs Ķēniņš" not in client.get(standings_url(tournament)).content.decode()

        later = time.time() + settings.PUBLIC_PAGE_CACHE_SECONDS + 1
        monkeypatch.setattr(locmem, "time", SimpleNamespace(time=lambda: later))

        assert "Ojārs Ķēniņš" in client.get(standings_url(tournament)).content.decode()

    def test_a_lost_generation_never_brings_an_old_page_back(self, client: Client, round_in_play):
        tournament, _round, _tables = round_in_play
        client.get(standings_url(tournament))
        before = tournament_generation(tournament.pk)

        cache.delete(f"zole:tournament:{tournament.pk}:generation")  # evicted, Redis restarted

        assert tournament_generation(tournament.pk) != before
        response = client.get(standings_url(tournament))
        assert response.context is not None  # rendered again

    def test_an_unreachable_cache_serves_from_the_database(
        self, client: Client, round_in_play, monkeypatch, django_capture_on_commit_callbacks
    ):
        tournament, _round, tables = round_in_play

        def unavailable(*args, **kwargs):
            raise ConnectionError("redis is down")

        for method in ("get", "set", "add"):
            monkeypatch.setattr(locmem.LocMemCache, method, unavailable)

        assert client.get(standings_url(tournament)).status_code == 200
        with django_capture_on_commit_callbacks(execute=True):
            confirm(tables[1])  # the write stands; the cache is not there to invalidate
        assert tables[1].result is not None


def two_published_rounds(tournament: Tournament, round_: Round, tables: list[Table]) -> None:
    """Round 1 played, confirmed and closed; round 2 published."""
    services.round_close(round_=round_, writer=Writer(user=make_organiser()))
    round_two = tournament_services.round_create(tournament=tournament)
    round_generate_seating(round_=round_two, seed=2, by=None)
    tournament_services.round_publish(round_=round_two, by=None)


class TestOneAddressPerPage:
    """A page is stored under the values it reads: a parameter it does not read, or the order of
    the parameters, never makes another copy of it. A query string with a parameter the page
    does not read, or with one it reads given twice, is sent to the page's own address."""

    @pytest.mark.parametrize(
        "url",
        [
            "/t/kesa-kauss/",
            "/t/kesa-kauss/rounds/1/?q=a",
            "/t/kesa-kauss/standings/",
            "/t/kesa-kauss/standings/?_export=csv",
            "/t/kesa-kauss/standings/?_export=xlsx",
            "/t/kesa-kauss/standings.pdf",
            "/t/kesa-kauss/rounds/1/seating.pdf",
            "/t/kesa-kauss/display/",
            "/ranking/",
            "/ranking/?_export=xlsx",
            "/ranking/rating/",
            "/ranking/rating/?_export=csv",
        ],
    )
    def test_a_made_up_parameter_is_answered_from_the_cache(
        self, client: Client, round_in_play, url, django_assert_max_num_queries
    ):
        first = client.get(url)
        assert first.status_code == 200
        separator = "&" if "?" in url else "?"

        for junk in ("x=1", "x=2", "utm_source=poster&x=3"):
            with django_assert_max_num_queries(HIT_QUERIES):
                response = client.get(f"{url}{separator}{junk}", follow=True)
            assert response.redirect_chain == [(url, 302)]
            assert response.content == first.content

    def test_the_order_of_the_parameters_makes_no_new_copy(
        self, client: Client, round_in_play, django_assert_max_num_queries
    ):
        tournament, _round, _tables = round_in_play
        first = client.get(standings_url(tournament) + "?provisional=1&sort=-name")

        with django_assert_max_num_queries(HIT_QUERIES):
            again = client.get(standings_url(tournament) + "?sort=-name&provisional=1")

        assert again.status_code == 200 and again.content == first.content

    def test_a_repeated_parameter_means_its_last_value_in_either_order(
        self, client: Client, round_in_play, django_capture_on_commit_callbacks
    ):
        """Django reads the last of repeated values: ?round=1&round=2 is round 2, and
        ?round=2&round=1 (asked next, with the first in the cache) is round 1."""
        tournament, round_, tables = round_in_play
        with django_capture_on_commit_callbacks(execute=True):
            confirm(tables[1])
            two_published_rounds(tournament, round_, tables)
        export = standings_url(tournament) + "?_export=csv"
        protocol = f"/t/{tournament.slug}/standings.pdf"

        for asked, meant in (("round=1&round=2", 2), ("round=2&round=1", 1)):
            response = client.get(f"{export}&{asked}", follow=True)
            assert response.status_code == 200
            assert f"kesa-kauss-round-{meant}-standings.csv" in response["Content-Disposition"]
            document = client.get(f"{protocol}?{asked}", follow=True)
            assert f"after-round-{meant}.pdf" in document["Content-Disposition"]

    def test_the_key_is_built_from_the_values_the_page_reads(self, rf):
        params = frozenset({"round", "sort"})

        def key(query: str) -> str:
            request = rf.get(f"/t/kesa-kauss/standings/?{query}")
            return page_cache.page_key(request, tournament_id=1, generation="g", params=params)

        assert key("round=1&round=2") == key("round=2")
        assert key("round=2&round=1") == key("round=1") != key("round=2")
        assert key("sort=name&round=1") == key("round=1&sort=name")
        assert key("round=1&x=1") == key("round=1")

    def test_the_redirect_keeps_the_values_the_page_reads_and_their_escapes(
        self, client: Client, round_in_play
    ):
        tournament, _round, _tables = round_in_play
        response = client.get(
            standings_url(tournament) + "?x=1&sort=name&provisional=0&provisional=1&q=%26%3D"
        )

        assert response.status_code == 302
        assert response["Location"] == standings_url(tournament) + "?provisional=1&sort=name"
        round_url = reverse("public:round", args=[tournament.slug, 1])
        response = client.get(round_url + "?q=%26round%3D1&q=J%C4%81nis&x")
        assert response["Location"] == round_url + "?q=J%C4%81nis"


class TestExportsFollowTheirPages:
    """Exports and documents are stored under the same generation as the pages: a confirmation
    serves them anew."""

    @pytest.mark.parametrize(
        "url",
        [
            "/t/kesa-kauss/standings/?_export=csv",
            "/t/kesa-kauss/standings/?_export=xlsx",
            "/t/kesa-kauss/standings.pdf",
            "/t/kesa-kauss/standings.pdf?round=1",
            "/ranking/rating/?_export=csv",
        ],
    )
    def test_an_export_after_a_new_confirmation_is_fresh(
        self,
        client: Client,
        round_in_play,
        url,
        django_capture_on_commit_callbacks,
        django_assert_max_num_queries,
    ):
        _tournament, _round, tables = round_in_play
        before = client.get(url)
        with django_assert_max_num_queries(HIT_QUERIES):
            assert client.get(url).content == before.content  # from the cache

        with django_capture_on_commit_callbacks(execute=True):
            confirm(tables[1])

        after = client.get(url)
        assert after.status_code == 200
        assert after.content != before.content
        if "csv" in url:
            assert names_at(tables[1]) <= {
                row[1] for row in csv.reader(io.StringIO(after.content.decode("utf-8")))
            }


class TestHeavyRendersAreLimited:
    """An address that has the pages rendered (exports, documents, searches: whatever the cache
    did not hold) too often in a while gets 429; what the cache holds it is always served."""

    HOSTILE = "198.51.100.66"
    VIEWER = "203.0.113.5"

    @pytest.fixture(autouse=True)
    def few_renders(self, settings) -> None:
        settings.RATE_LIMITS = {**settings.RATE_LIMITS, "render": {"failures": 3, "seconds": 60}}

    def test_an_address_rendering_too_much_is_answered_429(self, client: Client, round_in_play):
        tournament, _round, _tables = round_in_play
        url = reverse("public:round", args=[tournament.slug, 1])
        for query in ("a", "b", "c"):
            assert client.get(url, {"q": query}, REMOTE_ADDR=self.HOSTILE).status_code == 200

        refused = client.get(url, {"q": "d"}, REMOTE_ADDR=self.HOSTILE)
        export = client.get(
            standings_url(tournament), {"_export": "xlsx"}, REMOTE_ADDR=self.HOSTILE
        )

        assert refused.status_code == 429 == export.status_code
        assert refused["Retry-After"] == "60"
        assert "Too many pages" in refused.content.decode()
        assert "Content-Security-Policy" in refused
        # What the cache holds is still served; another address has its own count.
        assert client.get(url, {"q": "a"}, REMOTE_ADDR=self.HOSTILE).status_code == 200
        assert client.get(url, {"q": "d"}, REMOTE_ADDR=self.VIEWER).status_code == 200

    def test_a_viewer_polling_the_standings_is_never_limited(self, client: Client, round_in_play):
        tournament, _round, _tables = round_in_play
        url = reverse("public:round", args=[tournament.slug, 1])
        for query in ("a", "b", "c", "d"):  # a hostile neighbour uses up its renders
            client.get(url, {"q": query}, REMOTE_ADDR=self.HOSTILE)

        for _poll in range(20):
            response = client.get(
                standings_url(tournament), HTTP_HX_REQUEST="true", REMOTE_ADDR=self.VIEWER
            )
            assert response.status_code == 200

    def test_a_limited_address_gets_the_page_as_it_stood_one_write_before(
        self, client: Client, round_in_play, django_capture_on_commit_callbacks
    ):
        """A venue's spectators may share one address: once it is limited, a page the last
        write invalidated is served as it stood before that write rather than refused."""
        tournament, _round, tables = round_in_play
        url = standings_url(tournament)
        before = client.get(url, REMOTE_ADDR=self.VIEWER).content
        for query in ("a", "b"):
            client.get(url, {"_export": "csv", "sort": query}, REMOTE_ADDR=self.VIEWER)
        with django_capture_on_commit_callbacks(execute=True):
            confirm(tables[1])

        response = client.get(url, REMOTE_ADDR=self.VIEWER)

        assert response.status_code == 200 and response.content == before
        assert client.get(url, REMOTE_ADDR=self.HOSTILE).content != before

    def test_signed_in_users_are_not_limited(self, client: Client, round_in_play):
        tournament, _round, _tables = round_in_play
        client.force_login(make_organiser())
        for query in ("a", "b", "c", "d", "e"):
            response = client.get(
                standings_url(tournament),
                {"_export": "csv", "sort": query},
                REMOTE_ADDR=self.HOSTILE,
            )
            assert response.status_code == 200


class TestWritesInvalidate:
    def test_a_confirmed_table_shows_on_the_next_request(
        self, client: Client, round_in_play, django_capture_on_commit_callbacks
    ):
        tournament, _round, tables = round_in_play
        first, second = names_at(tables[0]), names_at(tables[1])
        assert confirmed(client, tournament) == first  # table 2 is not confirmed yet
        client.get(standings_url(tournament))
        assert client.get(standings_url(tournament)).context is None  # from the cache

        with django_capture_on_commit_callbacks(execute=True):
            confirm(tables[1])

        assert confirmed(client, tournament) == first | second
        after = client.get(standings_url(tournament))
        assert after.context is not None  # rendered again
        by_name = {row.name: row.game_points for row in after.context["standings"].rows}
        assert by_name == {row[1]: int(row[4]) for row in export_rows(client, tournament)}

    def test_nothing_changes_before_the_commit(
        self, client: Client, round_in_play, django_capture_on_commit_callbacks
    ):
        tournament, _round, tables = round_in_play
        client.get(standings_url(tournament))
        generation = tournament_generation(tournament.pk)

        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            confirm(tables[1])

        # Inside the write's transaction the old pages stay: the new generation comes with
        # the commit (running the callbacks), never before it.
        assert tournament_generation(tournament.pk) == generation
        for callback in callbacks:
            callback()
        assert tournament_generation(tournament.pk) != generation

    def test_an_unlock_invalidates(
        self, client: Client, round_in_play, django_capture_on_commit_callbacks
    ):
        tournament, _round, tables = round_in_play
        chief = make_organiser()
        tournament.chief_referees.add(chief)
        first = names_at(tables[0])
        assert confirmed(client, tournament) == first

        with django_capture_on_commit_callbacks(execute=True):
            services.table_unlock(
                table=tables[0], writer=Writer(user=chief), reason="wrong points in deal 3"
            )

        assert confirmed(client, tournament) == set()

    def test_an_unlocked_tables_sheet_is_no_longer_public(
        self, client: Client, round_in_play, django_capture_on_commit_callbacks
    ):
        tournament, _round, tables = round_in_play
        chief = make_organiser()
        tournament.chief_referees.add(chief)
        url = reverse("public:table", args=[tournament.slug, 1, 1])
        assert client.get(url).status_code == 200
        assert client.get(url).context is None  # from the cache

        with django_capture_on_commit_callbacks(execute=True):
            services.table_unlock(
                table=tables[0], writer=Writer(user=chief), reason="wrong points in deal 3"
            )

        assert client.get(url).status_code == 404

    def test_a_correction_invalidates_the_provisional_standings(
        self, client: Client, round_in_play, django_capture_on_commit_callbacks
    ):
        tournament, _round, tables = round_in_play
        url = standings_url(tournament) + "?provisional=1"
        before = client.get(url).content
        last = tables[1].deal_results.order_by("-position").first()

        with django_capture_on_commit_callbacks(execute=True):
            services.deal_correct(
                table=tables[1],
                position=last.position,
                # The same declarer lost it: 40 points, not 75.
                entry=Play(Game.LIELAIS, str(last.player_id), tricks=3, points=40),
                base_version=last.version,
                client_key=next(keys),
                reason="40 points, not 75",
                writer=REFEREE,
            )

        assert client.get(url).content != before

    def test_publishing_and_closing_rounds_invalidate(
        self, client: Client, round_in_play, django_capture_on_commit_callbacks
    ):
        tournament, round_, tables = round_in_play
        tournament_url = reverse("public:tournament", args=[tournament.slug])
        round_two_url = reverse("public:round", args=[tournament.slug, 2])
        with django_capture_on_commit_callbacks(execute=True):
            confirm(tables[1])
        page = client.get(tournament_url).content

        with django_capture_on_commit_callbacks(execute=True):
            services.round_close(round_=round_, writer=Writer(user=make_organiser()))
        closed = client.get(tournament_url).content
        assert closed != page

        assert client.get(round_two_url).status_code == 404
        with django_capture_on_commit_callbacks(execute=True):
            round_two = tournament_services.round_create(tournament=tournament)
            round_generate_seating(round_=round_two, seed=2, by=None)
            tournament_services.round_publish(round_=round_two, by=None)
        assert client.get(round_two_url).status_code == 200
        assert client.get(tournament_url).content != closed

    def test_a_change_to_one_tournament_keeps_the_others_cached(
        self,
        client: Client,
        round_in_play,
        django_capture_on_commit_callbacks,
        django_assert_max_num_queries,
    ):
        tournament, _round, _tables = round_in_play
        other = make_tournament()
        make_registrations(other, 3)
        other_url = reverse("public:tournament", args=[other.slug])
        client.get(other_url)

        with django_capture_on_commit_callbacks(execute=True):
            tournament_changed(tournament.pk)

        with django_assert_max_num_queries(HIT_QUERIES):
            client.get(other_url)


class TestOneRequestRecomputes:
    """After a write, the first request to miss a page renders it; a request for the same page
    arriving meanwhile gets the page as it stood before the write, or waits for that render,
    never rendering it a second time. "Meanwhile" is simulated without timing: the second
    request is made from inside the first one's render."""

    def test_a_request_during_the_render_gets_the_previous_page(
        self, rf, round_in_play, django_capture_on_commit_callbacks
    ):
        tournament, _round, _tables = round_in_play
        renders = []

        def render(text: str):
            renders.append(text)
            return HttpResponse(text)

        first = cached_public_page(
            rf.get("/page/"),
            tournament_id=tournament.pk,
            params=frozenset(),
            render=lambda: render("before"),
        )
        assert first.content == b"before"
        with django_capture_on_commit_callbacks(execute=True):
            tournament_changed(tournament.pk)
        during = []

        def render_while_another_arrives():
            during.append(
                cached_public_page(
                    rf.get("/page/"),
                    tournament_id=tournament.pk,
                    params=frozenset(),
                    render=lambda: render("rendered twice"),
                )
            )
            return render("after")

        after = cached_public_page(
            rf.get("/page/"),
            tournament_id=tournament.pk,
            params=frozenset(),
            render=render_while_another_arrives,
        )

        assert renders == ["before", "after"]  # one render after the write
        assert during[0].content == b"before"
        assert after.content == b"after"
        # Once stored, everyone gets the new page, and the render is over: no lock is left.
        again = cached_public_page(
            rf.get("/page/"),
            tournament_id=tournament.pk,
            params=frozenset(),
            render=lambda: render("rendered again"),
        )
        assert again.content == b"after"
        assert renders == ["before", "after"]

    def test_without_a_previous_page_the_request_waits_for_the_render(
        self, rf, round_in_play, monkeypatch
    ):
        tournament, _round, _tables = round_in_play
        renders = []
        stored = []

        def render(text: str):
            renders.append(text)
            return HttpResponse(text)

        def pause(seconds: float) -> None:
            # While the second request waits, the first one's render ends and is stored.
            if not stored:
                stored.append(True)
                cache.set(key, page_cache._stored(HttpResponse("first")), timeout=60)

        monkeypatch.setattr(page_cache, "_pause", pause)
        request = rf.get("/new-page/")
        generation = tournament_generation(tournament.pk)
        key = page_cache.page_key(
            request, tournament_id=tournament.pk, generation=generation, params=frozenset()
        )
        during = []

        def render_while_another_arrives():
            during.append(
                cached_public_page(
                    rf.get("/new-page/"),
                    tournament_id=tournament.pk,
                    params=frozenset(),
                    render=lambda: render("second"),
                )
            )
            return render("first")

        cached_public_page(
            request,
            tournament_id=tournament.pk,
            params=frozenset(),
            render=render_while_another_arrives,
        )

        assert renders == ["first"]
        assert during[0].content == b"first"

    def test_a_waiting_request_renders_itself_when_the_render_never_ends(
        self, rf, round_in_play, monkeypatch
    ):
        tournament, _round, _tables = round_in_play
        pauses = []
        monkeypatch.setattr(page_cache, "_pause", pauses.append)
        during = []

        def render_while_another_arrives():
            during.append(
                cached_public_page(
                    rf.get("/slow-page/"),
                    tournament_id=tournament.pk,
                    params=frozenset(),
                    render=lambda: HttpResponse("second"),
                )
            )
            return HttpResponse("first")

        cached_public_page(
            rf.get("/slow-page/"),
            tournament_id=tournament.pk,
            params=frozenset(),
            render=render_while_another_arrives,
        )

        assert during[0].content == b"second"  # served all the same, after a bounded wait
        assert pauses  # it did wait

    def test_a_failed_render_leaves_no_lock_behind(self, rf, round_in_play):
        tournament, _round, _tables = round_in_play

        def broken():
            raise RuntimeError("template error")

        with pytest.raises(RuntimeError):
            cached_public_page(
                rf.get("/page/"), tournament_id=tournament.pk, params=frozenset(), render=broken
            )
        renders = []
        response = cached_public_page(
            rf.get("/page/"),
            tournament_id=tournament.pk,
            params=frozenset(),
            render=lambda: renders.append(1) or HttpResponse("fine"),
        )
        assert response.content == b"fine" and renders == [1]

    def test_a_lost_generation_serves_no_page_from_before_it(
        self, rf, round_in_play, django_capture_on_commit_callbacks
    ):
        tournament, _round, _tables = round_in_play
        cached_public_page(
            rf.get("/page/"),
            tournament_id=tournament.pk,
            params=frozenset(),
            render=lambda: HttpResponse("old"),
        )
        with django_capture_on_commit_callbacks(execute=True):
            tournament_changed(tournament.pk)
        cache.delete(f"zole:tournament:{tournament.pk}:generation")  # evicted
        during = []

        def render_while_another_arrives():
            during.append(
                cached_public_page(
                    rf.get("/page/"),
                    tournament_id=tournament.pk,
                    params=frozenset(),
                    render=lambda: HttpResponse("fresh"),
                )
            )
            return HttpResponse("new")

        cached_public_page(
            rf.get("/page/"),
            tournament_id=tournament.pk,
            params=frozenset(),
            render=render_while_another_arrives,
        )
        assert during[0].content != b"old"

    def test_standings_polled_after_a_confirmation_are_rendered_once(
        self, client: Client, round_in_play, django_capture_on_commit_callbacks, monkeypatch
    ):
        tournament, _round, tables = round_in_play
        before = client.get(standings_url(tournament)).content
        with django_capture_on_commit_callbacks(execute=True):
            confirm(tables[1])
        calls = []
        real = selectors.tournament_standings

        def standings_with_a_visitor_arriving(**kwargs):
            calls.append(kwargs)
            if len(calls) == 1:
                calls.append(Client().get(standings_url(tournament)).content)
            return real(**kwargs)

        monkeypatch.setattr(selectors, "tournament_standings", standings_with_a_visitor_arriving)

        after = client.get(standings_url(tournament)).content

        assert len([call for call in calls if isinstance(call, dict)]) == 1
        assert calls[1] == before
        assert after != before


# -- The same on Redis ---------------------------------------------------------------------------

REDIS_SERVER = shutil.which("redis-server")


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    """A redis-server on a free loopback port, for this module only."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", ""],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    pytest.fail("redis-server did not start")
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.mark.skipif(
    REDIS_SERVER is None, reason="Debian's redis-server is not installed (apt-get install)"
)
class TestOnRedis:
    @pytest.fixture(autouse=True)
    def redis_cache(self, settings, redis_url: str) -> None:
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": redis_url,
                "KEY_PREFIX": "zole-test",
            }
        }
        settings.RATE_LIMIT_STORE = "cache"  # as zole_site/settings.py sets it with REDIS_URL
        cache.clear()

    def test_pages_are_served_from_redis_and_a_confirmation_invalidates_them(
        self,
        client: Client,
        round_in_play,
        django_assert_max_num_queries,
        django_capture_on_commit_callbacks,
    ):
        tournament, _round, tables = round_in_play
        first = client.get(standings_url(tournament))
        with django_assert_max_num_queries(HIT_QUERIES):
            assert client.get(standings_url(tournament)).content == first.content

        with django_capture_on_commit_callbacks(execute=True):
            confirm(tables[1])

        assert confirmed(client, tournament) == names_at(tables[0]) | names_at(tables[1])
        assert client.get(standings_url(tournament)).content != first.content

    def test_rate_limit_failures_are_counted_in_redis(self, rf, settings):
        settings.RATE_LIMITS = {**settings.RATE_LIMITS, "login": {"failures": 2, "seconds": 60}}
        request = rf.post("/accounts/login/", REMOTE_ADDR="198.51.100.20")

        LOGIN_FAILURES.record_failure(request)
        assert LOGIN_FAILURES.refusal(request) is None
        LOGIN_FAILURES.record_failure(request)

        assert LOGIN_FAILURES.refusal(request).status_code == 429
        assert not FailureCount.objects.exists()
