"""A tournament's statistics, from a small tournament played deal by deal through the services:
three players at one table of 3, six deals a round."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.utils import translation

from engine import Pass, PenaltyPule, Play
from engine.rules import Game
from scoring.models import SeatResult
from scoring.selectors import tournament_statistics
from tests.factories import make_registrations, make_tournament, seat_keys
from tests.scoring.sheet_play import record
from tests.tournament_play import confirm, publish_next_round
from tournaments.models import Round, RoundStatus

pytestmark = pytest.mark.django_db

DEALS = 6


def lielais(declarer: str, points: int, tricks: int) -> Play:
    return Play(Game.LIELAIS, declarer, tricks=tricks, points=points)


def zole(declarer: str, points: int, tricks: int) -> Play:
    return Play(Game.ZOLE, declarer, tricks=tricks, points=points)


def play_round(tournament, entries) -> Round:
    """The next round published and its one table played with `entries(a, b, c)` and confirmed."""
    round_ = publish_next_round(tournament)
    table = round_.tables.get()
    a, b, c = seat_keys(table)
    for position, entry in enumerate(entries(a, b, c), start=1):
        record(table, entry, position)
    confirm(table)
    return round_


def first_round(a, b, c):
    """Three passes in a row with a penalty pule between them, then a zole with every trick
    (the fourth deal: the penalty pule is no deal), a lielais won and one lost."""
    return [
        Pass(),
        PenaltyPule(b),
        Pass(),
        Pass(),
        zole(a, 120, 8),
        lielais(b, 75, 5),
        lielais(c, 40, 3),
    ]


def second_round(a, b, c):
    return [
        lielais(a, 95, 6),
        lielais(b, 20, 1),
        zole(c, 0, 0),
        Pass(),
        lielais(a, 75, 5),
        lielais(b, 75, 5),
    ]


def third_round(a, b, c):
    return [zole(a, 120, 8), *(lielais(b, 75, 5) for _ in range(DEALS - 1))]


@pytest.fixture
def tournament():
    tournament = make_tournament(deals_per_round=DEALS, rounds_planned=3)
    make_registrations(tournament, 3)
    play_round(tournament, first_round)
    play_round(tournament, second_round)
    return tournament


def names(tournament) -> dict[str, str]:
    return {
        str(registration.pk): registration.player.full_name
        for registration in tournament.registrations.select_related("player")
    }


def outcomes(statistics, game: Game) -> dict[str, int]:
    found = next(line for line in statistics.games if line.game is game)
    return {line.outcome: line.count for line in found.lines}


def test_every_deal_is_counted_by_game_and_outcome(tournament):
    statistics = tournament_statistics(tournament=tournament)

    assert statistics.deals == 2 * DEALS
    assert outcomes(statistics, Game.LIELAIS) == {
        "all_tricks": 0,
        "high_win": 1,
        "win": 3,
        "loss": 1,
        "low_loss": 1,
        "no_trick": 0,
    }
    assert outcomes(statistics, Game.ZOLE) == {
        "all_tricks": 1,
        "high_win": 0,
        "win": 0,
        "loss": 0,
        "low_loss": 0,
        "no_trick": 1,
    }
    assert statistics.passed == 4
    assert statistics.penalty_pules == 1


def test_a_games_share_is_of_all_deals_and_an_outcomes_of_that_games(tournament):
    statistics = tournament_statistics(tournament=tournament)
    played = {line.game: line for line in statistics.games}

    assert played[Game.LIELAIS].share == Fraction(6, 12)
    assert played[Game.ZOLE].share == Fraction(2, 12)
    win = next(line for line in played[Game.LIELAIS].lines if line.outcome == "win")
    assert win.share == Fraction(3, 6)
    with translation.override("lv"):
        assert statistics.passed_share_text == "33,3\u00a0%"  # 4 of 12, as Latvian writes it


def test_mazā_zole_is_shown_only_when_someone_declared_it(tournament):
    games = [line.game for line in tournament_statistics(tournament=tournament).games]

    assert games == [Game.LIELAIS, Game.ZOLE]


def test_the_zole_with_every_trick_is_named_with_its_round_table_and_deal(tournament):
    declarer = seat_keys(Round.objects.get(tournament=tournament, number=1).tables.get())[0]

    [found] = tournament_statistics(tournament=tournament).all_tricks_zoles

    assert (found.name, found.round_number, found.table_number, found.deal_number) == (
        names(tournament)[declarer],
        1,
        1,
        4,
    )


def test_a_penalty_pule_between_passes_does_not_break_the_run(tournament):
    statistics = tournament_statistics(tournament=tournament)

    [run] = statistics.longest_runs
    table = Round.objects.get(tournament=tournament, number=1).tables.get()
    assert (run.length, run.round_number, run.table_number) == (3, 1, 1)
    assert run.names == tuple(names(tournament)[key] for key in seat_keys(table))


def test_passes_under_rules_without_common_pules_make_no_run(tournament):
    # Rounds published under galdiņš with no pules: whatever was stored, no run is counted.
    for round_ in Round.objects.filter(tournament=tournament):
        round_.rule_set = {**round_.rule_set, "all_pass": "galdins"}
        round_.save(update_fields=["rule_set"])

    assert tournament_statistics(tournament=tournament).longest_runs == ()


def test_the_best_and_worst_round_scores_are_the_seat_results_extremes(tournament):
    statistics = tournament_statistics(tournament=tournament)
    results = list(SeatResult.objects.values_list("game_points", flat=True))

    assert [score.game_points for score in statistics.best_scores] == sorted(results)[::-1][:3]
    assert [score.game_points for score in statistics.worst_scores] == sorted(results)[:3]


def test_each_rounds_best_player_has_its_highest_game_points(tournament):
    best = tournament_statistics(tournament=tournament).round_best

    for line in best:
        top = max(
            SeatResult.objects.filter(round_number=line.round_number).values_list(
                "game_points", flat=True
            )
        )
        winners = SeatResult.objects.filter(round_number=line.round_number, game_points=top)
        assert line.game_points == top
        assert line.names == tuple(
            sorted(winners.values_list("registration__player__full_name", flat=True))
        )
    assert [line.round_number for line in best] == [1, 2]


def test_a_round_the_public_does_not_see_is_not_counted(tournament):
    hidden = play_round(tournament, third_round)
    Round.objects.filter(pk=hidden.pk).update(status=RoundStatus.DRAFT)

    statistics = tournament_statistics(tournament=tournament)

    assert statistics.deals == 2 * DEALS
    assert len(statistics.all_tricks_zoles) == 1
    assert [line.round_number for line in statistics.round_best] == [1, 2]
    assert {score.round_number for score in statistics.best_scores} <= {1, 2}


def test_a_tournament_without_a_confirmed_table_has_nothing_to_count():
    statistics = tournament_statistics(tournament=make_tournament())

    assert (statistics.deals, statistics.games[0].total, statistics.round_best) == (0, 0, ())
