"""The embeds (/embed/): the upcoming tournaments, a tournament's standings and the season ranking
as other sites frame them. Only they may be framed, and only by the sites the setting names;
every other page is still refused. They are cached like the public pages (a confirmation renews a
tournament's), run a fixed number of queries, and answer odd query strings as the other public
pages do, never with a 500."""

from __future__ import annotations

import datetime
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from demo.synthetic import build_played_tournaments
from public.embeds import RANKING_LIMIT_MAX, RANKING_LIMIT_MIN, ranking_limit
from ranking import services as ranking_services
from ranking.models import Season
from ranking.selectors import season_standings
from scoring import selectors
from tests.factories import make_registrations, make_season, make_tournament
from tests.tournament_play import (
    confirm,
    favourite_first,
    play_round_at,
    played_tournament,
    publish_next_round,
)
from tournaments.models import Level, Tournament

pytestmark = pytest.mark.django_db

FRAMERS = ["https://lzf.lv", "https://*.klubs.lv"]


def upcoming_url(**query: str) -> str:
    url = reverse("public:embed_upcoming")
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def standings_url(tournament: Tournament) -> str:
    return reverse("public:embed_standings", args=[tournament.slug])


def ranking_url() -> str:
    return reverse("public:embed_ranking")


def directives(response) -> dict[str, str]:
    policy = response["Content-Security-Policy"]
    return dict(item.strip().split(" ", 1) for item in policy.split(";"))


def in_days(days: int) -> datetime.date:
    return timezone.localdate() + datetime.timedelta(days=days)


@pytest.fixture
def framers(settings) -> list[str]:
    settings.EMBED_FRAME_ANCESTORS = FRAMERS
    return FRAMERS


@pytest.fixture
def finished() -> Tournament:
    return played_tournament(players=9, rounds=2, name="Rīgas kauss", slug="rigas-kauss")


@pytest.fixture
def season_played(season):
    """Season 2026: three finished tournaments of 30 players, placings computed."""
    build_played_tournaments(players=30, tournaments=3, per_tournament=12, rounds=2, seed=4)
    ranking_services.ranking_recompute()
    return season


def embed_urls(tournament: Tournament) -> list[str]:
    return [upcoming_url(), standings_url(tournament), ranking_url()]


# --- Framing -------------------------------------------------------------------------------------


class TestFraming:
    def test_the_embeds_may_be_framed_by_the_sites_the_setting_names(
        self, client: Client, framers, finished
    ):
        for url in embed_urls(finished):
            for attempt in ("rendered", "from the cache"):
                response = client.get(url)

                assert response.status_code == 200, (url, attempt)
                assert directives(response)["frame-ancestors"] == " ".join(framers), (url, attempt)
                # X-Frame-Options cannot name a site: it is not sent, or it would refuse them.
                assert "X-Frame-Options" not in response, (url, attempt)
                # The rest of the policy is the site's.
                assert directives(response)["script-src"] == "'self'"
                assert directives(response)["default-src"] == "'self'"

    def test_every_other_page_is_still_refused_to_every_frame(
        self, client: Client, framers, finished
    ):
        for url in [
            reverse("home"),
            reverse("public:standings", args=[finished.slug]),
            reverse("ranking:season"),
            reverse("login"),
        ]:
            response = client.get(url)

            assert response.status_code == 200, url
            assert response["X-Frame-Options"] == "DENY", url
            assert directives(response)["frame-ancestors"] == "'none'", url

    def test_without_a_site_named_the_embeds_are_refused_like_any_page(
        self, client: Client, settings, finished
    ):
        settings.EMBED_FRAME_ANCESTORS = []

        for url in embed_urls(finished):
            response = client.get(url)

            assert response.status_code == 200
            assert response["X-Frame-Options"] == "DENY"
            assert directives(response)["frame-ancestors"] == "'none'"

    def test_an_embed_that_is_not_found_is_not_framed(self, client: Client, framers):
        response = client.get("/embed/t/no-such-tournament/standings/")

        assert response.status_code == 404
        assert response["X-Frame-Options"] == "DENY"


# --- The upcoming tournaments ---------------------------------------------------------------------


