"""The ranking pages: season ranking, rating list, the player's page, the qualification list;
bad input answers 404 (never 500); the ranking pages run a fixed number of queries."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from demo.synthetic import build_played_tournaments
from ranking import services
from ranking.models import Invitation, Placing, PlayerRating
from ranking.services import QUALIFIERS_REGISTERED
from scoring import services as scoring_services
from tests.factories import (
    make_player,
    make_published_round,
    make_season,
    make_tournament,
    make_user,
    seat_keys,
)
from tests.ranking.test_services import CHIEF, play, small_tournament
from tests.tournament_play import (
    confirm,
    confirm_with_totals,
    publish_next_round,
)
from tournaments.models import AuditRecord, Club, Player, Registration, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(season):
    """Three finished synthetic tournaments of season 2026, placings and ratings computed."""
    build_played_tournaments(players=30, tournaments=3, per_tournament=12, rounds=2, seed=4)
    services.ranking_recompute()
    return season


def leader() -> Player:
    """The first of the (only) season's ranking."""
    from ranking.selectors import season_list, season_standings

    ranking = season_standings(season=season_list()[0])
    return Player.objects.get(pk=ranking.rows[0].player_id)


# --- The season ranking ------------------------------------------------------------------------


def test_the_season_ranking_lists_the_players_with_their_points(client, played):
    response = client.get(reverse("ranking:season"))
    assert response.status_code == 200
    body = response.content.decode()
    top = leader()
    assert top.full_name in body
    assert "Season ranking 2026" in body
    assert reverse("public:player", args=[top.pk]) in body


def test_the_ranking_pages_link_only_to_player_pages_that_exist(client, played):
    # A ranking or rating row of a player with no public result (the rows are derived data:
    # written by hand, or left behind): his name is shown without a link to a 404.
    tournament = Placing.objects.order_by("pk").first().tournament
    hidden = make_player(full_name="Slēpts Spēlētājs")
    Placing.objects.create(tournament=tournament, player=hidden, place=99, game_points=-50)
    PlayerRating.objects.create(player=hidden, mu=20, sigma=8, ordinal=-4, tables=1)
    from django.core.cache import cache

    cache.clear()
    hidden_page = reverse("public:player", args=[hidden.pk])
    assert client.get(hidden_page).status_code == 404
    for url in (reverse("ranking:season"), reverse("ranking:rating")):
        body = client.get(url).content.decode()
        assert "Slēpts Spēlētājs" in body, url
        assert f'href="{hidden_page}"' not in body, url
        assert f'href="{reverse("public:player", args=[leader().pk])}"' in body, url


def test_a_club_filter_lists_that_clubs_players_with_their_overall_ranks(client, played):
    club = Club.objects.order_by("pk").first()
    response = client.get(reverse("ranking:season"), {"club": club.pk})
    assert response.status_code == 200
    rows = response.context["table"].rows
    names = {row.record["name"] for row in rows}
    assert names
    assert names <= set(Player.objects.filter(club=club).values_list("full_name", flat=True))


def test_choosing_another_season_shows_its_ranking(client, played):
    empty = make_season(2020)
    response = client.get(reverse("ranking:season"), {"season": empty.pk})
    assert response.status_code == 200
    assert "No finished tournaments in this season yet." in response.content.decode()


@pytest.mark.parametrize(
    "query",
    [
        {"season": "abc"},
        {"season": "999999"},
        {"season": "-1"},
        {"season": "٣"},
        {"club": "x"},
        {"club": "999999"},
        {"per_page": "0"},
        {"per_page": "100000"},
    ],
)
def test_bad_input_is_a_404_never_a_500(client, played, query):
    assert client.get(reverse("ranking:season"), query).status_code == 404


@pytest.mark.parametrize(
    "query",
    [{"page": "abc"}, {"page": "9999"}, {"sort": "nonsense"}, {"_export": "pdf"}, {"club": ""}],
)
def test_harmless_odd_input_still_shows_the_page(client, played, query):
    assert client.get(reverse("ranking:season"), query).status_code == 200
    assert client.get(reverse("ranking:rating"), query).status_code == 200


