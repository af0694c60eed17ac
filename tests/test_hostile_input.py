"""Hostile input against every page of every app: names with markup and SQL in them shown
escaped on each organiser and public page, odd query strings on pages of several apps, and
addresses with huge or odd numbers, which are not found.

The attacks on one app's forms and pages are tested with the app (tests/<app>/
test_hostile_input.py)."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from signups.services import signup_create
from tests import hostile
from tests.factories import make_tournament
from tests.hostile import (
    ESCAPED_SCRIPT,
    HOSTILE_NAMES,
    HUGE,
    SCRIPT,
    World,
    assert_escaped,
    hostile_client,
)

pytestmark = pytest.mark.django_db

world = hostile.world  # a fixture: the tournament full of hostile names
staff = hostile.staff  # a fixture: an organiser signed in


def organiser_pages(world: World) -> list[str]:
    slug = world.tournament.slug
    return [
        reverse("organise:dashboard"),
        reverse("organise:players"),
        reverse("organise:players") + "?q=%3Cscript%3E",
        reverse("organise:clubs"),
        reverse("organise:player_edit", args=[world.players[0].pk]),
        reverse("organise:detail", args=[slug]),
        reverse("organise:edit", args=[slug]),
        reverse("organise:registrations", args=[slug]),
        reverse("organise:registration_edit", args=[slug, world.entries[0].pk]),
        reverse("organise:meetings", args=[slug]),
        reverse("organise:signups", args=[slug]),
        reverse("organise:round", args=[slug, 1]),
        reverse("organise:round", args=[slug, 2]),
        reverse("organise:roles", args=[slug]),
        reverse("organise:referees", args=[slug, 2]),
        reverse("organise:audit", args=[slug]),
        reverse("organise:audit", args=[slug]) + "?player=%3Cscript%3E",
        reverse("organise:fees", args=[slug]),
        reverse("documents:prizes", args=[slug]),
        reverse("entry:table_sheet", args=[world.table.pk]),
        reverse("entry:table_sheet", args=[world.round_1.tables.first().pk]),
        reverse("entry:table_sheet", args=[world.table.pk]) + "?correct=1",
    ]


def public_pages(world: World) -> list[str]:
    slug = world.tournament.slug
    return [
        reverse("home"),
        reverse("public:tournament", args=[slug]),
        reverse("public:round", args=[slug, 1]),
        reverse("public:round", args=[slug, 2]),
        reverse("public:round", args=[slug, 1]) + "?q=%3Cscript%3E",
        reverse("public:table", args=[slug, 1, 1]),
        reverse("public:standings", args=[slug]),
        reverse("public:standings", args=[slug]) + "?round=1",
        reverse("public:standings", args=[slug]) + "?provisional=1",
        reverse("public:statistics", args=[slug]),
        reverse("public:player", args=[world.players[0].pk]),
        reverse("public:player", args=[world.players[7].pk]),
        reverse("entry:token_sheet", args=[world.token.token]),
        reverse("public:display", args=[slug]),
        reverse("public:signup", args=[slug]),
        reverse("public:my_check_in", args=[slug, world.entries[0].check_in_token]),
    ]


class TestNamesAreHarmless:
    def test_every_page_shows_them_escaped(self, world):
        staff, public = world.staff(), hostile_client()
        for client, urls in ((staff, organiser_pages(world)), (public, public_pages(world))):
            for url in urls:
                response = client.get(url)
                assert_escaped(response, url)
                # Shown, not dropped: every page names the tournament, a player or a club.
                assert ESCAPED_SCRIPT in response.content.decode(), url

    def test_online_registrations_show_them_escaped(self, world):
        """Typed by anyone on the public page: on both lists there, and on the organiser's."""
        tournament = world.tournament
        tournament.signup_until = timezone.now() + datetime.timedelta(days=1)
        tournament.signup_places = 3
        tournament.signup_late_until_round = tournament.rounds_planned  # round 1 is published
        tournament.save()
        for number, name in enumerate(HOSTILE_NAMES):
            signup_create(
                tournament=tournament, full_name=name, club=SCRIPT, licence_number=f"H-{number}"
            )
        slug = tournament.slug
        for client, url in (
            (hostile_client(), reverse("public:signup", args=[slug])),
            (world.staff(), reverse("organise:signups", args=[slug])),
        ):
            response = client.get(url)
            assert_escaped(response, url)
            assert ESCAPED_SCRIPT in response.content.decode(), url


