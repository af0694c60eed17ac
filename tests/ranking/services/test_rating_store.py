"""Ratings stay those of a replay of the confirmed tables while tables of tournaments sharing
players are confirmed and unlocked at the same moment, from separate connections: a table of
January re-rates February's tables of the same players, so rating writes of different
tournaments wait for each other. Row locks and concurrent writers are PostgreSQL's: on SQLite
(one writer at a time) there is nothing to race."""

from __future__ import annotations

import datetime
import random
import threading

import pytest
from django.db import connection, transaction

from engine.rating import replay_ratings
from ranking.models import PlayerRating, RatingChange, RatingUpdate
from ranking.services.rating_store import OUTCOME_FIELDS, lock_ratings, outcomes_of
from scoring import services as scoring_services
from scoring.models import SeatResult, TableResult
from scoring.services import Writer, round_generate_seating
from tests.factories import make_player, make_tournament, make_user
from tests.tournament_play import favourite_first, play_round_at
from tournaments import services as tournament_services
from tournaments.models import Registration, Table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="concurrent connections and row locks: this run is on SQLite",
    ),
]

STEPS = 16  # a few seconds; every step races two or three tables of different tournaments


def tournaments_sharing_players(count: int, players: int = 9) -> list[Table]:
    """`count` tournaments a month apart with the same players, round 1 played at every table
    (three deals), nothing confirmed. Their tables, each with its round and tournament."""
    people = [make_player() for _ in range(players)]
    tables = []
    for month in range(1, count + 1):
        tournament = make_tournament(
            starts_on=datetime.date(2026, month, 10), deals_per_round=3, rounds_planned=2
        )
        Registration.objects.bulk_create(
            Registration(tournament=tournament, player=p) for p in people
        )
        round_ = tournament_services.round_create(tournament=tournament)
        round_generate_seating(round_=round_, seed=month, by=None)
        round_ = tournament_services.round_publish(round_=round_, by=None)
        for table in round_.tables.order_by("number"):
            play_round_at(table, favourite_first)
            tables.append(table)
    return list(
        Table.objects.filter(pk__in=[t.pk for t in tables]).select_related("round__tournament")
    )


def replayed() -> tuple[dict, dict]:
    """What a sequential replay of the confirmed tables gives: each player's rating and count of
    tables, and every rating change, keyed by player and table result."""
    outcomes = outcomes_of(SeatResult.objects.values_list(*OUTCOME_FIELDS).order_by())
    ratings, changes = replay_ratings(outcomes)
    tables: dict[str, int] = {}
    for change in changes:
        tables[change.player] = tables.get(change.player, 0) + 1
    return (
        {int(p): (r.mu, r.sigma, tables[p]) for p, r in ratings.items()},
        {
            (int(c.table), int(c.player)): (
                c.place,
                c.before.mu,
                c.before.sigma,
                c.after.mu,
                c.after.sigma,
            )
            for c in changes
        },
    )


def stored() -> tuple[dict, dict]:
    return (
        {
            p: (mu, sigma, n)
            for p, mu, sigma, n in PlayerRating.objects.values_list(
                "player_id", "mu", "sigma", "tables"
            )
        },
        {
            (result, player): tuple(rest)
            for result, player, *rest in RatingChange.objects.values_list(
                "table_result_id",
                "player_id",
                "place",
                "mu_before",
                "sigma_before",
                "mu_after",
                "sigma_after",
            )
        },
    )


def race(actions: list) -> list[BaseException]:
    """Run the actions at the same moment, each in a thread of its own (its own connection);
    what they raised. The background rating jobs they started are waited for too."""
    start = threading.Barrier(len(actions))
    failures: list[BaseException] = []

    def run(action) -> None:
        try:
            start.wait(10)
            action()
        except BaseException as error:  # reported by the test
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(action,)) for action in actions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    for thread in threading.enumerate():
        if thread.name == "rating-updates":
            thread.join(30)
    return failures


def test_confirmations_and_unlocks_of_tournaments_sharing_players_rate_as_a_replay(settings):
    """Three tournaments of the same nine players; at each step two or three of their tables
    (of different tournaments) are confirmed or unlocked at the same moment. After every step
    the stored ratings are exactly those of a replay of the confirmed tables, and no write
    failed. Each step rates in the confirming requests, or leaves it to the background job."""
    settings.RATING_UPDATES_IN_BACKGROUND = True
    tables = tournaments_sharing_players(3)
    chief = make_user(is_superuser=True)
    rng = random.Random(22)

    def confirm(table: Table):
        confirmer = table.seats.order_by("position").first().registration
        return lambda: scoring_services.table_confirm(
            table=table, writer=Writer(ip_address="10.0.0.9"), confirmer=confirmer, deals_seen=3
        )

    def unlock(table: Table):
        return lambda: scoring_services.table_unlock(
            table=table, writer=Writer(user=chief), reason="wrong sheet"
        )

    by_tournament: dict[int, list[Table]] = {}
    for table in tables:
        by_tournament.setdefault(table.round.tournament_id, []).append(table)
    for step in range(STEPS):
        settings.RATING_INLINE_TABLES = rng.choice((0, 10_000))  # 0: every re-rating to the job
        chosen = [
            rng.choice(by_tournament[tournament])
            for tournament in rng.sample(sorted(by_tournament), rng.choice((2, 3)))
        ]
        confirmed = set(
            TableResult.objects.filter(table__in=chosen).values_list("table_id", flat=True)
        )
        failures = race([unlock(t) if t.pk in confirmed else confirm(t) for t in chosen])

        assert failures == [], f"step {step}"
        now = set(TableResult.objects.filter(table__in=chosen).values_list("table_id", flat=True))
        assert now == {t.pk for t in chosen} - confirmed, f"step {step}"
        assert not RatingUpdate.objects.exists(), f"step {step}: a re-rating left waiting"
        assert stored() == replayed(), f"step {step}"


def test_a_table_confirmed_while_the_job_re_rates_queues_behind_it_at_once(settings):
    """A season's re-rating holds the rating lock for seconds: a table confirmed meanwhile only
    queues behind it (it writes no rating), so its referee does not wait for the job."""
    settings.RATING_UPDATES_IN_BACKGROUND = True
    january, *_rest, february = tournaments_sharing_players(2)
    tournament = january.round.tournament
    RatingUpdate.objects.create(  # a correction of January waiting for the job
        starts_on=tournament.starts_on,
        tournament_slug=tournament.slug,
        round_number=1,
        table_number=1,
        players=[],
    )
    holding, release = threading.Event(), threading.Event()

    def job_re_rating() -> None:
        try:
            with transaction.atomic():
                lock_ratings()
                holding.set()
                release.wait(30)
        finally:
            connection.close()

    job = threading.Thread(target=job_re_rating)
    job.start()
    assert holding.wait(30)
    try:
        # Waiting for the job's lock, this would fail with a lock timeout.
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '2s'")
            scoring_services.table_confirm(
                table=february,
                writer=Writer(ip_address="10.0.0.9"),
                confirmer=february.seats.order_by("position").first().registration,
                deals_seen=3,
            )
    finally:
        release.set()
        job.join(30)
    for thread in threading.enumerate():
        if thread.name == "rating-updates":
            thread.join(30)

    assert TableResult.objects.filter(table=february).exists()
    assert not RatingUpdate.objects.exists()
    assert stored() == replayed()