def test_the_ranking_exports_as_csv_with_every_row(client, played):
    response = client.get(reverse("ranking:season"), {"_export": "csv"})
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:4] == ["Rank", "Player", "Club", "Ranking points"]
    assert len(rows) - 1 == Placing.objects.values("player").distinct().count()


def test_a_name_that_looks_like_a_formula_is_exported_as_text(client, played):
    Player.objects.filter(pk=leader().pk).update(full_name="=HYPERLINK(1)")
    response = client.get(reverse("ranking:season"), {"_export": "csv"})
    assert "'=HYPERLINK(1)" in response.content.decode()


def test_without_a_season_the_page_says_so(client, db):
    from ranking.models import Season

    Season.objects.all().delete()
    response = client.get(reverse("ranking:season"))
    assert response.status_code == 200
    assert "No season has been set up yet." in response.content.decode()


# --- The rating list -----------------------------------------------------------------------------


def test_the_rating_list_orders_by_the_conservative_rating(client, played):
    response = client.get(reverse("ranking:rating"))
    assert response.status_code == 200
    records = [row.record for row in response.context["table"].rows]
    ordinals = [record["ordinal"] for record in records]
    assert ordinals == sorted(ordinals, reverse=True)
    best = PlayerRating.objects.order_by("-ordinal").first()
    assert records[0]["name"] == best.player.full_name
    assert "μ − 3σ" in response.content.decode()


def test_the_rating_list_exports_as_csv(client, played):
    response = client.get(reverse("ranking:rating"), {"_export": "csv"})
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:4] == ["Rank", "Player", "Club", "Rating (μ − 3σ)"]
    assert len(rows) - 1 == PlayerRating.objects.count()


# --- The player's page -------------------------------------------------------------------------


def test_the_player_page_shows_ranking_points_per_event_and_a_rating_chart(client, played):
    top = leader()
    response = client.get(reverse("public:player", args=[top.pk]))
    assert response.status_code == 200
    body = response.content.decode()
    assert "Ranking points" in body
    assert "<svg" in body and "chart-band" in body and "chart-ordinal" in body
    for placing in Placing.objects.filter(player=top).select_related("tournament"):
        assert placing.tournament.name in body
    assert "<script" not in body.split('id="rating"')[1].split("</section>")[0]


def test_the_player_page_shows_one_rating_the_list_shows_and_says_what_it_means(client, played):
    """Not "μ 24,69 ± σ 8,18, μ − 3σ": one number, the rating list's, and its meaning in words."""
    from ranking.ranking_tables import DecimalColumn

    top = leader()
    rating = PlayerRating.objects.get(player=top)
    rating.mu, rating.sigma, rating.ordinal = 24.6912, 8.1834, 24.6912 - 3 * 8.1834
    rating.save()
    listed = client.get(reverse("ranking:rating")).content.decode()
    shown = DecimalColumn().render(rating.ordinal)
    assert shown == "0.14" and f">{shown}<" in listed
    page = client.get(reverse("public:player", args=[top.pk])).content.decode()
    summary = page.split('id="rating"')[1].split("<figure")[0]
    assert f"Rating <strong>{shown}</strong>" in summary
    assert "cautious estimate of the player's strength" in summary
    for shown_apart in ("μ", "σ", "24.69", "8.18"):
        assert shown_apart not in summary


def test_a_player_with_a_result_not_rated_yet_has_a_page_without_a_rating(client, played):
    # A confirmed table written without the rating hook (as an import does), not rated yet.
    round_ = make_published_round(players=6)
    table = round_.tables.order_by("number").first()
    confirm_with_totals(table, dict.fromkeys(seat_keys(table), 0))
    player = table.seats.first().registration.player
    response = client.get(reverse("public:player", args=[player.pk]))
    assert response.status_code == 200
    assert "No rated tables yet." in response.content.decode()


