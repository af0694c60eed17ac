"""The player's own page by his secret link: his table and tablemates, the round clock, his
results as stored, his place, his fee and prize; its manifest and service worker; the link is
his alone (another's token shows only that player, an unknown one is a 404 and counted)."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import SeatResult
from scoring.selectors import prize_list, tournament_standings
from tests.factories import make_registrations, make_tournament, seat_keys
from tests.tournament_play import confirm_with_totals, publish_next_round
from tournaments import services
from tournaments.models import Round, RoundStatus
from tournaments.services import CategoryRow

pytestmark = pytest.mark.django_db


def my_url(entry) -> str:
    return reverse("public:my_check_in", args=[entry.tournament.slug, entry.check_in_token])


def play_rounds(tournament, count: int) -> None:
    """`count` rounds seated, every table confirmed (the first seat best), and closed."""
    for _number in range(count):
        round_ = publish_next_round(tournament, seed=tournament.rounds.count() + 1)
        for table in round_.tables.all():
            keys = seat_keys(table)
            confirm_with_totals(table, dict(zip(keys, [12, 4, -4, -12][: len(keys)], strict=True)))
        Round.objects.filter(pk=round_.pk).update(status=RoundStatus.CLOSED)


@pytest.fixture
def tournament():
    tournament = make_tournament(slug="gulbene", rounds_planned=3, round_time_limit=75)
    make_registrations(tournament, 8)
    return tournament


def test_the_page_shows_his_table_his_tablemates_and_the_rounds_clock(tournament, client):
    play_rounds(tournament, 1)
    round_ = publish_next_round(tournament, seed=5)
    entry = tournament.registrations.first()
    table = round_.tables.get(seats__registration=entry)
    seat = table.seats.get(registration=entry)

    page = client.get(my_url(entry)).content.decode()

    assert f"Table {table.number}, seat {seat.position}" in page
    for other in table.seats.exclude(registration=entry).select_related("registration__player"):
        assert other.registration.player.full_name in page
    seating = reverse("public:round", args=["gulbene", 2])
    assert f'href="{seating}#table-{table.number}"' in page
    clock = reverse("public:round_clock", args=["gulbene", 2])
    assert f'hx-get="{clock}"' in page and "75 minutes, not started yet" in page


def test_an_untimed_round_shows_no_clock(client):
    tournament = make_tournament()
    make_registrations(tournament, 8)
    publish_next_round(tournament)
    page = client.get(my_url(tournament.registrations.first())).content.decode()
    assert "round-clock" not in page


def test_his_results_round_by_round_are_the_stored_ones_with_his_tables_scores(tournament, client):
    play_rounds(tournament, 2)
    entry = tournament.registrations.all()[2]

    response = client.get(my_url(entry))

    page = response.content.decode()
    played = response.context["page"].played
    assert [round_.round_number for round_ in played] == [2, 1]
    for round_ in played:
        stored = {
            result.registration.player.full_name: result.game_points
            for result in SeatResult.objects.filter(
                table_result__table__round__tournament=tournament,
                table_result__table__round__number=round_.round_number,
                table_result__table__number=round_.table_number,
            )
        }
        assert {seat.name: seat.game_points for seat in round_.seats} == stored
        table_page = reverse(
            "public:table", args=["gulbene", round_.round_number, round_.table_number]
        )
        assert table_page in page
    assert f"Round 2 · table {played[0].table_number}" in page


def test_his_place_in_the_standings_with_a_link_to_them(tournament, client):
    play_rounds(tournament, 2)
    entry = tournament.registrations.all()[4]
    row = next(
        row
        for row in tournament_standings(tournament=tournament).rows
        if row.registration_id == entry.pk
    )

    page = client.get(my_url(entry)).content.decode()

    assert f"Place {row.rank_label}" in page
    assert f"{row.game_points} game points, {row.place_points_text} place points" in page
    assert reverse("public:standings", args=["gulbene"]) in page


def test_his_fee_and_once_final_his_prize(tournament, client):
    tournament.prize_shares = "60 40"
    tournament.save(update_fields=["prize_shares"])
    services.fee_categories_save(
        tournament=tournament, rows=[CategoryRow(None, "Standarta", Decimal(15))], by=None
    )
    services.fees_paid_set(tournament=tournament, paid=tournament.registrations.all(), by=None)
    play_rounds(tournament, 3)
    winner = prize_list(tournament=tournament).rows[0]
    entry = tournament.registrations.get(pk=winner.registration_id)

    page = client.get(my_url(entry)).content.decode().replace("\u00a0", " ")

    assert "Standarta 15.00 €" in page and "paid" in page
    assert f"Your prize: {winner.amount_text}".replace("\u00a0", " ") in page
    assert "Final standings" in page


def test_the_page_is_his_alone_and_never_kept_by_others(tournament, client):
    play_rounds(tournament, 1)
    mine, theirs = tournament.registrations.all()[:2]

    response = client.get(my_url(mine))

    page = response.content.decode()
    assert f"<h1>{mine.player.full_name}</h1>" in page
    assert theirs.check_in_token not in page
    assert response.context["registration"] == mine
    assert "no-cache" in response["Cache-Control"] and "private" in response["Cache-Control"]
    assert response["Referrer-Policy"] == "same-origin"  # the token never leaves the site
    assert '<meta name="robots" content="noindex">' in page


def test_an_unknown_link_and_its_manifest_are_not_found_and_counted(tournament, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "check-in": {"failures": 2, "seconds": 600}}
    visitor = Client(REMOTE_ADDR="10.7.7.8")
    manifest = reverse("public:my_page_manifest", args=["gulbene", "y" * 32])
    page = reverse("public:my_check_in", args=["gulbene", "y" * 32])
    assert [visitor.get(url).status_code for url in (manifest, page, page)] == [404, 404, 429]


def test_the_manifest_opens_his_page_and_nothing_else(tournament, client):
    entry = tournament.registrations.first()

    response = client.get(
        reverse("public:my_page_manifest", args=["gulbene", entry.check_in_token])
    )

    manifest = json.loads(response.content)
    assert response["Content-Type"] == "application/manifest+json"
    assert manifest["start_url"] == manifest["scope"] == my_url(entry)
    assert manifest["name"] == f"{entry.player.full_name} · {tournament.name}"
    assert manifest["icons"][0]["src"].endswith(".svg")
    page = client.get(my_url(entry)).content.decode()
    assert f'<link rel="manifest" href="{my_url(entry)}manifest.webmanifest">' in page


def test_the_worker_is_served_fresh_under_the_strict_policy_at_the_pages_folder(tournament, client):
    entry = tournament.registrations.first()
    worker = reverse("public:my_page_worker", args=["gulbene"])

    response = client.get(worker)

    script = response.content.decode()
    assert worker == "/t/gulbene/me/worker.js"  # its scope, the folder: the players' pages
    assert my_url(entry).startswith(worker.removesuffix("worker.js"))
    assert "Service-Worker-Allowed" not in response
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"
    assert response["Content-Security-Policy"] == django_settings.CONTENT_SECURITY_POLICY
    assert "/static/js/my-page.js" in script and "/static/css/site.css" in script
    page = client.get(my_url(entry)).content.decode()
    assert f'data-worker="{worker}"' in page and "data-offline-note hidden" in page


def test_the_messages_section_is_offered_when_the_site_has_its_keys(
    tournament, client, push_service
):
    entry = tournament.registrations.first()
    page = client.get(my_url(entry)).content.decode()
    assert 'id="my-notices"' in page
    assert f'data-key="{django_settings.VAPID_PUBLIC_KEY}"' in page
    subscribe = reverse("public:my_notices_subscribe", args=["gulbene", entry.check_in_token])
    assert f'data-subscribe="{subscribe}"' in page
    assert "/static/js/notices/my-notices.js" in page
    worker = client.get(reverse("public:my_page_worker", args=["gulbene"])).content.decode()
    assert "/static/js/notices/push-state.js" in worker  # kept for the offline copy
    assert 'addEventListener("push"' in worker and 'addEventListener("notificationclick"' in worker


def test_without_the_sites_keys_no_messages_are_offered(tournament, client):
    page = client.get(my_url(tournament.registrations.first())).content.decode()
    assert 'id="my-notices"' not in page and "my-notices.js" not in page


def test_the_pages_queries_do_not_grow_with_the_rounds_played(
    client, django_assert_max_num_queries
):
    tournament = make_tournament(rounds_planned=6)
    make_registrations(tournament, 8)
    entry = tournament.registrations.first()
    play_rounds(tournament, 1)
    with CaptureQueriesContext(connection) as after_one:
        client.get(my_url(entry))
    play_rounds(tournament, 4)

    with django_assert_max_num_queries(len(after_one)):
        response = client.get(my_url(entry))

    assert len(response.context["page"].played) == 5
