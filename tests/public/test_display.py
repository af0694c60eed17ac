"""The hall display (/t/<slug>/display/): the current round's seating by table and by name, the
round clock and the top of the standings, for a projector; from the cache, in a fixed number of
queries whatever the size of the event; its clock never cached."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from hall.services import display_links
from scoring import selectors
from scoring.services import round_generate_seating
from tests.clock import fix_the_clock
from tests.factories import make_organiser, make_registrations, make_tournament
from tests.tournament_play import played_tournament, publish_next_round
from tournaments import services as tournament_services
from tournaments.models import Player, Round, RoundStatus, Seat

pytestmark = pytest.mark.django_db

# The display's queries, whatever the size of the event: the tournament's id (all the cached
# display needs), the tournament; its public rounds;
# the round's tables, their seats with the players, the confirmed results, the deals of tables
# confirmed short; the standings' rounds, entries and results; the round open for check-in.
DISPLAY_QUERIES = 11
# Its clock: the tournament and its public rounds.
CLOCK_QUERIES = 2


def display_url(tournament) -> str:
    return reverse("public:display", args=[tournament.slug])


def clock_url(tournament) -> str:
    return reverse("public:display_clock", args=[tournament.slug])


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


class TestWhatItShows:
    def test_the_round_in_play_by_table_by_name_and_the_standings(self, client: Client):
        tournament = played_tournament(players=9, rounds=1, slug="zale", rounds_planned=3)
        round_two = publish_next_round(tournament, seed=5)

        response = client.get(display_url(tournament))

        assert response.status_code == 200
        hall = response.context["hall"]
        assert hall.round == round_two and not hall.round_is_finished
        seats = Seat.objects.filter(table__round=round_two).select_related(
            "registration__player", "table"
        )
        table_of = {seat.registration.player.full_name: seat.table.number for seat in seats}
        assert {player.name: player.table_number for player in hall.players} == table_of
        assert [table.number for table in hall.tables] == [1, 2, 3]
        assert len(hall.standings) == 9 and hall.standings[0].rank == 1
        text = text_of(response.content.decode())
        assert "Round 2 of 3" in text and "tables confirmed: 0 of 3" in text
        for name in table_of:
            assert name in text
        assert "Standings" in text and "Find your table" in text
        # its own minimal page: no site header, no navigation
        html = response.content.decode()
        assert 'class="site-header"' not in html and 'class="site-nav"' not in html

    def test_the_players_in_the_languages_alphabetical_order(self, client: Client):
        tournament = make_tournament(slug="alfabets")
        entries = make_registrations(tournament, 6)
        names = [
            "Čakste Ilze",
            "Celms Anna",
            "Ābele Jānis",
            "Zariņa Māra",
            "Avots Pēteris",
            "Žagare",
        ]
        for entry, name in zip(entries, names, strict=True):
            Player.objects.filter(pk=entry.player_id).update(full_name=name)
        publish_next_round(tournament)

        latvian = client.get(display_url(tournament), HTTP_ACCEPT_LANGUAGE="lv")

        shown = [player.name for player in latvian.context["hall"].players]
        assert shown == [
            "Avots Pēteris",
            "Ābele Jānis",
            "Celms Anna",
            "Čakste Ilze",
            "Zariņa Māra",
            "Žagare",
        ]

    def test_between_rounds_the_last_closed_round_is_finished(self, client: Client):
        tournament = played_tournament(players=6, rounds=2, slug="beigusies", rounds_planned=4)
        text = text_of(client.get(display_url(tournament)).content.decode())
        assert "Round 2, finished" in text and "tables confirmed: 2 of 2" in text

    def test_a_published_round_goes_before_a_closed_later_one(self):
        """The live round is the one the hall plays, whatever the numbers say."""
        tournament = played_tournament(players=6, rounds=2, slug="seciba", rounds_planned=4)
        Round.objects.filter(tournament=tournament, number=1).update(status=RoundStatus.IN_PLAY)
        assert selectors.display_round(tournament=tournament).number == 1

    def test_before_any_round_it_says_so_and_has_no_standings(self, client: Client):
        tournament = make_tournament(slug="sakums")
        make_registrations(tournament, 6)
        response = client.get(display_url(tournament))
        assert response.status_code == 200
        text = text_of(response.content.decode())
        assert "No round is published yet." in text and "No results yet." in text
        assert response.context["hall"].standings == []

    def test_an_unknown_tournament_is_not_found(self, client: Client):
        assert client.get("/t/nav-tada/display/").status_code == 404
        assert client.get("/t/nav-tada/display/clock/").status_code == 404

    def test_it_answers_head(self, client: Client):
        tournament = played_tournament(players=6, rounds=1, slug="galva")
        head = client.head(display_url(tournament))
        assert head.status_code == 200 and head.content == b""

    def test_the_public_tournament_page_links_it(self, client: Client):
        tournament = played_tournament(players=6, rounds=1, slug="saite")
        page = client.get(reverse("public:tournament", args=[tournament.slug]))
        assert display_url(tournament) in page.content.decode()


class TestTheClock:
    @pytest.fixture
    def timed(self, monkeypatch):
        clock = fix_the_clock(monkeypatch)
        tournament = make_tournament(slug="pulkstenis", round_time_limit=55)
        make_registrations(tournament, 6)
        round_ = publish_next_round(tournament)
        return clock, tournament, round_

    def test_a_running_clock_large_on_the_page_and_fresh_from_its_own_address(
        self, client: Client, timed
    ):
        clock, tournament, round_ = timed
        assert "not started yet" in client.get(clock_url(tournament)).content.decode()
        tournament_services.round_clock_start(round_=round_, by=make_organiser())
        clock.advance(minutes=5)

        page = client.get(display_url(tournament)).content.decode()
        assert 'data-remaining="3000"' in page and "50:00" in page
        # htmx fetches the clock at once (the page may come from the cache) and every 20 s
        assert f'hx-get="{clock_url(tournament)}" hx-trigger="load, every 20s"' in page

        clock.advance(seconds=30)
        fragment = client.get(clock_url(tournament))
        assert "no-store" in fragment["Cache-Control"]
        html = fragment.content.decode()
        assert 'data-remaining="2970"' in html and "49:30" in html
        assert 'hx-trigger="every 20s"' in html  # its copy does not reload itself at once
        assert "Round 1: time left" in text_of(html)

        clock.advance(minutes=50)
        assert "Time is up" in client.get(clock_url(tournament)).content.decode()

    def test_an_untimed_tournament_shows_no_clock(self, client: Client):
        tournament = played_tournament(players=6, rounds=1, slug="bez-laika")
        publish_next_round(tournament, seed=3)
        fragment = client.get(clock_url(tournament)).content.decode()
        assert "round-clock-time" not in fragment and "not started" not in fragment
        assert "data-clock-time" not in client.get(display_url(tournament)).content.decode()


class TestCacheAndQueries:
    def test_the_page_and_its_live_part_come_from_the_cache_the_clock_never(
        self, client: Client, django_assert_max_num_queries
    ):
        tournament = played_tournament(players=9, rounds=1, slug="kese")
        publish_next_round(tournament, seed=2)
        page = client.get(display_url(tournament))
        live = client.get(display_url(tournament), HTTP_HX_REQUEST="true")
        assert "<html" in page.content.decode() and "<html" not in live.content.decode()
        assert 'id="display-live"' in live.content.decode()

        with django_assert_max_num_queries(1):  # the tournament's id, then the cache
            again = client.get(display_url(tournament))
        with django_assert_max_num_queries(1):
            live_again = client.get(display_url(tournament), HTTP_HX_REQUEST="true")
        assert again.content == page.content and live_again.content == live.content

        with CaptureQueriesContext(connection) as first:
            client.get(clock_url(tournament))
        with CaptureQueriesContext(connection) as second:
            client.get(clock_url(tournament))
        assert len(first) == len(second) == CLOCK_QUERIES

    def test_a_fixed_number_of_queries_from_9_to_600_players(self, client: Client):
        counts = []
        for players in (9, 600):
            tournament = played_tournament(
                players=players, rounds=1, slug=f"zale-{players}", rounds_planned=3
            )
            publish_next_round(tournament, seed=4)
            with CaptureQueriesContext(connection) as queries:
                response = client.get(display_url(tournament))
            assert response.status_code == 200
            assert len(response.context["hall"].players) == players
            counts.append(len(queries))
        assert counts == [DISPLAY_QUERIES, DISPLAY_QUERIES]


class TestTheSeatingFillsTheScreen:
    """The table cards' grid on a large screen: as many columns as give the largest type with
    every table in view; a field too large for that scrolls, in type still read across a hall."""

    @pytest.mark.parametrize("tables", [1, 4, 6, 13, 30, 40])
    @pytest.mark.parametrize("wide", [True, False])
    def test_every_table_has_a_place(self, tables, wide):
        grid = selectors.seating_grid(tables=tables, seats=4, longest_name=24, wide=wide)
        assert grid.columns * grid.rows >= tables > grid.columns * (grid.rows - 1)

    def test_a_small_event_is_all_in_view_in_large_type(self):
        grid = selectors.seating_grid(tables=6, seats=3, longest_name=24, wide=True)
        assert not grid.scrolls
        assert grid.type_rem >= 1.5

    def test_a_large_field_scrolls_rather_than_shrink_below_hall_size(self):
        grid = selectors.seating_grid(tables=40, seats=4, longest_name=24, wide=True)
        assert grid.scrolls
        assert grid.type_rem >= 1.1
        beside_the_standings = selectors.seating_grid(
            tables=30, seats=3, longest_name=24, wide=False
        )
        assert beside_the_standings.columns == 2 and beside_the_standings.type_rem >= 0.95

    @pytest.mark.parametrize("wide", [True, False])
    def test_until_it_scrolls_more_tables_or_longer_names_never_give_larger_type(self, wide):
        grids = [
            selectors.seating_grid(tables=tables, seats=3, longest_name=20, wide=wide)
            for tables in range(1, 41)
        ]
        in_view = [grid.type_rem for grid in grids if not grid.scrolls]
        assert in_view == sorted(in_view, reverse=True)
        assert all(grid.type_rem >= 0.95 for grid in grids)
        by_name = [
            selectors.seating_grid(tables=8, seats=3, longest_name=name, wide=wide)
            for name in range(8, 30)
        ]
        in_view = [grid.type_rem for grid in by_name if not grid.scrolls]
        assert in_view == sorted(in_view, reverse=True)

    def test_the_display_names_its_grid(self, client: Client):
        tournament = make_tournament(slug="zale-6")
        make_registrations(tournament, 18)
        round_ = tournament_services.round_create(tournament=tournament)
        round_generate_seating(round_=round_, seed=1, by=None)
        tournament_services.round_publish(round_=round_, by=None)
        response = client.get(display_url(tournament))
        grid = response.context["hall"].seating_grid
        html = response.content.decode()
        assert f'class="display-tables {grid.classes}"' in html


class TestThePrivateLink:
    """The hall display by the organiser's private link (/t/<slug>/display/<token>/): all the
    public display shows and the round's check-in code, for the screen in the hall."""

    @pytest.fixture
    def hall(self):
        tournament = make_tournament(slug="kauss")
        make_registrations(tournament, 7)
        round_ = tournament_services.round_create(tournament=tournament)
        link = display_links.display_link_issue(tournament=tournament, by=None)
        return tournament, round_, reverse("public:private_display", args=["kauss", link.token])

    def test_it_shows_the_public_display_and_the_code(self, client: Client, hall):
        tournament, round_, url = hall
        public = client.get(display_url(tournament)).content.decode()

        page = client.get(url).content.decode()
        live = client.get(url, HTTP_HX_REQUEST="true").content.decode()

        assert round_.check_in_code in page and round_.check_in_code in live
        assert round_.check_in_code not in public
        assert f'hx-get="{url}"' in page  # the live part refreshes from the private address
        for shown in (tournament.name, "Check-in for round 1", "No round is published yet."):
            assert shown in public and shown in page

    def test_it_is_never_cached_nor_indexed(self, client: Client, hall):
        _tournament, _round, url = hall

        response = client.get(url)

        assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
        assert response["X-Robots-Tag"] == "noindex, nofollow"

    def test_once_seated_it_shows_no_code(self, client: Client, hall):
        _tournament, round_, url = hall
        round_generate_seating(round_=round_, mode="random", seed=1, by=None)

        assert round_.check_in_code not in client.get(url).content.decode()

    def test_an_unknown_link_is_not_found_and_counted(self, settings, hall):
        settings.RATE_LIMITS = {**settings.RATE_LIMITS, "check-in": {"failures": 2, "seconds": 600}}
        guesser = Client(REMOTE_ADDR="10.6.6.6")
        url = reverse("public:private_display", args=["kauss", "x" * 43])

        assert [guesser.get(url).status_code for _ in range(3)] == [404, 404, 429]

    def test_a_link_of_another_tournament_is_not_found(self, client: Client, hall):
        _tournament, _round, url = hall
        make_tournament(slug="cits")

        assert client.get(url.replace("/kauss/", "/cits/")).status_code == 404

    def test_a_renewed_or_revoked_link_is_gone_and_the_screen_reloads(self, client: Client, hall):
        tournament, round_, url = hall
        display_links.display_link_issue(tournament=tournament, by=None)

        gone = client.get(url)
        polled = client.get(url, HTTP_HX_REQUEST="true")

        assert gone.status_code == 410 and round_.check_in_code not in gone.content.decode()
        assert "organiser" in gone.content.decode()
        assert polled.status_code == 410 and polled["HX-Refresh"] == "true"

    def test_a_query_string_is_dropped(self, client: Client, hall):
        _tournament, _round, url = hall

        response = client.get(url + "?utm_source=x")

        assert response.status_code == 302 and response.url == url
