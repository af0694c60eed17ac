"""Ratings after each confirmed table, unlock, placings of a finished tournament, and the
recomputation: the same results always give exactly the same ranking and ratings."""

from __future__ import annotations

import datetime
import json

import pytest
from django.core.management import call_command

from demo.synthetic import build_played_tournaments
from engine.rating import DEFAULT_MU, NEW_PLAYER
from ranking import selectors, services
from ranking.models import Placing, PlayerRating, RatingChange, Season
from scoring import services as scoring_services
from scoring.services import Writer
from tests.factories import make_registrations, make_season, make_tournament
from tests.ranking.conftest import rating_snapshot
from tests.tournament_play import (
    confirm,
    favourite_first,
    next_not_dealing,
    play_round_at,
    publish_next_round,
)
from tournaments.models import Round, Table

pytestmark = pytest.mark.django_db

CHIEF = Writer(ip_address="10.0.0.7")


def small_tournament(**fields):
    """Six players at two tables of three, three deals a round."""
    fields.setdefault("deals_per_round", 3)
    fields.setdefault("rounds_planned", 2)
    tournament = make_tournament(**fields)
    make_registrations(tournament, 6, clubs=2)
    return tournament


def play(table: Table, choose=favourite_first) -> None:
    play_round_at(table, choose)


def unlock(table: Table) -> None:
    chief = make_chief(table.round.tournament)
    scoring_services.table_unlock(table=table, writer=Writer(user=chief), reason="wrong sheet")


def make_chief(tournament):
    from django.contrib.auth.models import User

    user, _ = User.objects.get_or_create(username="galvenais")
    tournament.chief_referees.add(user)
    return user


def test_a_confirmed_table_rates_its_players_in_the_same_transaction(season):
    tournament = small_tournament()
    round_ = publish_next_round(tournament)
    table = round_.tables.order_by("number").first()
    play(table)
    confirm(table)

    players = list(table.seats.values_list("registration__player_id", flat=True))
    ratings = {r.player_id: r for r in PlayerRating.objects.filter(player_id__in=players)}
    assert set(ratings) == set(players)
    assert all(rating.tables == 1 for rating in ratings.values())
    winner = table.result.seats.get(place=1).registration.player_id
    assert ratings[winner].mu > DEFAULT_MU
    assert RatingChange.objects.filter(table_result=table.result).count() == 3
    change = RatingChange.objects.filter(player_id=winner).get()
    assert (change.mu_before, change.sigma_before) == (NEW_PLAYER.mu, NEW_PLAYER.sigma)


def test_unlock_takes_the_tables_ratings_back(season):
    tournament = small_tournament()
    round_ = publish_next_round(tournament)
    first, second = round_.tables.order_by("number")
    play(first)
    confirm(first)
    before = rating_snapshot()
    play(second)
    confirm(second)
    assert rating_snapshot() != before

    unlock(second)

    assert rating_snapshot() == before


def test_confirmed_out_of_order_unlocked_and_confirmed_again_equals_a_full_replay(season):
    """Tables confirmed in any order, one unlocked and corrected, the next round played: the
    ratings kept up table by table are exactly those of replaying every table in order."""
    tournament = small_tournament()
    round_one = publish_next_round(tournament, seed=3)
    first, second = round_one.tables.order_by("number")
    play(second)
    confirm(second)  # table 2 before table 1
    play(first, next_not_dealing)
    confirm(first)
    scoring_services.round_close(round_=round_one, writer=CHIEF)
    round_two = publish_next_round(tournament, seed=4)
    third, fourth = round_two.tables.order_by("number")
    play(fourth)
    confirm(fourth)
    play(third)
    confirm(third)
    unlock(third)
    confirm(third)
    # A later table of another tournament the same day, confirmed before this one's last.
    other = small_tournament(starts_on=tournament.starts_on, slug="zzz-later")
    other_round = publish_next_round(other)
    for table in other_round.tables.all():
        play(table)
        confirm(table)
    unlock(fourth)
    confirm(fourth)
    scoring_services.round_close(round_=round_two, writer=CHIEF)
    kept = rating_snapshot()

    services.ranking_recompute()

    assert rating_snapshot() == kept
    assert Placing.objects.filter(tournament=tournament).count() == 6


def test_a_tournament_counts_once_its_last_round_is_closed(season):
    tournament = small_tournament(rounds_planned=2)
    for number in (1, 2):
        round_ = publish_next_round(tournament, seed=number)
        for table in round_.tables.all():
            play(table)
            confirm(table)
        assert not Placing.objects.filter(tournament=tournament).exists()
        scoring_services.round_close(round_=round_, writer=CHIEF)
    placings = Placing.objects.filter(tournament=tournament)
    assert placings.count() == 6
    standings = selectors.season_standings(season=season)
    assert len(standings.rows) == 6
    assert standings.rows[0].points == 20  # a club tournament's winner, by the default table


