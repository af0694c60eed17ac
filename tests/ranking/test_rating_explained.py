"""A rating change explained: beside each tournament on the player's page, his rating before and
after it and his places at its tables beside those the field's ratings expected; the rating list
says what its number means. The page's queries do not grow with his tournaments."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from demo.synthetic import build_played_tournaments
from engine.rating import NEW_PLAYER, Rating, RatingSpan, expected_places, shared_places
from ranking import selectors, services
from ranking.models import RatingChange
from ranking.templatetags.player_ranking import rating_change_said
from tests.ranking.test_services import play, small_tournament
from tests.tournament_play import confirm, publish_next_round
from tournaments.models import Player, Registration, Tournament

pytestmark = pytest.mark.django_db


def played_round(tournament, *, seed: int = 1):
    round_ = publish_next_round(tournament, seed=seed)
    for table in round_.tables.order_by("number"):
        play(table)
        confirm(table)
    return round_


def test_at_a_first_table_of_new_players_each_is_expected_at_the_middle_place(season):
    tournament = small_tournament()
    table = played_round(tournament).tables.order_by("number").first()
    winner = table.result.seats.get(place=1).registration.player

    span = selectors.player_rating_spans(player=winner)[tournament.pk]

    assert (span.tables, span.expected_place, span.actual_place) == (1, 2.0, 1.0)
    assert span.before == NEW_PLAYER
    assert span.after == RatingChange.objects.get(player=winner).after


def test_a_tournaments_span_runs_from_before_his_first_table_to_after_his_last(season):
    """Each table's expected place comes from the ratings of everyone at it just before it."""
    tournament = small_tournament()
    played_round(tournament, seed=3)
    played_round(tournament, seed=4)
    player = Registration.objects.filter(tournament=tournament).first().player
    his = list(
        RatingChange.objects.filter(player=player).order_by("table_result__table__round__number")
    )
    expected, actual = [], []
    for change in his:
        table = RatingChange.objects.filter(table_result=change.table_result)
        key = str(player.pk)
        expected.append(expected_places({str(c.player_id): c.before for c in table})[key])
        actual.append(shared_places({str(c.player_id): c.place for c in table})[key])

    span = selectors.player_rating_spans(player=player)[tournament.pk]

    assert span == RatingSpan(
        before=his[0].before,
        after=his[-1].after,
        tables=2,
        expected_place=pytest.approx(sum(expected) / 2),
        actual_place=pytest.approx(sum(actual) / 2),
    )
    assert span.before == NEW_PLAYER != his[1].before


def test_the_page_shows_each_tournaments_rating_before_and_after_and_why(client, season):
    build_played_tournaments(players=12, tournaments=2, per_tournament=12, rounds=2)
    services.ranking_recompute()
    player = Player.objects.first()
    spans = selectors.player_rating_spans(player=player)
    assert len(spans) == 2

    page = client.get(reverse("public:player", args=[player.pk])).content.decode()

    for tournament in Tournament.objects.all():
        rated = spans[tournament.pk]
        section = page.split(f'id="tournament-{tournament.slug}"')[1].split("</section>")[0]
        before, after = f"{rated.before.ordinal:.2f}", f"{rated.after.ordinal:.2f}"
        assert f"<strong>{before}</strong> → <strong>{after}</strong>" in section
        mu, sigma = f"{rated.before.mu:.2f}", f"{rated.before.sigma:.2f}"
        assert f"(μ {mu} ± {sigma} → μ {rated.after.mu:.2f}" in section
        assert " ".join(rating_change_said(rated)) in section


def span(expected: float, actual: float, before: Rating, after: Rating, tables: int = 4):
    return RatingSpan(
        before=before, after=after, tables=tables, expected_place=expected, actual_place=actual
    )


def test_finishing_above_the_expected_places_is_said_with_what_became_of_mu_and_sigma():
    said = rating_change_said(span(2.43, 1.75, Rating(25.0, 8.0), Rating(27.3, 7.5)))
    assert said == [
        "At 4 tables the ratings expected place 2.4 on average; the places taken averaged 1.8. "
        "Better than expected.",
        "The skill estimate μ rose by 2.30.",
        "Its uncertainty σ shrank by 0.50 with the tables played.",
        "So the rating μ − 3σ rose by 3.80.",
    ]


def test_finishing_below_them_is_said_as_worse_and_the_fall_as_a_fall():
    said = rating_change_said(span(2.0, 3.0, Rating(25.0, 8.0), Rating(22.0, 7.9), tables=1))
    assert said == [
        "At the table the ratings expected place 2.0; the place taken was 3.0. "
        "Worse than expected.",
        "The skill estimate μ fell by 3.00.",
        "Its uncertainty σ shrank by 0.10 with the tables played.",
        "So the rating μ − 3σ fell by 2.70.",
    ]


def test_places_equal_as_shown_are_said_as_expected():
    said = rating_change_said(span(2.51, 2.54, Rating(25.0, 8.0), Rating(25.0, 8.0)))
    assert said[0].endswith("As expected.")
    assert said[1:] == [
        "The skill estimate μ did not change.",
        "So the rating μ − 3σ did not change.",
    ]


def test_a_mu_moving_against_the_places_is_said_to_weigh_whom_they_were_taken_against():
    """Third of four below the place expected, yet ahead of the strongest player at the table:
    the model raises μ (engine: test_an_upset_...), and the words say why."""
    said = rating_change_said(span(2.2, 3.0, Rating(27.9, 7.4), Rating(28.0, 7.0), tables=1))
    assert said[0].endswith("Worse than expected.")
    assert said[1] == "The skill estimate μ rose by 0.10."
    assert said[2].startswith("μ moves by whom the places were taken ahead of and behind")
    assert not any(
        "whom" in sentence
        for sentence in rating_change_said(span(2.2, 3.0, Rating(28.0, 7.4), Rating(27.0, 7.0)))
    )


def test_the_change_said_is_the_difference_of_the_figures_shown():
    # 10.004 is shown 10.00 and 11.306 is shown 11.31: the rise said is 1.31, not 1.30.
    said = rating_change_said(span(2.0, 2.0, Rating(10.004, 2.0), Rating(11.306, 2.0)))
    assert "The skill estimate μ rose by 1.31." in said


def _page_queries(client, player: Player) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("public:player", args=[player.pk]))
    assert response.status_code == 200
    return len(queries)


def test_the_page_runs_as_many_queries_for_three_tournaments_as_for_one(client, season):
    build_played_tournaments(players=12, tournaments=1, per_tournament=12, rounds=2, prefix="one")
    build_played_tournaments(
        players=12, tournaments=3, per_tournament=12, rounds=2, prefix="three", seed=2
    )
    services.ranking_recompute()
    one = Player.objects.filter(club__name__startswith="one").first()
    three = Player.objects.filter(club__name__startswith="three").first()
    assert len(selectors.player_rating_spans(player=one)) == 1
    assert len(selectors.player_rating_spans(player=three)) == 3

    assert _page_queries(client, three) == _page_queries(client, one)


def test_the_rating_list_says_what_its_number_means(client, season):
    page = client.get(reverse("ranking:rating")).content.decode()
    assert "μ is the estimated skill, σ its uncertainty" in page
    assert "ordered by the conservative rating μ − 3σ" in page
    assert "finishes above the places the ratings expected" in page
    assert "A new player starts at μ 25.00 ± σ 8.33, a rating of 0.00." in page
