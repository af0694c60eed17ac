"""Standings read by the engine from confirmed tables; provisional results only when asked."""

from __future__ import annotations

import datetime
from fractions import Fraction

import pytest

from engine import RoundResult, dealer_for, rank_standings
from engine.names import latvian_sort_key, search_key
from scoring import selectors, services
from scoring.models import SeatResult
from tests.factories import make_registrations, make_tournament, seat_keys
from tests.tournament_play import (
    REFEREE,
    confirm,
    confirm_with_totals,
    favourite_first,
    keys,
    lielais,
    next_not_dealing,
    play_round_at,
    played_tournament,
    publish_next_round,
)
from tournaments.models import Registration, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_one_confirmed():
    """Six players at two tables of 3, 6 deals each, both tables confirmed:
    table 1 all equal (0, 0, 0), table 2: first seat +6, second 0, third −6."""
    tournament = make_tournament(deals_per_round=6, rounds_planned=3)
    make_registrations(tournament, 6)
    round_ = publish_next_round(tournament)
    table_one, table_two = round_.tables.order_by("number")
    play_round_at(table_one, next_not_dealing)
    play_round_at(table_two, favourite_first)
    confirm(table_one)
    confirm(table_two)
    return tournament, table_one, table_two


def names_of(table: Table) -> list[str]:
    return [seat.registration.player.full_name for seat in table.seats.order_by("position")]


class TestStandingsFromConfirmedTables:
    def test_order_and_shared_ranks(self, round_one_confirmed):
        tournament, table_one, table_two = round_one_confirmed

        standings = selectors.tournament_standings(tournament=tournament)

        first, second, third = names_of(table_two)
        rows = standings.rows
        assert rows[0].name == first
        assert (rows[0].rank, rows[0].rank_label, rows[0].shared) == (1, "1", False)
        assert (rows[0].place_points, rows[0].game_points) == (Fraction(6), 6)
        # Table 1 all tied at 0 share 4 place points each ((6+4+2)/3); table 2's second has
        # 4 and 0 too: four players equal on every metric share rank 2, shown as "2–5",
        # listed in Latvian alphabetical order.
        tied = rows[1:5]
        assert {row.name for row in tied} == {*names_of(table_one), second}
        assert all((row.rank, row.rank_label, row.shared) == (2, "2–5", True) for row in tied)
        assert [row.name for row in tied] == sorted(
            (row.name for row in tied), key=latvian_sort_key
        )
        assert all(row.place_points == 4 and row.game_points == 0 for row in tied)
        assert (rows[5].name, rows[5].rank, rows[5].rank_label) == (third, 6, "6")
        assert (rows[5].place_points, rows[5].game_points) == (Fraction(2), -6)

    def test_each_round_result_is_in_its_column(self, round_one_confirmed):
        tournament, _table_one, table_two = round_one_confirmed

        standings = selectors.tournament_standings(tournament=tournament)

        assert standings.round_numbers == [1]
        leader = standings.rows[0]
        cell = leader.rounds[1]
        assert (cell.game_points, cell.place_points, cell.place, cell.provisional) == (
            6,
            Fraction(6),
            1,
            False,
        )
        assert leader.club == ""
        assert leader.player_id == table_two.seats.get(position=1).registration.player_id

    def test_the_same_as_the_engine_ranks_the_stored_results(self, round_one_confirmed):
        tournament, *_ = round_one_confirmed
        seat_results = SeatResult.objects.filter(registration__tournament=tournament)
        expected = rank_standings(
            [
                RoundResult(
                    player=str(row.registration_id),
                    round_number=row.round_number,
                    game_points=row.game_points,
                    place_points=row.place_points,
                    place=row.place,
                )
                for row in seat_results
            ],
            names={str(e.pk): e.player.full_name for e in tournament.registrations.all()},
        )

        rows = selectors.tournament_standings(tournament=tournament).rows

        assert [(row.registration_id, row.rank) for row in rows] == [
            (int(s.player), s.rank) for s in expected
        ]

    def test_game_points_alone_when_the_tournament_ranks_so(self, round_one_confirmed):
        tournament, *_ = round_one_confirmed
        tournament.standings_order = "game_points"
        tournament.save()

        rows = selectors.tournament_standings(tournament=tournament).rows

        assert [row.game_points for row in rows] == [6, 0, 0, 0, 0, -6]
        assert [row.rank_label for row in rows] == ["1", "2–5", "2–5", "2–5", "2–5", "6"]

    def test_a_player_without_results_stands_last_with_zero(self, round_one_confirmed):
        tournament, *_ = round_one_confirmed
        (late,) = make_registrations(tournament, 1)

        rows = selectors.tournament_standings(tournament=tournament).rows

        assert rows[-1].registration_id == late.pk
        assert (rows[-1].place_points, rows[-1].game_points, rows[-1].rounds) == (0, 0, {})

    def test_team_standings_sum_their_members(self, round_one_confirmed):
        tournament, table_one, table_two = round_one_confirmed
        tournament.teams_enabled = True
        tournament.save()
        first, _second, third = (seat.registration for seat in table_two.seats.order_by("position"))
        a, b, _c = (seat.registration for seat in table_one.seats.order_by("position"))
        for entry, team in ((first, "Kurzeme"), (a, "Kurzeme"), (third, "Latgale"), (b, "Latgale")):
            entry.team = team
            entry.save()

        teams = selectors.tournament_standings(tournament=tournament).teams

        assert [(team.team, team.place_points, team.game_points) for team in teams] == [
            ("Kurzeme", Fraction(10), 6),
            ("Latgale", Fraction(6), -6),
        ]
        assert teams[0].members[0] == first.player.full_name

    def test_no_team_standings_when_teams_are_off(self, round_one_confirmed):
        tournament, *_ = round_one_confirmed
        Registration.objects.filter(tournament=tournament).update(team="Kurzeme")

        assert selectors.tournament_standings(tournament=tournament).teams == []

    def test_the_results_of_one_round_alone(self):
        tournament = played_tournament(players=9, rounds=2)

        overall = selectors.tournament_standings(tournament=tournament)
        second = selectors.tournament_standings(tournament=tournament, only_round=2)

        assert second.round_numbers == [2]
        assert all(set(row.rounds) == {2} for row in second.rows)
        assert {row.registration_id: row.game_points for row in second.rows} == {
            row.registration_id: row.rounds[2].game_points for row in overall.rows
        }