def test_tables_confirmed_in_bulk_are_rated_when_their_round_closes(season):
    tournament = small_tournament(rounds_planned=1)
    round_ = publish_next_round(tournament)
    # As the fast simulation does: results written without the confirm hook.
    from tests.tournament_play import confirm_with_totals

    for table in round_.tables.all():
        seats = [
            str(e)
            for e in table.seats.order_by("position").values_list("registration_id", flat=True)
        ]
        confirm_with_totals(table, dict(zip(seats, (5, 0, -5), strict=True)))
    assert not PlayerRating.objects.exists()

    scoring_services.round_close(round_=round_, writer=CHIEF)

    assert PlayerRating.objects.count() == 6
    kept = rating_snapshot()
    services.ranking_recompute()
    assert rating_snapshot() == kept


def test_an_imported_tournament_is_placed_and_rated_as_if_played_here(season, tmp_path):
    # An archive written on a venue's laptop, imported where other tournaments are rated.
    from archive.export import tournament_archive
    from archive.reading import read_archive
    from archive.writing import tournament_import
    from demo.simulation import simulate_tournament

    played_here = simulate_tournament(players=6, rounds=2, deals=6, seed=3, slug="here")
    laptop = simulate_tournament(players=6, rounds=2, deals=6, seed=4, slug="laptop")
    archive = read_archive(json.dumps(tournament_archive(laptop)).encode())

    # Its slug puts it first in the rating order: the tables rated already are rated again.
    imported = tournament_import(archive, slug="a-moved")

    placings = Placing.objects.filter(tournament=imported)
    assert sorted(placings.values_list("player__full_name", "place", "game_points")) == sorted(
        Placing.objects.filter(tournament=laptop).values_list(
            "player__full_name", "place", "game_points"
        )
    )
    assert RatingChange.objects.filter(table_result__table__round__tournament=imported).count()
    assert Placing.objects.filter(tournament=played_here).exists()
    kept = rating_snapshot()
    services.ranking_recompute()
    assert rating_snapshot() == kept


def test_recompute_twice_gives_exactly_the_same(season):
    build_played_tournaments(players=40, tournaments=4, per_tournament=15, rounds=3, seed=5)
    services.ranking_recompute()
    first = rating_snapshot()
    ranking = selectors.season_standings(season=season).rows

    call_command("recompute_ranking", verbosity=0)

    assert rating_snapshot() == first
    assert selectors.season_standings(season=season).rows == ranking


def _normalised(snapshot: dict[str, object], prefix: str) -> dict[str, object]:
    def clean(value: object) -> object:
        return value.replace(prefix, "#") if isinstance(value, str) else value

    return {
        name: [tuple(clean(value) for value in row) for row in rows]
        for name, rows in snapshot.items()
    }


def test_the_same_results_stored_in_another_order_give_the_same_ranking_and_ratings(db):
    """The same planned results written twice, in a different order (other primary keys), in
    two seasons of different years: players, tables and order keys differ only by the prefix."""
    a_season = make_season(2031)
    b_season = make_season(2032)
    sizes = {"players": 45, "tournaments": 5, "per_tournament": 16, "rounds": 3, "seed": 9}
    build_played_tournaments(**sizes, prefix="aa", start=datetime.date(2031, 2, 1))
    build_played_tournaments(**sizes, prefix="bb", start=datetime.date(2032, 2, 1), shuffled=True)
    services.ranking_recompute()
    snapshot = rating_snapshot()
    a_part = {
        name: [row for row in rows if "aa" in "".join(str(v) for v in row)]
        for name, rows in snapshot.items()
    }
    b_part = {
        name: [row for row in rows if "bb" in "".join(str(v) for v in row)]
        for name, rows in snapshot.items()
    }
    assert a_part["changes"]
    assert _normalised(a_part, "aa") == _normalised(b_part, "bb")

    def ranked(season):
        return [
            (row.rank, row.name.replace("aa", "#").replace("bb", "#"), row.points, row.wins)
            for row in selectors.season_standings(season=season).rows
        ]

    assert ranked(a_season) == ranked(b_season)


def test_a_round_left_open_keeps_the_tournament_out_of_the_ranking(season):
    build_played_tournaments(players=20, tournaments=1, per_tournament=12, rounds=2, seed=2)
    Round.objects.filter(number=2).update(status="in_play")
    services.ranking_recompute()
    assert not Placing.objects.exists()
    assert PlayerRating.objects.count() == 12  # its confirmed tables are rated all the same