class TestUpcoming:
    def test_lists_the_tournaments_still_to_start_soonest_first(self, client: Client):
        later = make_tournament(name="Vasaras kauss", starts_on=in_days(60), venue="Ogre")
        sooner = make_tournament(name="Ziemas kauss", starts_on=in_days(10))
        make_registrations(sooner, 5)
        make_tournament(name="Pagājušais kauss", starts_on=in_days(-30))
        started = make_tournament(name="Šodienas kauss", starts_on=in_days(0))
        moved = make_tournament(name="Pārceltais kauss", starts_on=in_days(5), rounds_planned=3)
        make_registrations(moved, 6)
        publish_next_round(moved)  # a round in play: in progress, whatever its date says

        response = client.get(upcoming_url())
        html = response.content.decode()

        assert [listed.tournament for listed in response.context["tournaments"]] == [
            sooner,
            later,
        ]
        assert html.index("Ziemas kauss") < html.index("Vasaras kauss")
        assert "5 players" in html and "Ogre" in html
        for absent in ("Pagājušais kauss", started.name, moved.name):
            assert absent not in html
        # Each links its full page, opened outside the frame.
        link = reverse("public:tournament", args=[sooner.slug])
        assert f'<a href="{link}" target="_blank" rel="noopener">' in html

    def test_a_level_lists_only_its_tournaments(self, client: Client):
        make_tournament(name="Kluba vakars", starts_on=in_days(3), level=Level.CLUB)
        make_tournament(name="Latvijas čempionāts", starts_on=in_days(9), level=Level.NATIONAL)

        html = client.get(upcoming_url(level="national")).content.decode()

        assert "Latvijas čempionāts" in html
        assert "Kluba vakars" not in html

    def test_a_club_lists_the_tournaments_its_players_are_registered_for(self, client: Client):
        theirs = make_tournament(name="Ogres kauss", starts_on=in_days(4))
        make_registrations(theirs, 3, clubs=1)
        club = theirs.registrations.first().player.club
        make_registrations(make_tournament(name="Cita kauss", starts_on=in_days(6)), 3, clubs=1)

        html = client.get(upcoming_url(club=str(club.pk))).content.decode()

        assert "Ogres kauss" in html and club.name in html
        assert "Cita kauss" not in html

    @pytest.mark.parametrize("club", ["999999", "abc", "-1"])
    def test_an_unknown_club_is_not_found(self, client: Client, club):
        assert client.get(upcoming_url(club=club)).status_code == 404

    def test_an_unknown_level_is_not_found(self, client: Client):
        assert client.get(upcoming_url(level="world")).status_code == 404

    def test_an_empty_level_lists_every_level(self, client: Client):
        make_tournament(name="Kluba vakars", starts_on=in_days(3), level=Level.CLUB)

        assert "Kluba vakars" in client.get(upcoming_url(level="")).content.decode()

    def test_says_so_when_none_is_announced(self, client: Client):
        response = client.get(upcoming_url())

        assert response.status_code == 200
        assert "No tournament is announced yet." in response.content.decode()


# --- A tournament's standings ---------------------------------------------------------------------


class TestStandings:
    def test_place_name_place_points_and_game_points_as_the_standings_page(
        self, client: Client, finished
    ):
        html = client.get(standings_url(finished)).content.decode()

        rows = selectors.tournament_standings(tournament=finished).rows
        cells = re.findall(
            r'<td class="number">([^<]*)</td>\s*<td class="name">([^<]*)</td>\s*'
            r'<td class="number">([^<]*)</td>\s*<td class="number">([^<]*)</td>',
            html,
        )
        assert cells == [
            (row.rank_label, row.name, row.place_points_text, str(row.game_points)) for row in rows
        ]
        full = reverse("public:standings", args=[finished.slug])
        assert f'<a href="{full}" target="_blank" rel="noopener">' in html
        # No site navigation, no language bar: the host page has its own.
        assert "site-nav" not in html and "language-switch" not in html

    def test_its_table_is_fetched_again_while_a_round_is_in_play_only(
        self, client: Client, finished
    ):
        """By htmx every minute, never a timed reload of the page (WCAG 2.2.1: a reader keeps
        his place)."""
        live = played_tournament(players=6, rounds=1, close=False, slug="tiesraide")
        html = client.get(standings_url(live)).content.decode()
        assert 'hx-trigger="every 60s"' in html and "htmx.min.js" in html
        assert 'http-equiv="refresh"' not in html
        html = client.get(standings_url(finished)).content.decode()
        assert "hx-trigger" not in html and "htmx.min.js" not in html

    def test_a_confirmed_table_renews_the_embed_at_once(
        self, client: Client, django_capture_on_commit_callbacks
    ):
        tournament = make_tournament(deals_per_round=3, rounds_planned=2, slug="atjauno")
        make_registrations(tournament, 6)
        with django_capture_on_commit_callbacks(execute=True):
            round_ = publish_next_round(tournament)
            tables = list(round_.tables.order_by("number"))
            for table in tables:
                play_round_at(table, favourite_first)
            confirm(tables[0])
        before = client.get(standings_url(tournament)).context["standings"]
        assert client.get(standings_url(tournament)).context is None  # from the cache

        with django_capture_on_commit_callbacks(execute=True):
            confirm(tables[1])
        after = client.get(standings_url(tournament))

        assert after.context is not None  # rendered anew
        counted = {row.name for row in after.context["standings"].rows if row.rounds}
        assert len(counted) == 6
        assert counted > {row.name for row in before.rows if row.rounds}

    def test_an_unknown_tournament_is_not_found(self, client: Client):
        assert client.get("/embed/t/nav-tada/standings/").status_code == 404


# --- The season ranking ---------------------------------------------------------------------------


