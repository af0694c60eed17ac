"""What every rating write shares: the one lock it takes first (`lock_ratings`), the engine's
order of tables (`table_key`), a table's outcome as the engine reads it, and the rating changes
and ratings stored in few queries."""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.transaction import TransactionManagementError

from core.model_columns import concrete_field
from engine.rating import Rating, TableOutcome
from engine.rating import RatingChange as EngineRatingChange
from ranking.models import (
    PlayerRating,
    RatingChange,
)
from tournaments.models import Table

# PostgreSQL's advisory lock of the ratings: a key no other lock of this database uses ("zolerate").
RATINGS_LOCK_KEY = 0x7A6F6C6572617465


def lock_ratings() -> None:
    """Wait until no other transaction writes ratings, and keep them to this one until it ends.

    Every rating write takes it first, before it reads what it rates from: a table confirmed or
    unlocked, a round's tables confirmed in bulk, the re-rating job, the whole recomputation.
    One lock for all, not one per tournament or per player: a January table re-rates February's
    tables of its players and, through them, of every player they met since, so which rows a
    write touches is known only once it has read them, and locking players as they are found
    would let two writes lock overlapping sets in opposite orders (a deadlock). A rating write
    in a request is short (at most settings.RATING_INLINE_TABLES tables follow it; a longer one
    is left to the job), so waiting for another costs little. The job holds it for seconds (a
    season re-rated): a table confirmed meanwhile queues behind the job without waiting
    (`try_lock_ratings`, ratings.rating_apply_table). Taken after the table's and the round's
    locks; its holder takes no lock a waiting writer holds, so the two cannot deadlock. Read
    committed: each statement after the wait sees what the previous holder committed.

    PostgreSQL: a transaction-scoped advisory lock (released at commit or rollback; no row to
    keep). SQLite: nothing to take, every transaction there begins with the database's one
    write lock (settings: IMMEDIATE)."""
    if not transaction.get_connection().in_atomic_block:
        # Outside a transaction the lock would end with its own statement.
        raise TransactionManagementError("ratings are written in a transaction")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [RATINGS_LOCK_KEY])


def try_lock_ratings() -> bool:
    """`lock_ratings` if no other transaction holds it; whether it is held now. Never waits."""
    if not transaction.get_connection().in_atomic_block:
        raise TransactionManagementError("ratings are written in a transaction")
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [RATINGS_LOCK_KEY])
        return cursor.fetchone()[0]


TableKey = tuple[str, str, int, int]  # (date, tournament slug, round number, table number)


def table_key(
    starts_on: datetime.date, slug: str, round_number: int, table_number: int
) -> TableKey:
    """Where a table comes in the order of rating."""
    return (starts_on.isoformat(), slug, round_number, table_number)


def key_of(table: Table) -> TableKey:
    round_ = table.round
    tournament = round_.tournament
    return table_key(tournament.starts_on, tournament.slug, round_.number, table.number)


OUTCOME_FIELDS = (
    "table_result_id",
    "registration__player_id",
    "place",
    "table_result__table__number",
    "round_number",
    "registration__tournament__starts_on",
    "registration__tournament__slug",
)


def outcomes_of(seat_results: Iterable[tuple]) -> list[TableOutcome]:
    """The engine's tables from SeatResult rows (`OUTCOME_FIELDS`); one outcome per table."""
    places: dict[int, list[tuple[str, int]]] = defaultdict(list)
    keys: dict[int, TableKey] = {}
    for result_id, player_id, place, table_number, round_number, starts_on, slug in seat_results:
        places[result_id].append((str(player_id), place))
        keys[result_id] = table_key(starts_on, slug, round_number, table_number)
    return [
        TableOutcome(order=keys[result_id], table=str(result_id), places=tuple(sorted(seats)))
        for result_id, seats in places.items()
    ]


@dataclass(frozen=True)
class Rerated:
    tables: int  # tables rated (again)
    players: int  # players whose rating changed
    deferred: bool = False  # left to a job (RatingUpdate): nothing rated in this transaction


CHANGE_FIELDS = (
    "table_result",
    "player",
    "place",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
)


def store_changes(changes: list[EngineRatingChange]) -> dict[str, int]:
    """Write the rating changes (the players' histories); how many tables each player got.

    One INSERT run over every row (executemany), not bulk_create: a re-rated season writes tens
    of thousands of rows, and building a model instance for each would be most of the time."""
    meta = RatingChange._meta
    quote = connection.ops.quote_name
    columns = ", ".join(quote(concrete_field(RatingChange, name).column) for name in CHANGE_FIELDS)
    marks = ", ".join(["%s"] * len(CHANGE_FIELDS))
    rows = [
        (
            int(change.table),
            int(change.player),
            change.place,
            change.before.mu,
            change.before.sigma,
            change.after.mu,
            change.after.sigma,
        )
        for change in changes
    ]
    if rows:
        with connection.cursor() as cursor:
            cursor.executemany(
                f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({marks})", rows
            )
    tables: dict[str, int] = defaultdict(int)
    for change in changes:
        tables[change.player] += 1
    return tables


def store_ratings(ratings: dict[str, tuple[Rating, int]]) -> None:
    """Each player's current rating and number of tables rated; a player left with no rated
    table has no rating."""
    PlayerRating.objects.filter(
        player_id__in=[int(player) for player, (_r, tables) in ratings.items() if tables <= 0]
    ).delete()
    PlayerRating.objects.bulk_create(
        (
            PlayerRating(
                player_id=int(player),
                mu=rating.mu,
                sigma=rating.sigma,
                ordinal=rating.ordinal,
                tables=tables,
            )
            for player, (rating, tables) in sorted(ratings.items())
            if tables > 0
        ),
        update_conflicts=True,
        unique_fields=["player"],
        update_fields=["mu", "sigma", "ordinal", "tables"],
        batch_size=2000,
    )