def test_a_player_without_results_has_no_page(client, played):
    # The register is not public (tests/public/test_views.py, TestPlayerPrivacy).
    assert client.get(reverse("public:player", args=[make_player().pk])).status_code == 404


# --- Queries: fixed, whatever the size -----------------------------------------------------------


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


def test_the_ranking_pages_run_a_fixed_number_of_queries(client, season):
    build_played_tournaments(players=24, tournaments=2, per_tournament=9, rounds=2, seed=1)
    services.ranking_recompute()
    urls = [
        reverse("ranking:season"),
        reverse("ranking:season") + "?_export=csv",
        reverse("ranking:rating"),
    ]
    small = [_queries(client, url) for url in urls]
    build_played_tournaments(
        players=150, tournaments=8, per_tournament=40, rounds=3, seed=2, prefix="big"
    )
    services.ranking_recompute()
    from django.core.cache import cache

    cache.clear()  # the pages are cached: count the queries of a rendering
    large = [_queries(client, url) for url in urls]
    assert large == small
    assert max(large) <= 4


# --- The qualification list of a final ----------------------------------------------------------


@pytest.fixture
def final(played):
    tournament = make_tournament(slug="finals", name="Latvijas čempionāta fināls", level="national")
    organiser = make_user(username="rīkotājs")
    tournament.organisers.add(organiser)
    return tournament, organiser


def test_visitors_are_sent_to_sign_in_and_other_accounts_refused(client, final):
    tournament, _organiser = final
    url = reverse("organise:qualification", args=[tournament.slug])
    response = client.get(url)
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    client.force_login(make_user())
    assert client.get(url).status_code == 403
    assert client.post(url).status_code == 403
    assert not tournament.registrations.exists()


def test_the_organiser_registers_the_top_n_and_the_invited_in_one_step(client, final, played):
    tournament, organiser = final
    played.qualifiers = 5
    played.save()
    champion = make_player(full_name="Titula Turētājs")
    Invitation.objects.create(season=played, player=champion, reason="Latvian champion")
    client.force_login(organiser)
    url = reverse("organise:qualification", args=[tournament.slug])

    page = client.get(url)
    assert page.status_code == 200
    rows = page.context["qualification"].rows
    assert [row.player for row in rows][-1] == champion
    assert "Latvian champion" in page.content.decode()
    expected = {row.player.pk for row in rows}
    assert len(expected) >= 6

    response = client.post(url)
    assert response.status_code == 302
    registered = set(
        Registration.objects.filter(tournament=tournament).values_list("player_id", flat=True)
    )
    assert registered == expected
    audit = AuditRecord.objects.get(tournament=tournament, action=QUALIFIERS_REGISTERED)
    assert audit.user == organiser and len(audit.detail["players"]) == len(expected)

    again = client.post(url, follow=True)
    assert "every qualifier is registered already" in again.content.decode()
    assert Registration.objects.filter(tournament=tournament).count() == len(expected)


def test_an_inactive_qualifier_is_listed_but_not_registered(client, final, played):
    tournament, organiser = final
    Player.objects.filter(pk=leader().pk).update(is_active=False)
    client.force_login(organiser)
    url = reverse("organise:qualification", args=[tournament.slug])
    client.post(url)
    assert not Registration.objects.filter(tournament=tournament, player=leader()).exists()
    assert Registration.objects.filter(tournament=tournament).exists()


def test_a_bad_season_on_the_qualification_page_is_a_404(client, final):
    tournament, organiser = final
    client.force_login(organiser)
    url = reverse("organise:qualification", args=[tournament.slug])
    assert client.get(url, {"season": "nope"}).status_code == 404
    assert client.get(url, {"season": "424242"}).status_code == 404