class TestRanking:
    def test_lists_the_top_of_the_current_season(self, client: Client, season_played):
        response = client.get(ranking_url())
        html = response.content.decode()

        expected = season_standings(season=season_played).rows[:10]
        assert [row.name for row in response.context["rows"]] == [row.name for row in expected]
        assert season_played.name in html
        full = reverse("ranking:season") + f"?season={season_played.pk}"
        assert f'<a href="{full}" target="_blank" rel="noopener">' in html

    def test_a_limit_lists_that_many_players(self, client: Client, season_played):
        response = client.get(ranking_url(), {"limit": "25"})

        assert len(response.context["rows"]) == 25

    @pytest.mark.parametrize(
        ("asked", "listed"),
        [
            ("5", RANKING_LIMIT_MIN),
            ("0", RANKING_LIMIT_MIN),
            ("100000", RANKING_LIMIT_MAX),
            ("99999999999999999999999", 10),
            ("abc", 10),
            ("-3", 10),
            ("٣", 10),
            ("", 10),
            (None, 10),
        ],
    )
    def test_a_limit_is_brought_within_its_bounds(self, asked, listed):
        assert ranking_limit(asked) == listed

    def test_another_season_by_its_id(self, client: Client, season_played):
        other = make_season(2025)

        response = client.get(ranking_url(), {"season": str(other.pk)})

        assert response.status_code == 200
        assert response.context["season"] == other
        assert "No results yet." in response.content.decode()

    @pytest.mark.parametrize("season", ["abc", "999999", "-1", "٣"])
    def test_a_bad_season_is_not_found(self, client: Client, season_played, season):
        assert client.get(ranking_url(), {"season": season}).status_code == 404

    def test_without_a_season_says_so(self, client: Client):
        Season.objects.all().delete()

        response = client.get(ranking_url())

        assert response.status_code == 200
        assert "No results yet." in response.content.decode()


# --- Odd query strings ----------------------------------------------------------------------------


class TestOddQueries:
    def test_a_parameter_an_embed_does_not_read_is_sent_to_its_address(
        self, client: Client, finished
    ):
        for url, expected in [
            (upcoming_url(utm_source="klubs"), upcoming_url()),
            (standings_url(finished) + "?round=1", standings_url(finished)),
            (ranking_url() + "?limit=20&club=3", ranking_url() + "?limit=20"),
        ]:
            response = client.get(url)

            assert response.status_code == 302, url
            assert response["Location"] == expected

    def test_a_repeated_parameter_is_sent_to_its_last_value(self, client: Client):
        response = client.get(ranking_url() + "?limit=20&limit=30")

        assert response.status_code == 302
        assert response["Location"] == ranking_url() + "?limit=30"

    @pytest.mark.parametrize(
        "query",
        [
            "level=%00",
            "level=%ff%fe",
            "level=" + "x" * 5000,
            "limit=1e9",
            "season=%F0%9F%98%80",
            "season=1.5",
            "limit=%D9%A3",
        ],
    )
    def test_never_a_server_error(self, client: Client, finished, query):
        for url in embed_urls(finished):
            assert client.get(f"{url}?{query}").status_code in (200, 302, 400, 404)


# --- Queries --------------------------------------------------------------------------------------


def queries(client: Client, url: str) -> int:
    from django.core.cache import cache

    cache.clear()  # the pages are cached: count the queries of a rendering
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_queries_do_not_grow_with_the_data(client: Client, season):
    build_played_tournaments(players=24, tournaments=2, per_tournament=9, rounds=2, seed=1)
    ranking_services.ranking_recompute()
    small_tournament = played_tournament(players=9, rounds=2, slug="mazais")
    for days in (3, 4):
        make_registrations(make_tournament(starts_on=in_days(days)), 3)
    small = [queries(client, url) for url in embed_urls(small_tournament)]

    build_played_tournaments(
        players=90, tournaments=4, per_tournament=30, rounds=3, seed=2, prefix="big"
    )
    ranking_services.ranking_recompute()
    large_tournament = played_tournament(players=30, rounds=3, slug="lielais")
    for days in range(5, 25):
        tournament = make_tournament(starts_on=in_days(days))
        make_registrations(tournament, 4)
    large = [queries(client, url) for url in embed_urls(large_tournament)]

    assert large == small


def test_a_tournaments_change_renews_the_upcoming_list(client, django_capture_on_commit_callbacks):
    """Cached under the generation every tournament's write renews, as the calendar feed."""
    from core.page_cache import tournament_changed
    from tests.factories import make_tournament

    url = reverse("public:embed_upcoming")
    first = make_tournament(
        name="Pirmais kauss", starts_on=timezone.localdate() + datetime.timedelta(days=7)
    )
    assert "Pirmais kauss" in client.get(url).content.decode()
    Tournament.objects.filter(pk=first.pk).update(name="Pārdēvētais kauss")
    with django_capture_on_commit_callbacks(execute=True):
        tournament_changed(first.pk)
    assert "Pārdēvētais kauss" in client.get(url).content.decode()