class TestProvisionalResults:
    @pytest.fixture
    def round_two_in_play(self, round_one_confirmed):
        tournament, *_ = round_one_confirmed
        round_two = publish_next_round(tournament, seed=5)
        table = round_two.tables.order_by("number").first()
        players = seat_keys(table)
        first_dealer = players[table.first_dealer_position - 1]
        for index in range(2):  # two deals, not confirmed
            dealer = dealer_for(players, first_dealer, index)
            services.deal_record(
                table=table,
                entry=lielais(favourite_first(players, dealer)),
                position=index + 1,
                client_key=next(keys),
                writer=REFEREE,
            )
        return tournament, table

    def test_not_counted_unless_asked(self, round_two_in_play):
        tournament, _table = round_two_in_play

        standings = selectors.tournament_standings(tournament=tournament)

        assert standings.provisional is False
        assert standings.provisional_tables == 0
        assert all(2 not in row.rounds and not row.provisional for row in standings.rows)
        assert standings.round_numbers == [1, 2]  # the round is public, its column empty

    def test_counted_and_marked_when_asked(self, round_two_in_play):
        tournament, table = round_two_in_play

        standings = selectors.tournament_standings(tournament=tournament, provisional=True)

        assert standings.provisional is True
        assert standings.provisional_tables == 1  # the table with no deal yet is left out
        at_table = {int(key) for key in seat_keys(table)}
        marked = {row.registration_id for row in standings.rows if row.provisional}
        assert marked == at_table
        for row in standings.rows:
            if row.registration_id in at_table:
                assert row.rounds[2].provisional is True
                assert row.rounds[1].provisional is False
        # The engine's provisional totals: two won Lielais games sum to zero over the table.
        assert sum(row.rounds[2].game_points for row in standings.rows if 2 in row.rounds) == 0

    def test_a_confirmed_table_is_never_provisional(self, round_two_in_play):
        tournament, table = round_two_in_play
        players = seat_keys(table)
        confirm_with_totals(table, dict.fromkeys(players, 0))

        standings = selectors.tournament_standings(tournament=tournament, provisional=True)

        assert standings.provisional_tables == 0
        assert not any(row.provisional for row in standings.rows)


class TestHelpers:
    @pytest.mark.parametrize("query", ["berzins", "Bērziņš", "BĒRZIŅŠ", "jānis bērz"])
    def test_fold_name_ignores_case_and_diacritics(self, query):
        assert search_key(query) in search_key("Jānis Bērziņš")

    def test_rank_label(self):
        assert [selectors.rank_label(2, 1), selectors.rank_label(2, 2)] == ["2", "2–3"]

    def test_tournament_phases(self):
        today = datetime.date(2026, 12, 5)
        upcoming = make_tournament(starts_on=datetime.date(2026, 12, 20))
        past = make_tournament(starts_on=datetime.date(2025, 1, 5))
        playing = played_tournament(players=6, rounds=1, close=False)
        finished = played_tournament(players=6, rounds=2)  # 2 of 2 rounds closed

        listing = selectors.public_tournament_list(today=today)
        in_progress = [listed.tournament for listed in listing.in_progress]
        finished_ones = [listed.tournament for listed in listing.finished]

        assert [listed.tournament for listed in listing.upcoming] == [upcoming]
        assert playing in in_progress
        assert finished in finished_ones and past in finished_ones
        assert upcoming not in in_progress + finished_ones
