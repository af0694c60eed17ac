"""The scope of a player's statistics the reader chooses: his career, one of his seasons, one
of his tournaments, never another's; with his best final places and his season's points."""

from __future__ import annotations

import datetime

import pytest

from demo.simulation import simulate_tournament
from ranking.career_statistics import player_seasons, scoped_statistics
from ranking.models import Placing, Season
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def his_tournaments():
    """Two finished tournaments of one player, in two seasons (a third he never played)."""
    Season.objects.all().delete()
    seasons = [
        Season.objects.create(
            name=str(year),
            starts_on=datetime.date(year, 1, 1),
            ends_on=datetime.date(year, 12, 31),
            points_table={"club": [20, 16, 13, 11, 9, 7, 5, 4, 3, 2, 1]},
        )
        for year in (2025, 2026)
    ]
    played = []
    for year, slug in ((2025, "ziema"), (2026, "vasara"), (2026, "cits")):
        tournament = simulate_tournament(players=6, rounds=2, deals=6, seed=year, slug=slug)
        Tournament.objects.filter(pk=tournament.pk).update(starts_on=datetime.date(year, 6, 1))
        tournament.refresh_from_db()
        played.append(tournament)
    player = Player.objects.filter(registrations__tournament=played[0]).first()
    # The same player in the second tournament: its first registration is now his.
    played[1].registrations.filter(pk=played[1].registrations.first().pk).update(player=player)
    Placing.objects.filter(tournament=played[1], place=1).update(player=player)
    return player, played[:2], played[2], seasons


def test_his_career_counts_both_of_his_tournaments(his_tournaments):
    player, mine, _other, _seasons = his_tournaments
    scoped = scoped_statistics(player=player, tournaments=mine)
    assert (scoped.season, scoped.tournament) == (None, None)
    assert scoped.statistics.his.tournaments == 2
    assert scoped.statistics.field.tournaments == 3


def test_a_season_is_one_of_his_and_brings_his_ranking_points(his_tournaments):
    player, mine, _other, seasons = his_tournaments
    assert player_seasons(tournaments=mine) == [seasons[1], seasons[0]]  # newest first
    scoped = scoped_statistics(player=player, tournaments=mine, season_id=seasons[1].pk)
    assert scoped.season == seasons[1]
    assert scoped.statistics.his.tournaments == 1
    assert scoped.season_ranking is not None and scoped.season_ranking.season == seasons[1]


def test_a_tournament_he_did_not_play_or_an_unknown_season_is_no_scope(his_tournaments):
    player, mine, other, _seasons = his_tournaments
    assert scoped_statistics(player=player, tournaments=mine, tournament_slug=other.slug) is None
    assert scoped_statistics(player=player, tournaments=mine, season_id=999_999) is None


def test_his_best_finishes_come_best_first(his_tournaments):
    player, mine, _other, _seasons = his_tournaments
    finishes = scoped_statistics(player=player, tournaments=mine).best_finishes
    assert finishes[0].tournament == mine[1]
    assert [placing.place for placing in finishes] == sorted(p.place for p in finishes)
    one = scoped_statistics(player=player, tournaments=mine, tournament_slug=mine[0].slug)
    assert [placing.tournament for placing in one.best_finishes] == [mine[0]]