def test_tables_confirmed_and_unlocked_in_any_order_rate_as_the_whole_replay(season):
    """Every table of three tournaments (players meeting across them) confirmed one by one in a
    random order, some unlocked and confirmed again: the ratings kept up table by table are
    exactly those of the whole replay."""
    import random

    from scoring.models import SeatResult, TableResult

    build_played_tournaments(players=20, tournaments=3, per_tournament=12, rounds=3, seed=11)
    stored = {
        result.table_id: [
            (
                seat.registration_id,
                seat.round_number,
                seat.game_points,
                seat.place_points_twelfths,
                seat.place,
            )
            for seat in result.seats.all()
        ]
        for result in TableResult.objects.prefetch_related("seats")
    }
    TableResult.objects.all().delete()

    def confirm_again(table_id: int) -> TableResult:
        result = TableResult.objects.create(table_id=table_id, last_position=0, last_version_id=0)
        SeatResult.objects.bulk_create(
            SeatResult(
                table_result=result,
                registration_id=registration_id,
                round_number=round_number,
                game_points=game_points,
                place_points_twelfths=twelfths,
                place=place,
            )
            for registration_id, round_number, game_points, twelfths, place in stored[table_id]
        )
        services.rating_apply_table(table_result=result)
        return result

    rng = random.Random(5)
    order = list(stored)
    rng.shuffle(order)
    for table_id in order:
        result = confirm_again(table_id)
        if rng.random() < 0.3:
            services.rating_remove_table(table_result=result)
            result.delete()
            confirm_again(table_id)
    kept = rating_snapshot()
    assert len(kept["changes"]) == sum(len(seats) for seats in stored.values())

    services.ranking_recompute()

    assert rating_snapshot()["changes"] == kept["changes"]
    assert rating_snapshot()["ratings"] == kept["ratings"]


# -- A long re-rating moves off the confirming request ------------------------------------------


def test_a_long_re_rating_is_left_to_a_job_and_the_list_keeps_the_ratings_before_it(
    season, settings, client, django_capture_on_commit_callbacks
):
    """A confirmation whose re-rating reaches more tables than settings.RATING_INLINE_TABLES
    writes no rating in its request: the rating list goes on showing the complete ratings of
    before, with a notice of the update; the job then rates exactly as the whole replay."""
    tournament = small_tournament()
    round_ = publish_next_round(tournament, seed=3)
    first, second = round_.tables.order_by("number")
    play(second)
    confirm(second)  # the last table: rated in its request
    rated = rating_snapshot()
    assert rated["changes"]
    play(first)
    settings.RATING_INLINE_TABLES = 0

    confirm(first)  # one table to rate: more than 0

    assert rating_snapshot() == rated  # nothing half-done: the ratings of before, whole
    assert selectors.rating_update_progress() is not None
    page = client.get("/ranking/rating/").content.decode()
    assert "rating-update" in page

    with django_capture_on_commit_callbacks(execute=True):  # the pages' cache renewed
        services.rating_updates_run()

    assert selectors.rating_update_progress() is None
    kept = rating_snapshot()
    services.ranking_recompute()
    assert rating_snapshot() == kept
    assert "rating-update" not in client.get("/ranking/rating/").content.decode()


def test_jobs_left_for_later_confirmations_and_unlocks_rate_as_the_whole_replay(season, settings):
    """While a job waits, every later rating update waits behind it (none rates from ratings the
    job is about to change): tables confirmed and unlocked in any order, all left to jobs, give
    exactly the whole replay."""
    import random

    from scoring.models import SeatResult, TableResult

    settings.RATING_INLINE_TABLES = 0
    build_played_tournaments(players=20, tournaments=3, per_tournament=12, rounds=3, seed=11)
    stored = {
        result.table_id: [
            (s.registration_id, s.round_number, s.game_points, s.place_points_twelfths, s.place)
            for s in result.seats.all()
        ]
        for result in TableResult.objects.prefetch_related("seats")
    }
    services.ranking_recompute()
    TableResult.objects.filter(table_id__in=list(stored)[::2]).delete()
    services.ranking_recompute()

    def confirm_again(table_id: int) -> TableResult:
        result = TableResult.objects.create(table_id=table_id, last_position=0, last_version_id=0)
        SeatResult.objects.bulk_create(
            SeatResult(
                table_result=result,
                registration_id=registration_id,
                round_number=round_number,
                game_points=game_points,
                place_points_twelfths=twelfths,
                place=place,
            )
            for registration_id, round_number, game_points, twelfths, place in stored[table_id]
        )
        services.rating_apply_table(table_result=result)
        return result

    rng = random.Random(7)
    missing = list(stored)[::2]
    rng.shuffle(missing)
    for index, table_id in enumerate(missing):
        result = confirm_again(table_id)
        if rng.random() < 0.3:
            services.rating_remove_table(table_result=result)
            result.delete()
            confirm_again(table_id)
        if index == len(missing) // 2:
            services.rating_updates_run()  # a job run half-way
    assert selectors.rating_update_progress() is not None

    services.rating_updates_run()

    kept = rating_snapshot()
    assert len(kept["changes"]) == sum(len(seats) for seats in stored.values())
    services.ranking_recompute()
    assert rating_snapshot()["changes"] == kept["changes"]
    assert rating_snapshot()["ratings"] == kept["ratings"]


