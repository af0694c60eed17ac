"""Ranking writes: ratings after each confirmed (or unlocked) table, placings of a finished
tournament, the final's qualifiers registered, the whole recomputation, and the federation's
season rules (`season_create`, `season_update`) and final invitations (`invitation_create`,
`invitation_withdraw`), each in a transaction with an audit entry.

Ratings depend on the order of the tables, and the engine rates them in one stable order: the
tournament's date, its slug, the round, the table number (`table_key`). A table confirmed in that
order (the usual case: the latest table of today's tournament) is rated at once from the players'
current ratings. A table that comes *before* tables rated already (confirmed out of order, or an
old tournament entered late), and an unlocked table, re-rate the tail: from that point on, every
table whose ratings can have changed (one with a player of the changed table, or with a player
who met one of them at such a table since) is rated again, from the ratings its players had just
before it (each player's earliest "before" in the tail); the other tables keep theirs, since
nothing they were rated from changed. So the stored ratings are always exactly what
`ranking_recompute` (the whole replay) would give, at the cost of the affected tail only.
Rating updates of one tournament wait for each other (a row lock on the tournament).

A rating update with more than settings.RATING_INLINE_TABLES confirmed tables after it in the
rating order (a table of the first weekend of a long season corrected) is not done in the
confirming request: a `RatingUpdate` records where it starts, and a job
(`rating_updates_run`, started after the commit, in a thread of the same process) rates every
table from there on again, in one transaction, telling its progress through the cache
(`selectors.rating_update_progress`, shown on the rating list). Until it commits, the stored
ratings are those of before the change, whole: never a ranking half re-rated. While a job
waits, every other rating update waits behind it (a table rated at once would start from
ratings the job is about to change).

A tournament counts for the season ranking once it is finished: all its planned rounds closed.
Its placings are written when its last round is closed (`ranking_round_closed`); a tournament
whose rounds or settings are changed afterwards is brought up to date by `recompute_ranking`.
"""

from __future__ import annotations

import datetime
import logging
import threading
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import connection, connections, transaction
from django.db.models import Count, Q
from django.utils.translation import gettext as _

from engine.errors import SheetError
from engine.ranking import PointsTable, QualifiedBy
from engine.rating import NEW_PLAYER, Rating, TableOutcome, replay_ratings, table_order
from engine.rating import RatingChange as EngineRatingChange
from ranking import selectors
from ranking.cache import ranking_changed
from ranking.models import (
    Invitation,
    Placing,
    PlayerRating,
    RatingChange,
    RatingUpdate,
    Season,
)
from scoring.models import SeatResult, TableResult
from scoring.selectors import tournament_standings
from tournaments.models import AuditEntry, Player, Round, RoundStatus, Table, Tournament
from tournaments.services import ServiceError, audit, entries_register

logger = logging.getLogger(__name__)

# The audit log's code for the qualifiers registered in one step.
QUALIFIERS_REGISTERED = "entries.qualified"

TableKey = tuple[str, str, int, int]  # (date, tournament slug, round number, table number)


def table_key(
    starts_on: datetime.date, slug: str, round_number: int, table_number: int
) -> TableKey:
    """Where a table comes in the order of rating."""
    return (starts_on.isoformat(), slug, round_number, table_number)


def _key_of(table: Table) -> TableKey:
    round_ = table.round
    tournament = round_.tournament
    return table_key(tournament.starts_on, tournament.slug, round_.number, table.number)


_OUTCOME_FIELDS = (
    "table_result_id",
    "entry__player_id",
    "place",
    "table_result__table__number",
    "round_number",
    "entry__tournament__starts_on",
    "entry__tournament__slug",
)


