"""The calendar feed and a tournament's event, read back as a calendar app reads them."""

from __future__ import annotations

import datetime

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from icalendar import Calendar

from tests.clock import fix_the_clock
from tests.factories import make_club, make_player, make_tournament
from tests.hostile import BAD_NUMBERS, hostile_client
from tournaments import services as tournament_services
from tournaments.models import Level, Registration, Round, RoundStatus

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 12, 5)  # tests.clock's day
FEED = "/calendar.ics"


@pytest.fixture
def clock(monkeypatch):
    return fix_the_clock(monkeypatch)


def feed(client, query: str = "") -> Calendar:
    response = client.get(FEED + query)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return Calendar.from_ical(response.content)


def events(calendar: Calendar) -> dict[str, object]:
    """The calendar's events by their summary (the tournament's name)."""
    return {str(event["SUMMARY"]): event for event in calendar.walk("VEVENT")}


def rename(tournament, name: str) -> None:
    tournament_services.tournament_settings_save(
        tournament=tournament, values={"name": name}, by=None
    )


def register(tournament, club) -> None:
    Registration.objects.create(tournament=tournament, player=make_player(club=club))


class TestTheFeed:
    def test_is_at_its_address(self):
        assert reverse("public:calendar") == FEED

    def test_lists_the_upcoming_tournaments_as_all_day_events(self, client, clock):
        make_tournament(
            name="Rīgas kauss",
            starts_on=TODAY + datetime.timedelta(days=7),
            ends_on=TODAY + datetime.timedelta(days=8),
            venue="Rīga, Brīvības 1",
        )
        event = events(feed(client))["Rīgas kauss"]
        assert event.decoded("DTSTART") == TODAY + datetime.timedelta(days=7)
        # RFC 5545: an all-day event ends before DTEND, the day after its last.
        assert event.decoded("DTEND") == TODAY + datetime.timedelta(days=9)
        assert str(event["LOCATION"]) == "Rīga, Brīvības 1"

    def test_links_each_event_to_its_tournaments_page(self, client, clock, settings):
        settings.SITE_URL = "https://zole.example"
        tournament = make_tournament(name="Rīgas kauss", starts_on=TODAY)
        event = events(feed(client))["Rīgas kauss"]
        page = f"https://zole.example/t/{tournament.slug}/"
        assert str(event["URL"]) == page
        assert page in str(event["DESCRIPTION"])
        assert str(event["UID"]) == f"tournament-{tournament.pk}@zole.example"

    def test_leaves_out_the_finished_tournaments(self, client, clock):
        make_tournament(name="Vakardiena", starts_on=TODAY - datetime.timedelta(days=1))
        played = make_tournament(name="Izspēlēts", starts_on=TODAY, rounds_planned=1)
        Round.objects.create(tournament=played, number=1, status=RoundStatus.CLOSED)
        make_tournament(name="Šodiena", starts_on=TODAY)
        assert set(events(feed(client))) == {"Šodiena"}

    def test_a_tournament_played_today_stays_until_its_last_day(self, client, clock):
        make_tournament(
            name="Divas dienas",
            starts_on=TODAY - datetime.timedelta(days=1),
            ends_on=TODAY,
        )
        assert set(events(feed(client))) == {"Divas dienas"}

    def test_is_named_in_the_readers_language(self, client, clock):
        make_tournament()
        calendar = feed(client, "?level=national")
        assert str(calendar["X-WR-CALNAME"]) == "Zole tournaments · Level: national"
        client.cookies["django_language"] = "lv"
        assert str(feed(client)["X-WR-CALNAME"]) == "Zoles turnīri"


class TestAnEdit:
    def test_keeps_the_uid_and_raises_the_sequence(
        self, client, clock, django_capture_on_commit_callbacks
    ):
        tournament = make_tournament(name="Rīgas kauss", starts_on=TODAY)
        before = events(feed(client))["Rīgas kauss"]
        clock.advance(minutes=5)
        with django_capture_on_commit_callbacks(execute=True):
            rename(tournament, "Rīgas lielais kauss")
        after = events(feed(client))["Rīgas lielais kauss"]
        assert after["UID"] == before["UID"]
        assert after["SEQUENCE"] > before["SEQUENCE"]
        assert after.decoded("LAST-MODIFIED") > before.decoded("LAST-MODIFIED")
        assert after.decoded("DTSTAMP") == after.decoded("LAST-MODIFIED")

    def test_renews_the_cached_feed(self, client, clock, django_capture_on_commit_callbacks):
        tournament = make_tournament(name="Rīgas kauss", starts_on=TODAY)
        feed(client)  # now in the cache
        with django_capture_on_commit_callbacks(execute=True):
            rename(tournament, "Rīgas lielais kauss")
        assert set(events(feed(client))) == {"Rīgas lielais kauss"}

    def test_the_feed_is_served_from_the_cache_until_then(self, client, clock):
        make_tournament(name="Rīgas kauss", starts_on=TODAY)
        feed(client)
        make_tournament(name="Cēsu kauss", starts_on=TODAY)  # no service: the cache is not told
        with CaptureQueriesContext(connection) as queries:
            assert set(events(feed(client))) == {"Rīgas kauss"}
        assert len(queries) == 0