@pytest.mark.django_db(transaction=True)
def test_the_job_runs_in_a_thread_after_the_commit(settings):
    """The real path: the confirmation commits, a thread of the process rates the tail in its
    own transaction and connection, and leaves no update waiting."""
    import threading

    Season.objects.all().delete()
    make_season(2026)
    settings.RATING_UPDATES_IN_BACKGROUND = True
    tournament = small_tournament()
    round_ = publish_next_round(tournament, seed=3)
    first, second = round_.tables.order_by("number")
    play(second)
    confirm(second)
    play(first)
    settings.RATING_INLINE_TABLES = 0

    confirm(first)  # committed at once: no transaction around the test

    for thread in threading.enumerate():
        if thread.name == "rating-updates":
            thread.join(timeout=60)
    assert selectors.rating_update_progress() is None
    kept = rating_snapshot()
    assert RatingChange.objects.filter(table_result=first.result).count() == 3
    services.ranking_recompute()
    assert rating_snapshot()["changes"] == kept["changes"]
    assert rating_snapshot()["ratings"] == kept["ratings"]


# -- Rating writes wait for each other -----------------------------------------------------------


def _first_steps_of(call, monkeypatch) -> list[str]:
    """What `call` does first, in order: "lock" where it takes the rating lock, then the SQL
    statements (savepoints left out: they read and write nothing)."""
    from django.db import connection

    from ranking.services import placings, rating_job, rating_store, ratings

    steps: list[str] = []

    def lock() -> None:
        steps.append("lock")
        rating_store.lock_ratings()

    def try_lock() -> bool:
        steps.append("lock")
        return rating_store.try_lock_ratings()

    for module in (ratings, rating_job, placings):
        monkeypatch.setattr(module, "lock_ratings", lock)
    monkeypatch.setattr(ratings, "try_lock_ratings", try_lock)

    def record(execute, sql, params, many, context):
        if not sql.lstrip().upper().startswith(("SAVEPOINT", "RELEASE SAVEPOINT")):
            steps.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        call()
    return steps


RATING_WRITES = {
    "a table confirmed": lambda result: services.rating_apply_table(table_result=result),
    "a table unlocked": lambda result: services.rating_remove_table(table_result=result),
    "a round's tables confirmed in bulk": lambda result: services.ranking_round_closed(
        round_=result.table.round
    ),
    "the re-rating job": lambda result: services.rating_updates_run(),
    "the whole recomputation": lambda result: services.ranking_recompute(),
}


@pytest.mark.parametrize("write", list(RATING_WRITES))
def test_every_rating_write_takes_the_rating_lock_before_it_reads_anything(
    season, monkeypatch, write
):
    """Ratings of tournaments sharing players are written one transaction at a time: each
    rating write waits for the one lock before its first statement, so it rates from what the
    previous one committed (PostgreSQL runs them side by side otherwise)."""
    from ranking.models import RatingUpdate
    from tests.factories import seat_keys
    from tests.tournament_play import confirm_with_totals

    tournament = small_tournament()
    round_ = publish_next_round(tournament)
    table = round_.tables.order_by("number").first()
    result = confirm_with_totals(table, dict(zip(seat_keys(table), (5, 0, -5), strict=True)))
    RatingUpdate.objects.create(  # a re-rating waiting for the job
        starts_on=tournament.starts_on,
        tournament_slug=tournament.slug,
        round_number=round_.number,
        table_number=table.number,
        players=[],
    )

    steps = _first_steps_of(lambda: RATING_WRITES[write](result), monkeypatch)

    assert steps[0] == "lock"
    assert len(steps) > 1


@pytest.mark.django_db(transaction=True)
def test_the_rating_lock_is_refused_outside_a_transaction():
    """Out of a transaction the lock would be let go at once: a rating write there is a
    mistake, said at once rather than racing."""
    from django.db.transaction import TransactionManagementError

    from ranking.services.rating_store import lock_ratings

    with pytest.raises(TransactionManagementError):
        lock_ratings()