def test_the_organiser_page_of_a_tournament_links_to_its_qualifiers(client, final):
    tournament, organiser = final
    client.force_login(organiser)
    response = client.get(reverse("organise:detail", args=[tournament.slug]))
    assert reverse("organise:qualification", args=[tournament.slug]) in response.content.decode()


# --- After simulated tournaments ---------------------------------------------------------------


def test_after_simulated_tournaments_a_player_finds_his_ranking_rating_and_history(client, db):
    """Real tournaments through every service (entry, correction, confirm, close): the players
    are on the ranking, the rating list and their own page, and the organiser of a final
    registers the qualifiers from them."""
    from django.utils import timezone

    from ranking.models import Season

    Season.objects.all().delete()
    today = timezone.localdate()
    make_season(today.year, qualifiers=4)
    for seed in (1, 2):
        call_command("simulate_tournament", players=9, rounds=2, deals=3, seed=seed, verbosity=0)
    assert Placing.objects.count() == 18
    assert PlayerRating.objects.count() == 18

    ranking = client.get(reverse("ranking:season"))
    top = ranking.context["table"].rows[0].record
    assert top["name"] in ranking.content.decode()
    assert top["name"] in client.get(reverse("ranking:rating")).content.decode()
    page = client.get(reverse("public:player", args=[top["player_id"]])).content.decode()
    assert "Ranking points" in page and "<svg" in page

    final = make_tournament(slug="finals", starts_on=today, level="national")
    organiser = make_user()
    final.organisers.add(organiser)
    client.force_login(organiser)
    client.post(reverse("organise:qualification", args=[final.slug]))
    assert final.registrations.count() >= 4
    assert final.registrations.filter(player_id=top["player_id"]).exists()


def test_the_ranking_page_is_served_from_the_cache_until_a_table_changes_it(client, played):
    url = reverse("ranking:season")
    client.get(url)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    assert len(queries) == 0
    Tournament.objects.update(name="Pārdēvēts")  # no ranking write: still the cached page
    assert "Pārdēvēts" not in client.get(url).content.decode()


def test_a_confirmed_table_refreshes_the_rating_list_and_leaves_the_season_ranking_cached(
    client, played, django_capture_on_commit_callbacks
):
    """During a tournament every confirmation changes ratings, not the season ranking (which
    counts finished tournaments): its pages stay in the cache until the last round closes."""
    season_url, rating_url = reverse("ranking:season"), reverse("ranking:rating")
    tournament = small_tournament(rounds_planned=1, starts_on=played.starts_on)
    round_ = publish_next_round(tournament)
    newcomer = round_.tables.order_by("number").first().seats.first().registration.player
    season_before = client.get(season_url).content
    assert newcomer.full_name not in client.get(rating_url).content.decode()

    with django_capture_on_commit_callbacks(execute=True):
        for table in round_.tables.all():
            play(table)
            confirm(table)

    assert newcomer.full_name in client.get(rating_url).content.decode()
    with CaptureQueriesContext(connection) as queries:
        assert client.get(season_url).content == season_before
    assert len(queries) == 0  # served from the cache

    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.round_close(round_=round_, writer=CHIEF)

    assert Placing.objects.filter(tournament=tournament).exists()
    assert newcomer.full_name in client.get(season_url).content.decode()


def test_a_players_ranking_shows_a_shared_final_place_as_its_span(client, played):
    from ranking.selectors import player_ranking

    tournament = Placing.objects.order_by("pk").first().tournament
    second, third = Placing.objects.filter(tournament=tournament).order_by("place")[1:3]
    assert (second.place, third.place) == (2, 3)
    Placing.objects.filter(pk=third.pk).update(place=2)  # tied for places 2-3

    events = [
        event
        for season in player_ranking(player=third.player)
        for event in season.events
        if event.tournament == tournament
    ]

    assert [event.place_label for event in events] == ["2–3"]
    page = client.get(reverse("public:player", args=[third.player_id])).content.decode()
    assert "<td>2–3</td>" in page
