"""The job that rates again every table after a change early in a season, in one transaction,
telling its progress through the cache."""

from __future__ import annotations

import datetime
import logging
import threading
from collections.abc import Iterable

from django.conf import settings
from django.core.cache import cache
from django.db import connections, transaction
from django.db.models import Count

from engine.rating import NEW_PLAYER, Rating, replay_ratings
from ranking.models import (
    RatingChange,
    RatingUpdate,
)
from ranking.ranking_page_cache import ratings_changed
from ranking.services.rating_store import (
    OUTCOME_FIELDS,
    Rerated,
    TableKey,
    lock_ratings,
    outcomes_of,
    store_changes,
    store_ratings,
    table_key,
)
from scoring.models import SeatResult

logger = logging.getLogger(__name__)


PROGRESS_KEY = "zole:ratings:update-progress"  # read by selectors.rating_update_progress
RUNNING_KEY = "zole:ratings:updating"
RUNNING_SECONDS = 15 * 60  # longer than any job: a process stopped mid-job frees it then


def _change_keys(queryset) -> Iterable[tuple[int, str, TableKey, float, float]]:
    for (
        pk,
        player_id,
        starts_on,
        slug,
        round_number,
        table_number,
        mu,
        sigma,
    ) in queryset.values_list(
        "pk",
        "player_id",
        "table_result__table__round__tournament__starts_on",
        "table_result__table__round__tournament__slug",
        "table_result__table__round__number",
        "table_result__table__number",
        "mu_after",
        "sigma_after",
    ).order_by():
        yield pk, str(player_id), table_key(starts_on, slug, round_number, table_number), mu, sigma


def _replay_tail(start: TableKey, *, players: set[str]) -> Rerated:
    """Rate again every confirmed table from `start` on, from the ratings its players had just
    before it (their last table before `start`), and give `players` and every player of the
    tail their rating anew."""
    start_date = datetime.date.fromisoformat(start[0])
    window = [
        outcome
        for outcome in outcomes_of(
            SeatResult.objects.filter(registration__tournament__starts_on__gte=start_date)
            .values_list(*OUTCOME_FIELDS)
            .order_by()
        )
        if outcome.order >= start
    ]
    stale: list[int] = []
    involved = set(players) | {player for outcome in window for player, _place in outcome.places}
    for pk, player, key, _mu, _sigma in _change_keys(
        RatingChange.objects.filter(
            table_result__table__round__tournament__starts_on__gte=start_date
        )
    ):
        if key >= start:
            stale.append(pk)
            involved.add(player)
    last_before: dict[str, tuple[TableKey, Rating]] = {}
    for _pk, player, key, mu, sigma in _change_keys(
        RatingChange.objects.filter(
            player_id__in=[int(player) for player in involved],
            table_result__table__round__tournament__starts_on__lte=start_date,
        )
    ):
        if key < start and (player not in last_before or key > last_before[player][0]):
            last_before[player] = (key, Rating(mu, sigma))
    start_ratings = {player: rating for player, (_key, rating) in last_before.items()}

    def told(done: int, total: int) -> None:
        cache.set(PROGRESS_KEY, {"done": done, "total": total}, timeout=RUNNING_SECONDS)

    ratings, changes = replay_ratings(window, start=start_ratings, progress=told)
    told(len(window), len(window))
    for index in range(0, len(stale), 5000):
        RatingChange.objects.filter(pk__in=stale[index : index + 5000]).delete()
    store_changes(changes)
    tables = dict(
        RatingChange.objects.filter(player_id__in=[int(player) for player in involved])
        .values_list("player_id")
        .annotate(count=Count("pk"))
        .values_list("player_id", "count")
        .order_by()
    )
    store_ratings(
        {
            player: (ratings.get(player, NEW_PLAYER), tables.get(int(player), 0))
            for player in involved
        }
    )
    return Rerated(tables=len(window), players=len(involved))


def rating_updates_run() -> Rerated | None:
    """Run the waiting re-ratings: all of them as one, from the earliest point, in one
    transaction (readers see the ratings of before until it commits). None if none waits."""
    done = None
    while True:
        with transaction.atomic():
            lock_ratings()  # no table is rated or taken back while the tail is re-rated
            updates = list(RatingUpdate.objects.select_for_update().order_by("pk"))
            if not updates:
                break
            start = min(
                table_key(u.starts_on, u.tournament_slug, u.round_number, u.table_number)
                for u in updates
            )
            players = {str(player) for update in updates for player in update.players}
            done = _replay_tail(start, players=players)
            RatingUpdate.objects.filter(pk__in=[update.pk for update in updates]).delete()
            ratings_changed()
        cache.delete(PROGRESS_KEY)
    return done


def _run_in_background() -> None:
    try:
        while cache.add(RUNNING_KEY, 1, timeout=RUNNING_SECONDS):
            try:
                rating_updates_run()
            finally:
                cache.delete(RUNNING_KEY)
            # A job recorded while this one ran (its own start found the key taken) is run now.
            if not RatingUpdate.objects.exists():
                break
    except Exception:
        logger.exception("the rating update failed: it waits for the next one")
    finally:
        connections.close_all()


def rating_updates_start() -> None:
    """Start the waiting re-ratings off the request (after the commit): in a thread, or at once
    without settings.RATING_UPDATES_IN_BACKGROUND."""
    if settings.RATING_UPDATES_IN_BACKGROUND:
        threading.Thread(target=_run_in_background, name="rating-updates", daemon=True).start()
    else:
        rating_updates_run()