class TestOrganiserForms:
    def test_addresses_with_huge_or_odd_numbers_are_not_found(self, staff):
        tournament = make_tournament()
        for url in (
            f"/organise/players/{HUGE}/",
            f"/organise/t/{tournament.slug}/registrations/{HUGE}/",
            f"/organise/t/{tournament.slug}/rounds/{HUGE}/",
            f"/organise/tables/{HUGE}/sheet/",
            f"/players/{HUGE}/",
            f"/t/{tournament.slug}/rounds/{HUGE}/",
            f"/t/{tournament.slug}/rounds/1/tables/{HUGE}/",
            f"/t/{tournament.slug}/rounds/{HUGE}/seating.pdf",
            f"/t/{tournament.slug}/rounds/{HUGE}/sheets.pdf",
            "/t/%3Cscript%3E/",
            "/r/%3Cscript%3E/",
            f"/r/{'x' * 5000}/",
            "/r/'%3B%20DROP%20TABLE%20tournaments_tabletoken%3B--/",
        ):
            assert staff.get(url).status_code == 404, url
        for url in (
            f"/organise/tables/{HUGE}/link/new/",
            f"/organise/t/{tournament.slug}/rounds/{HUGE}/publish/",
            f"/organise/t/{tournament.slug}/rounds/{HUGE}/close/",
        ):
            assert staff.post(url).status_code == 404, url


class TestPublicQueries:
    def test_odd_query_strings(self, world):
        slug = world.tournament.slug
        client = hostile_client()
        long_text = "x" * 5000
        queries = {
            reverse("public:round", args=[slug, 1]): [
                f"q={long_text}",
                "q=%3Cscript%3E",
                "q=%27%3B%20DROP%20TABLE%20x%3B--",
                "q=%E2%80%AE%F0%9F%83%8F",
                "q=%25%5F%5C",
            ],
            reverse("public:standings", args=[slug]): [
                "round=abc",
                f"round={HUGE}",
                "round=-1",
                "round=1e309",
                "provisional=%3Cscript%3E",
                "page=abc",
                f"page={HUGE}",
                "page=-1",
                "sort=%3Cscript%3E",
                "sort=-nonexistent",
                f"sort={long_text}",
                "_export=exe",
                "_export=%3Cscript%3E",
                "team-sort=%27",
                "team-page=-1",
            ],
            reverse("documents:standings_pdf", args=[slug]): ["round=abc", "round=-1", "round=0"],
            reverse("documents:round_sheets_pdf", args=[slug, 1]): ["blank=%3Cscript%3E"],
            reverse("organise:players"): ["q=%3Cscript%3E", f"q={long_text}"],
        }
        staff = world.staff()
        for url, strings in queries.items():
            for query in strings:
                response = staff.get(f"{url}?{query}")
                assert response.status_code < 500, f"{url}?{query[:60]}"
                if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
                    assert_escaped(response, f"{url}?{query[:60]}")
        assert client.get(reverse("public:standings", args=[slug]) + "?round=1").status_code == 200


class TestLatePlayers:
    def test_the_late_and_the_absent_are_named_escaped(self, world):
        """The sheet's part on late players, the public sheet and the round pages name them."""
        import datetime

        from django.utils import timezone

        from scoring.late_players import late_arrival_record
        from scoring.models import LatePlayer
        from scoring.services import Writer
        from tournaments.models import Round, Tournament

        Tournament.objects.filter(pk=world.tournament.pk).update(
            late_wait_minutes=3, late_out_deal=4
        )
        start = timezone.now() - datetime.timedelta(minutes=9)
        Round.objects.filter(pk=world.round_2.pk).update(published_at=start)
        seats = list(world.table.seats.order_by("position"))
        late_arrival_record(
            table=world.table,
            player_key=str(seats[0].registration_id),
            arrived_at=None,
            client_key="hostile-late",
            writer=Writer(user=world.organiser),
        )
        # Shown as recorded (the service puts a player out only before a table's first deal).
        other = world.round_2.tables.exclude(pk=world.table.pk).first()
        absent = other.seats.order_by("position").first()
        LatePlayer.objects.create(
            table=other, registration=absent.registration, seat_position=absent.position
        )
        slug = world.tournament.slug
        staff, public = world.staff(), hostile_client()
        for client, url in (
            (staff, reverse("entry:table_sheet", args=[world.table.pk])),
            (public, reverse("entry:token_sheet", args=[world.token.token])),
            (staff, reverse("organise:round", args=[slug, 2])),
            (public, reverse("public:round", args=[slug, 2])),
        ):
            response = client.get(url)
            assert_escaped(response, url)
            page = response.content.decode()
            assert "late-list" in page or "out-of-round" in page, url