def _outcomes(seat_results: Iterable[tuple]) -> list[TableOutcome]:
    """The engine's tables from SeatResult rows (`_OUTCOME_FIELDS`); one outcome per table."""
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
            for outcome in _outcomes(
                SeatResult.objects.filter(entry__tournament__starts_on__gte=start_date)
                .values_list(*_OUTCOME_FIELDS)
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
    added = _store_changes(changes)
    _store_ratings(
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


# The columns _store_changes writes, in the order of its rows.
_CHANGE_FIELDS = (
    "table_result",
    "player",
    "place",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
)


def _store_changes(changes: list[EngineRatingChange]) -> dict[str, int]:
    """Write the rating changes (the players' histories); how many tables each player got.

    One INSERT run over every row (executemany), not bulk_create: a re-rated season writes tens
    of thousands of rows, and building a model instance for each was most of the time."""
    meta = RatingChange._meta
    quote = connection.ops.quote_name
    columns = ", ".join(quote(meta.get_field(name).column) for name in _CHANGE_FIELDS)
    marks = ", ".join(["%s"] * len(_CHANGE_FIELDS))
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


def _store_ratings(ratings: dict[str, tuple[Rating, int]]) -> None:
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


def _players_of(table_result: TableResult) -> set[str]:
    return {
        str(player_id)
        for player_id in SeatResult.objects.filter(table_result=table_result).values_list(
            "entry__player_id", flat=True
        )
    }


def _lock_ratings_of(table: Table) -> None:
    """One rating update at a time per tournament: two tables of different rounds confirmed at
    once share players, and each must be rated from the other's result. (Tournaments never
    share a player on the same day, so they need not wait for each other.)"""
    Tournament.objects.select_for_update().filter(pk=table.round.tournament_id).order_by().first()


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
    start = _key_of(table)
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
    table = Table.objects.select_related("round__tournament").get(pk=table_result.table_id)
    _lock_ratings_of(table)
    rerated = _rerate_or_defer(table, changed=_players_of(table_result))
    ranking_changed()
    return rerated


def rating_remove_table(*, table_result: TableResult) -> Rerated:
    """Take back the ratings of a table being unlocked (called by table_unlock before the result
    is deleted): its players, and every table after it that they reach, are rated as if it had
    never been (by a job, after the commit, if they are many)."""
    table = Table.objects.select_related("round__tournament").get(pk=table_result.table_id)
    _lock_ratings_of(table)
    rerated = _rerate_or_defer(table, changed=_players_of(table_result), dropped=table_result.pk)
    ranking_changed()
    return rerated


def _rate_unrated(tables: list[Table]) -> Rerated | None:
    """Tables confirmed without the rating hook (bulk writers: the fast simulation, imports):
    rated from the first of them on (the tail takes every unrated table); behind a waiting job,
    left to a job too."""
    if not tables:
        return None
    _lock_ratings_of(tables[0])
    start = min(_key_of(table) for table in tables)
    if RatingUpdate.objects.exists():
        _defer(start, players=set())
        return Rerated(tables=0, players=0, deferred=True)
    return _rerate_from(start, changed=set())


# -- The job -------------------------------------------------------------------------------------

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
        for outcome in _outcomes(
            SeatResult.objects.filter(entry__tournament__starts_on__gte=start_date)
            .values_list(*_OUTCOME_FIELDS)
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
    _store_changes(changes)
    tables = dict(
        RatingChange.objects.filter(player_id__in=[int(player) for player in involved])
        .values_list("player_id")
        .annotate(count=Count("pk"))
        .values_list("player_id", "count")
        .order_by()
    )
    _store_ratings(
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
            ranking_changed()
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


def tournament_is_finished(tournament: Tournament) -> bool:
    """All its planned rounds closed: only then does a tournament count for the ranking."""
    closed = Round.objects.filter(tournament=tournament, status=RoundStatus.CLOSED).count()
    return tournament.rounds_planned > 0 and closed >= tournament.rounds_planned


def placings_record(*, tournament: Tournament) -> int:
    """The tournament's placings from its final standings, if it is finished (none otherwise):
    every player with at least one confirmed round, at his final rank. Returns how many."""
    Placing.objects.filter(tournament=tournament).delete()
    if not tournament_is_finished(tournament):
        return 0
    standings = tournament_standings(tournament=tournament)
    created = Placing.objects.bulk_create(
        Placing(
            tournament=tournament,
            player_id=row.player_id,
            place=row.rank,
            game_points=row.game_points,
        )
        for row in standings.rows
        if row.rounds
    )
    return len(created)


@transaction.atomic
def ranking_round_closed(*, round_: Round) -> None:
    """After a round is closed (called by scoring.services.round_close): its tables confirmed in
    bulk are rated, and a tournament now finished gets its placings."""
    unrated = Table.objects.filter(
        round=round_, result__isnull=False, result__rating_changes__isnull=True
    ).select_related("round__tournament")
    _rate_unrated(list(unrated))
    placings_record(tournament=round_.tournament)
    ranking_changed()


@dataclass(frozen=True)
class Recomputed:
    tournaments: int  # finished tournaments with placings
    placings: int
    tables: int  # tables rated
    players: int  # players rated


@transaction.atomic
def ranking_recompute() -> Recomputed:
    """Everything from the stored results: every finished tournament's placings, and every
    player's rating from every confirmed table, replayed in the rating order."""
    Placing.objects.all().delete()
    placings = 0
    finished = 0
    for tournament in Tournament.objects.order_by("starts_on", "slug"):
        count = placings_record(tournament=tournament)
        finished += count > 0
        placings += count
    RatingChange.objects.all().delete()
    PlayerRating.objects.all().delete()
    RatingUpdate.objects.all().delete()  # everything is replayed here
    outcomes = _outcomes(SeatResult.objects.values_list(*_OUTCOME_FIELDS).order_by())
    ratings, changes = replay_ratings(outcomes)
    tables = _store_changes(changes)
    _store_ratings({player: (ratings[player], tables[player]) for player in ratings})
    ranking_changed()
    return Recomputed(
        tournaments=finished, placings=placings, tables=len(outcomes), players=len(ratings)
    )


@transaction.atomic
def qualifiers_register(
    *,
    tournament: Tournament,
    season: Season,
    players: list[Player],
    by: AbstractBaseUser | None,
    ip_address: str | None = None,
) -> int:
    """Register the final's qualifiers not registered yet (one step, one audit entry); returns
    how many were registered. Inactive players are refused by the caller's list."""
    if not players:
        raise ServiceError(_("nobody to register: every qualifier is registered already"))
    created = entries_register(
        tournament=tournament,
        players=players,
        by=by,
        ip_address=ip_address,
        action=QUALIFIERS_REGISTERED,
        season=season.name,
    )
    return len(created)


# -- Seasons and invitations (the federation's rules of the season ranking) ---------------------

# What a season's audit entry records of it, as stored (dates as ISO text).
SEASON_FIELDS = ("name", "starts_on", "ends_on", "best_k", "qualifiers", "points_table")


def _season_values(season: Season) -> dict[str, object]:
    values = {name: getattr(season, name) for name in SEASON_FIELDS}
    for name in ("starts_on", "ends_on"):
        if isinstance(values[name], datetime.date):
            values[name] = values[name].isoformat()
    return values


def _checked_table(points_table: object) -> dict[str, list[int]]:
    """The points table as the engine accepts it (levels in order), or a ServiceError."""
    try:
        return PointsTable.from_mapping(points_table).as_mapping()
    except SheetError as error:
        raise ServiceError(str(error)) from None


def _save_season(season: Season) -> None:
    """Check the season as the model does (dates, points table, unique name) and save it."""
    try:
        season.full_clean()
    except ValidationError as error:
        raise ServiceError(
            "; ".join(message for messages in error.message_dict.values() for message in messages)
        ) from None
    season.save()


@transaction.atomic
def season_create(
    *,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date,
    best_k: int,
    qualifiers: int,
    points_table: dict[str, list[int]],
    by: AbstractBaseUser | None,
    ip_address: str | None = None,
) -> Season:
    """A new season with its rules; the ranking pages show it at once."""
    season = Season(
        name=name,
        starts_on=starts_on,
        ends_on=ends_on,
        best_k=best_k,
        qualifiers=qualifiers,
        points_table=_checked_table(points_table),
    )
    _save_season(season)
    audit(
        action=AuditEntry.Action.RANKING_CHANGED,
        by=by,
        ip_address=ip_address,
        season=season.name,
        before={},
        after=_season_values(season),
    )
    ranking_changed()
    return season


@transaction.atomic
def season_update(
    *,
    season: Season,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date,
    best_k: int,
    qualifiers: int,
    points_table: dict[str, list[int]],
    by: AbstractBaseUser | None,
    ip_address: str | None = None,
) -> bool:
    """Change a season's rules. The ranking points are computed when read (`Placing` keeps the
    place, not the points), so a new points table or best K changes the ranking at once; the
    ranking pages' cache is renewed. False (and no audit entry) when nothing changes."""
    current = Season.objects.select_for_update().get(pk=season.pk)
    before = _season_values(current)
    current.name = name
    current.starts_on = starts_on
    current.ends_on = ends_on
    current.best_k = best_k
    current.qualifiers = qualifiers
    current.points_table = _checked_table(points_table)
    after = _season_values(current)
    changed = [field for field in SEASON_FIELDS if before[field] != after[field]]
    if not changed:
        return False
    _save_season(current)
    for field in SEASON_FIELDS:
        setattr(season, field, getattr(current, field))
    audit(
        action=AuditEntry.Action.RANKING_CHANGED,
        by=by,
        ip_address=ip_address,
        season=current.name,
        before={field: before[field] for field in changed},
        after={field: after[field] for field in changed},
    )
    ranking_changed()
    return True


def invitations_covering(*, season: Season, final: Tournament):
    """The season's invitations that invite to `final`: to every final, or to this one."""
    return Invitation.objects.filter(season=season).filter(
        Q(tournament__isnull=True) | Q(tournament=final)
    )


@transaction.atomic
def invitation_create(
    *,
    season: Season,
    final: Tournament,
    player: Player,
    whole_season: bool,
    reason: str,
    by: AbstractBaseUser | None,
    ip_address: str | None = None,
) -> Invitation:
    """Invite `player` to the final `final` (or, `whole_season`, to every final of the season):
    a title holder, a wild card. Refused for an inactive player, one invited to this final
    already, and one who qualifies by the ranking anyway. The audit entry is the final's."""
    # One invitation of a season at a time: two organisers cannot invite the same player twice.
    Season.objects.select_for_update().filter(pk=season.pk).order_by().first()
    name = player.full_name
    if not player.is_active:
        raise ServiceError(
            _("%(name)s is not an active player: only active players are invited.") % {"name": name}
        )
    existing = invitations_covering(season=season, final=final).filter(player=player).first()
    if existing is not None:
        if existing.tournament_id is None:
            message = _("%(name)s is already invited to every final of season %(season)s.")
        else:
            message = _("%(name)s is already invited to this final.")
        raise ServiceError(message % {"name": name, "season": season.name})
    ranked = next(
        (
            row
            for row in selectors.qualification(tournament=final, season=season).rows
            if row.player.pk == player.pk and row.qualified_by == QualifiedBy.RANKING
        ),
        None,
    )
    if ranked is not None:
        raise ServiceError(
            _(
                "%(name)s already qualifies by the season ranking (rank %(rank)s): "
                "no invitation is needed."
            )
            % {"name": name, "rank": ranked.rank}
        )
    invitation = Invitation.objects.create(
        season=season,
        player=player,
        tournament=None if whole_season else final,
        reason=reason.strip(),
    )
    audit(
        action=AuditEntry.Action.RANKING_CHANGED,
        by=by,
        tournament=final,
        ip_address=ip_address,
        season=season.name,
        player=name,
        reason=invitation.reason,
        invited=True,
        whole_season=whole_season,
    )
    return invitation


@transaction.atomic
def invitation_withdraw(
    *,
    invitation: Invitation,
    final: Tournament,
    by: AbstractBaseUser | None,
    ip_address: str | None = None,
) -> bool:
    """Take an invitation back (done from the final `final`'s page; the audit entry is that
    final's). Returns whether the player is registered for the final all the same: withdrawing
    the invitation does not withdraw an entry."""
    player = invitation.player
    season = invitation.season
    whole_season = invitation.tournament_id is None
    reason = invitation.reason
    deleted, _rows = Invitation.objects.filter(pk=invitation.pk).delete()
    if not deleted:
        raise ServiceError(
            _("The invitation of %(name)s was withdrawn already.") % {"name": player.full_name}
        )
    audit(
        action=AuditEntry.Action.RANKING_CHANGED,
        by=by,
        tournament=final,
        ip_address=ip_address,
        season=season.name,
        player=player.full_name,
        reason=reason,
        invited=False,
        whole_season=whole_season,
    )
    return final.entries.filter(player=player).exists()
