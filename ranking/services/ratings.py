"""Ratings after each confirmed (or unlocked) table, in the engine's one order of tables; a long
re-rating left to the job (ranking.services.rating_job)."""

from __future__ import annotations

import datetime
from collections import defaultdict

from django.conf import settings
from django.db import transaction
from django.db.models import Q

from engine.rating import NEW_PLAYER, Rating, replay_ratings, table_order
from ranking.models import (
    PlayerRating,
    RatingChange,
    RatingUpdate,
)
from ranking.ranking_page_cache import ratings_changed
from ranking.services.rating_job import rating_updates_start
from ranking.services.rating_store import (
    OUTCOME_FIELDS,
    Rerated,
    TableKey,
    key_of,
    lock_ratings,
    outcomes_of,
    store_changes,
    store_ratings,
    try_lock_ratings,
)
from scoring.models import SeatResult, TableResult
from tournaments.models import Table


def _rerate_from(start: TableKey, *, changed: set[str], dropped: int | None = None) -> Rerated:
    """Rate again, in the rating order, every confirmed table from `start` on whose ratings can
    have changed: the tables of the players in `changed` (the confirmed or unlocked table's
    players), of every player who met one of them at such a table since, and any table not
    rated yet. The table result `dropped` (being unlocked) is left out. See the module's
    docstring: a table none of whose players is affected keeps its ratings, since nothing it
    was rated from has changed."""
    start_date = datetime.date.fromisoformat(start[0])
    window = sorted(
        (
            outcome
            for outcome in outcomes_of(
                SeatResult.objects.filter(registration__tournament__starts_on__gte=start_date)
                .values_list(*OUTCOME_FIELDS)
                .order_by()
            )
            if outcome.order >= start and outcome.table != str(dropped)
        ),
        key=table_order,
    )
    window_ids = [int(outcome.table) for outcome in window]
    if dropped is not None:
        window_ids.append(dropped)
    existing: dict[int, list[tuple[str, Rating]]] = defaultdict(list)
    for result_id, player_id, mu, sigma in (
        RatingChange.objects.filter(table_result_id__in=window_ids)
        .values_list("table_result_id", "player_id", "mu_before", "sigma_before")
        .order_by()
    ):
        existing[result_id].append((str(player_id), Rating(mu, sigma)))
    affected = set(changed)
    tail = []
    for outcome in window:
        players = {player for player, _place in outcome.places}
        if players & affected or int(outcome.table) not in existing:
            affected |= players
            tail.append(outcome)
    tail_ids = {int(outcome.table) for outcome in tail}
    if dropped is not None:
        tail_ids.add(dropped)
    # Each player's rating just before his first table in the tail: that table's "before".
    earliest: dict[str, Rating] = {}
    removed: dict[str, int] = defaultdict(int)
    for outcome_id in [*(int(outcome.table) for outcome in tail), dropped]:
        for player, before in existing.get(outcome_id, ()) if outcome_id is not None else ():
            removed[player] += 1
            earliest.setdefault(player, before)
    if dropped is not None:  # the unlocked table comes first: its "before" wins
        for player, before in existing.get(dropped, ()):
            earliest[player] = before
    involved = {player for outcome in tail for player, _place in outcome.places} | set(earliest)
    current = {
        str(row.player_id): row
        for row in PlayerRating.objects.filter(player_id__in=[int(p) for p in involved])
    }
    start_ratings: dict[str, Rating] = {}
    for player in involved:
        if player in earliest:
            start_ratings[player] = earliest[player]
        elif player in current:
            start_ratings[player] = Rating(current[player].mu, current[player].sigma)
        else:
            start_ratings[player] = NEW_PLAYER
    RatingChange.objects.filter(table_result_id__in=tail_ids).delete()
    ratings, changes = replay_ratings(tail, start=start_ratings)
    added = store_changes(changes)
    store_ratings(
        {
            player: (
                ratings[player],
                (current[player].tables if player in current else 0)
                - removed[player]
                + added[player],
            )
            for player in involved
        }
    )
    return Rerated(tables=len(tail), players=len(involved))


# The columns store_changes writes, in the order of its rows.


def _players_of(table_result: TableResult) -> set[str]:
    return {
        str(player_id)
        for player_id in SeatResult.objects.filter(table_result=table_result).values_list(
            "registration__player_id", flat=True
        )
    }