class TestFilters:
    def test_by_level(self, client, clock):
        make_tournament(name="Kluba", starts_on=TODAY, level=Level.CLUB)
        make_tournament(name="Valsts", starts_on=TODAY, level=Level.NATIONAL)
        assert set(events(feed(client, "?level=national"))) == {"Valsts"}
        assert set(events(feed(client, "?level="))) == {"Kluba", "Valsts"}

    def test_by_the_club_whose_players_are_registered(self, client, clock):
        ozols, liepa = make_club(name="Ozols"), make_club(name="Liepa")
        ozola = make_tournament(name="Ozola turnīrs", starts_on=TODAY)
        for _ in range(3):  # listed once, however many of its players
            register(ozola, ozols)
        register(make_tournament(name="Liepas turnīrs", starts_on=TODAY), liepa)
        calendar = feed(client, f"?club={ozols.pk}")
        assert set(events(calendar)) == {"Ozola turnīrs"}
        assert str(calendar["X-WR-CALNAME"]) == "Zole tournaments · Ozols"

    def test_by_both(self, client, clock):
        ozols = make_club()
        register(make_tournament(name="Kluba", starts_on=TODAY, level=Level.CLUB), ozols)
        register(make_tournament(name="Valsts", starts_on=TODAY, level=Level.NATIONAL), ozols)
        assert set(events(feed(client, f"?club={ozols.pk}&level=club"))) == {"Kluba"}

    def test_an_unknown_club_or_level_is_no_page(self, client, clock):
        assert client.get(f"{FEED}?club=999999").status_code == 404
        assert client.get(f"{FEED}?level=world").status_code == 404


class TestHostileQueries:
    @pytest.mark.parametrize(
        "query",
        [
            *(f"?club={number}" for number in BAD_NUMBERS),
            *(f"?level={number}" for number in BAD_NUMBERS),
            "?club=%00",
            "?level=club%00",
            "?le%00vel=club",
            f"?club={10**40}",
        ],
    )
    def test_never_fail(self, clock, query):
        make_tournament(starts_on=TODAY)
        response = hostile_client().get(FEED + query)
        assert response.status_code in (200, 302, 400, 404)  # NUL: 400, as on every page

    def test_an_unknown_or_repeated_parameter_is_sent_to_the_feeds_own_address(self, client):
        response = client.get(f"{FEED}?level=club&level=national&utm_source=x")
        assert response.status_code == 302
        assert response["Location"] == f"{FEED}?level=national"


# A render of the feed: the club, then the tournaments with their rounds counted.
FEED_QUERIES = 2


def test_the_feeds_queries_do_not_grow_with_its_tournaments(client, clock):
    club = make_club()

    def rendered_queries() -> int:
        cache.clear()  # a render, not the page from the cache
        with CaptureQueriesContext(connection) as captured:
            calendar = feed(client, f"?club={club.pk}&level=club")
        assert events(calendar)
        return len(captured)

    register(make_tournament(starts_on=TODAY), club)
    assert rendered_queries() == FEED_QUERIES
    for _ in range(5):
        tournament = make_tournament(starts_on=TODAY)
        register(tournament, club)
        Round.objects.create(tournament=tournament, number=1, status=RoundStatus.CLOSED)
    assert rendered_queries() == FEED_QUERIES


class TestOneTournament:
    def test_its_event_is_added_whatever_its_phase(self, client, clock):
        tournament = make_tournament(name="Vakardiena", starts_on=TODAY - datetime.timedelta(2))
        response = client.get(reverse("public:tournament_calendar", args=[tournament.slug]))
        assert response.status_code == 200
        assert response["Content-Type"] == "text/calendar; charset=utf-8"
        calendar = Calendar.from_ical(response.content)
        assert set(events(calendar)) == {"Vakardiena"}
        assert str(calendar["X-WR-CALNAME"]) == "Vakardiena"

    def test_has_the_uid_of_the_feeds_event(self, client, clock):
        tournament = make_tournament(name="Rīgas kauss", starts_on=TODAY)
        response = client.get(reverse("public:tournament_calendar", args=[tournament.slug]))
        one = events(Calendar.from_ical(response.content))["Rīgas kauss"]
        assert one["UID"] == events(feed(client))["Rīgas kauss"]["UID"]

    def test_is_linked_from_the_tournaments_page(self, client):
        tournament = make_tournament()
        page = client.get(reverse("public:tournament", args=[tournament.slug])).content.decode()
        assert f'href="/t/{tournament.slug}/calendar.ics"' in page
        assert "Add to calendar" in page


def test_the_home_page_offers_a_subscription(client, settings):
    settings.SITE_URL = "https://zole.example"
    page = client.get("/").content.decode()
    assert 'href="webcal://zole.example/calendar.ics"' in page
    assert "Subscribe to the calendar" in page
