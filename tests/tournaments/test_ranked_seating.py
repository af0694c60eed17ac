"""Ranked seating reads the standings' own order, absent players included, and the round page
shows each seated player's rank so the organiser can check the seating against the standings."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import selectors as scoring_selectors
from scoring.services import round_generate_seating
from tests.factories import make_organiser, make_registrations, make_tournament, seat_keys
from tests.tournament_play import confirm_with_totals
from tournaments import services
from tournaments.models import Round, RoundStatus, SeatingMode

pytestmark = pytest.mark.django_db


def round_1_with_two_absent(absent_players: str):
    """Ten entries at tables of 4; eight play round 1 (everyone at a table has a distinct total,
    the last of each table below zero) and two are absent."""
    tournament = make_tournament(
        slug="ranked", table_size=4, absent_players=absent_players, rounds_planned=3
    )
    entries = make_registrations(tournament, 10)
    present, absent = entries[:8], entries[8:]
    round_1 = services.round_create(tournament=tournament)
    round_generate_seating(round_=round_1, seed=3, by=None, present=present)
    services.round_publish(round_=round_1, by=None)
    for table, totals in zip(
        round_1.tables.order_by("number"), ([14, 5, -4, -15], [9, 3, -1, -11]), strict=True
    ):
        confirm_with_totals(table, dict(zip(seat_keys(table), totals, strict=True)))
    Round.objects.filter(pk=round_1.pk).update(status=RoundStatus.CLOSED)
    return tournament, absent


def ranked_round_2(tournament, seed: int):
    round_2 = services.round_create(tournament=tournament)
    return round_generate_seating(round_=round_2, seed=seed, by=None, mode=SeatingMode.RANKED)


@pytest.mark.parametrize("absent_players", ["points", "last"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ranked_seating_cuts_the_standings_into_tables_in_their_order(absent_players, seed):
    tournament, _absent = round_1_with_two_absent(absent_players)
    rank = {
        row.registration_id: row.rank
        for row in scoring_selectors.tournament_standings(tournament=tournament).rows
    }

    round_2 = ranked_round_2(tournament, seed)

    seated = [
        sorted(rank[int(key)] for key in seat_keys(table))
        for table in round_2.tables.order_by("number")
    ]
    ranks = sorted(rank.values())
    cut, start = [], 0
    for table in seated:  # table 1 the best, then the next, as the standings list them
        cut.append(ranks[start : start + len(table)])
        start += len(table)
    assert seated == cut


def test_by_default_absent_players_rank_by_their_points_in_the_standings_and_the_seating():
    tournament, absent = round_1_with_two_absent("points")
    rows = scoring_selectors.tournament_standings(tournament=tournament).rows
    absent_ids = {entry.pk for entry in absent}

    # 0 place points and 0 game points: above the two who were last at their tables
    assert [row.registration_id in absent_ids for row in rows][-4:] == [True, True, False, False]
    assert all(row.game_points < 0 for row in rows[-2:])


def test_under_absent_last_absent_players_rank_below_everyone_who_played():
    tournament, absent = round_1_with_two_absent("last")
    rows = scoring_selectors.tournament_standings(tournament=tournament).rows

    assert {row.registration_id for row in rows[-2:]} == {entry.pk for entry in absent}
    assert [row.rank_label for row in rows[-2:]] == ["9–10", "9–10"]


def test_the_round_page_shows_each_seated_players_rank_in_ranked_mode(client):
    tournament, absent = round_1_with_two_absent("points")
    round_2 = ranked_round_2(tournament, seed=1)
    client.force_login(make_organiser())

    page = client.get(reverse("organise:round", args=["ranked", 2])).content.decode()

    labels = {
        row.registration_id: row.rank_label
        for row in scoring_selectors.tournament_standings(tournament=tournament).rows
    }
    for table in round_2.tables.all():
        for seat in table.seats.select_related("registration__player"):
            name = seat.registration.player.full_name
            assert f">{labels[seat.registration_id]}</span> {name}" in page
    assert labels[absent[0].pk] == "7–8"
    assert page.count('class="seat-rank"') == 10


def test_the_round_page_shows_no_rank_when_the_seating_is_not_by_rank(client):
    tournament, _absent = round_1_with_two_absent("points")
    round_2 = services.round_create(tournament=tournament)
    round_generate_seating(round_=round_2, seed=1, by=None, mode=SeatingMode.RANDOM)
    client.force_login(make_organiser())

    page = client.get(reverse("organise:round", args=["ranked", 2])).content.decode()

    assert "seat-rank" not in page