def _tables_from(start: TableKey) -> int:
    """How many confirmed tables come at or after `start` in the rating order. One query."""
    starts_on, slug, round_number, table_number = start
    day = datetime.date.fromisoformat(starts_on)
    prefix = "table__round__"
    later = (
        Q(**{f"{prefix}tournament__starts_on__gt": day})
        | Q(**{f"{prefix}tournament__starts_on": day, f"{prefix}tournament__slug__gt": slug})
        | Q(
            **{
                f"{prefix}tournament__starts_on": day,
                f"{prefix}tournament__slug": slug,
                f"{prefix}number__gt": round_number,
            }
        )
        | Q(
            **{
                f"{prefix}tournament__starts_on": day,
                f"{prefix}tournament__slug": slug,
                f"{prefix}number": round_number,
                "table__number__gte": table_number,
            }
        )
    )
    return TableResult.objects.filter(later).count()


def _rerate_or_defer(table: Table, *, changed: set[str], dropped: int | None = None) -> Rerated:
    """Rate the tail from `table` at once if few tables follow it and no job waits; otherwise
    leave it to a job (see the module's docstring). Deciding costs two small queries: the
    request never reads the tail it leaves to the job."""
    start = key_of(table)
    if not RatingUpdate.objects.exists() and _tables_from(start) <= settings.RATING_INLINE_TABLES:
        return _rerate_from(start, changed=changed, dropped=dropped)
    _defer(start, players=changed)
    return Rerated(tables=0, players=0, deferred=True)


def _defer(start: TableKey, *, players: set[str]) -> None:
    starts_on, slug, round_number, table_number = start
    RatingUpdate.objects.create(
        starts_on=datetime.date.fromisoformat(starts_on),
        tournament_slug=slug,
        round_number=round_number,
        table_number=table_number,
        players=sorted(players),
    )
    transaction.on_commit(rating_updates_start)


def rating_apply_table(*, table_result: TableResult) -> Rerated:
    """Rate a table just confirmed (called by scoring.services.table_confirm, in its
    transaction); the tables after it in the rating order that its players' results reach, if
    any, are rated again (by a job, after the commit, if they are many)."""
    locked = try_lock_ratings()
    table = Table.objects.select_related("round__tournament").get(pk=table_result.table_id)
    changed = _players_of(table_result)
    if not locked and _queued_behind_job(key_of(table), players=changed):
        rerated = Rerated(tables=0, players=0, deferred=True)
    else:
        rerated = _rerate_or_defer(table, changed=changed)
    ratings_changed()
    return rerated


def _queued_behind_job(start: TableKey, *, players: set[str]) -> bool:
    """The rating lock is held by another write. If a re-rating waits for the job (or the job
    runs, holding the lock for seconds), a table just confirmed only queues behind it, as it
    would with the lock: queuing writes no rating, and the job takes in a table committed while
    it ran at its next pass. So no lock is needed, and the referee does not wait for the job.
    Otherwise wait for the lock. (A table unlocked always waits: the job may be writing that
    table's ratings.)"""
    if RatingUpdate.objects.exists():
        _defer(start, players=players)
        return True
    lock_ratings()
    return False


def rating_remove_table(*, table_result: TableResult) -> Rerated:
    """Take back the ratings of a table being unlocked (called by table_unlock before the result
    is deleted): its players, and every table after it that they reach, are rated as if it had
    never been (by a job, after the commit, if they are many)."""
    lock_ratings()
    table = Table.objects.select_related("round__tournament").get(pk=table_result.table_id)
    rerated = _rerate_or_defer(table, changed=_players_of(table_result), dropped=table_result.pk)
    ratings_changed()
    return rerated


def rate_unrated(tables: list[Table]) -> Rerated | None:
    """Tables confirmed without the rating hook (bulk writers: the fast simulation, imports):
    rated from the first of them on (the tail takes every unrated table); behind a waiting job,
    left to a job too."""
    if not tables:
        return None
    lock_ratings()
    start = min(key_of(table) for table in tables)
    if RatingUpdate.objects.exists():
        _defer(start, players=set())
        return Rerated(tables=0, players=0, deferred=True)
    return _rerate_from(start, changed=set())
