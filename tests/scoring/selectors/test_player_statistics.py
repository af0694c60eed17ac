"""A player's statistics are the sums of the tallies his seat results carry, beside the sums
of every player's in the same scope: his career, a season's dates, one tournament."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from demo.simulation import simulate_tournament
from engine.rules import Game
from engine.statistics import TALLY_FIELDS
from scoring.models import SeatResult
from scoring.selectors.player_statistics import StatisticsScope, player_statistics
from tournaments.models import Player, Round, RoundStatus, Tournament

pytestmark = pytest.mark.django_db


def played(slug: str, *, rounds: int = 2, starts_on=datetime.date(2026, 5, 1), **options):
    tournament = simulate_tournament(
        players=7, rounds=rounds, deals=12, seed=len(slug), slug=slug, fast=True, **options
    )
    Tournament.objects.filter(pk=tournament.pk).update(starts_on=starts_on)
    return tournament


def a_player_of(tournament: Tournament) -> Player:
    return Player.objects.filter(registrations__tournament=tournament).order_by("pk").first()


def test_his_figures_are_the_sums_of_his_seat_results():
    tournament = played("vasara")
    player = a_player_of(tournament)
    his = player_statistics(player=player, scope=StatisticsScope()).his
    rows = SeatResult.objects.filter(registration__player=player)
    for name in TALLY_FIELDS:
        assert getattr(his.tally, name) == sum(getattr(row, name) for row in rows), name
    assert his.rounds == 2 and his.players == 1 and his.tournaments == 1
    assert his.game_points == sum(row.game_points for row in rows)
    assert sum(his.places) == 2


def test_the_field_is_every_player_of_the_scope_and_its_points_sum_to_zero():
    tournament = played("rudens")
    statistics = player_statistics(player=a_player_of(tournament), scope=StatisticsScope())
    field = statistics.field
    assert field.players == 7 and field.rounds == 14
    assert field.game_points == 0
    # Each deal is declared once or passed by all: per table, so per tournament.
    assert field.tally.deals == 2 * (4 * 12 - 12 + 3 * 12)  # the dealer at a 4-table sits out


def test_a_season_or_a_tournament_counts_only_its_own():
    spring = played("pavasaris", starts_on=datetime.date(2026, 4, 1))
    played("ziema", starts_on=datetime.date(2025, 12, 1))
    player = a_player_of(spring)
    season = StatisticsScope(
        starts_on=datetime.date(2026, 1, 1), ends_on=datetime.date(2026, 12, 31)
    )
    in_season = player_statistics(player=player, scope=season)
    in_spring = player_statistics(player=player, scope=StatisticsScope(tournament=spring))
    career = player_statistics(player=player, scope=StatisticsScope())
    assert in_season.field.players == in_spring.field.players == 7
    assert career.field.players == 14
    assert in_season.his == in_spring.his == career.his


def test_a_draft_round_is_not_counted():
    tournament = played("melnraksts")
    Round.objects.filter(tournament=tournament, number=2).update(status=RoundStatus.DRAFT)
    his = player_statistics(player=a_player_of(tournament), scope=StatisticsScope()).his
    assert his.rounds == 1


def test_maza_zole_is_listed_only_where_it_was_played():
    classic = played("klasika")
    games = player_statistics(player=a_player_of(classic), scope=StatisticsScope()).games
    assert [line.game for line in games] == [Game.LIELAIS, Game.ZOLE]
    small = played("maza-zole", small_zole=True, rounds=3)
    scope = StatisticsScope(tournament=small)
    games = player_statistics(player=a_player_of(small), scope=scope).games
    assert Game.MAZA_ZOLE in [line.game for line in games]


def test_two_queries_whatever_the_number_of_tables():
    counts = []
    for slug, rounds in (("viena", 1), ("tris", 3)):
        player = a_player_of(played(slug, rounds=rounds))
        with CaptureQueriesContext(connection) as queries:
            player_statistics(player=player, scope=StatisticsScope())
        counts.append(len(queries))
    assert counts == [2, 2]
