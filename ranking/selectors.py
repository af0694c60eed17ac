"""Ranking reads: the season ranking, the rating list, a player's ranking points and rating
history, a final's qualification list.

Each read runs a fixed number of queries whatever the number of players and tournaments: the
placings of a season come in one query (joined with their players, clubs and tournaments), the
engine ranks them in Python.
"""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from django.core.cache import cache
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from core.choices import choice_label
from core.engine_text import display_name_key
from engine.names import latvian_sort_key
from engine.ranking import (
    EventResult,
    QualifiedBy,
    RankedPlayer,
    best_results,
    event_result,
    qualifiers,
    season_ranking,
)
from engine.rating import (
    Rating,
    RatingSpan,
    TablePlace,
    expected_places,
    rating_span,
    shared_places,
)
from ranking.models import Invitation, Placing, PlayerRating, RatingChange, RatingUpdate, Season
from scoring.selectors import has_public_result, rank_label
from tournaments.models import Club, Level, Player, Tournament
from tournaments.selectors import players_found

# Names and clubs recur on every page and in every request: their sort keys are kept.
name_key = lru_cache(maxsize=16384)(latvian_sort_key)


# -- Seasons -------------------------------------------------------------------------------------


def season_list() -> list[Season]:
    return list(Season.objects.order_by("-starts_on", "name"))


def default_season(seasons: Sequence[Season], day: datetime.date | None = None) -> Season | None:
    """The season `day` (today) falls in, else the latest that has started, else the first."""
    day = day or timezone.localdate()
    for season in seasons:  # newest first
        if season.covers(day):
            return season
    for season in seasons:
        if season.starts_on <= day:
            return season
    return seasons[-1] if seasons else None


def season_by_id(seasons: Sequence[Season], season_id: int) -> Season | None:
    return next((season for season in seasons if season.pk == season_id), None)


def club_list() -> list[Club]:
    """Every club, in the reader's alphabetical order (the database sorts by character code)."""
    return sorted(Club.objects.all(), key=lambda club: display_name_key(club.name))


# -- The season ranking --------------------------------------------------------------------------


@dataclass(frozen=True)
class RankingRow:
    position: int  # 1-based in the ranking's order
    rank: int
    rank_label: str  # "2–3" when shared
    shared: bool
    player_id: int
    name: str
    club_id: int | None
    club: str
    points: int
    wins: int
    game_points: int
    counted: int  # results counted (at most best K)
    events: int  # tournaments played in the season
    has_page: bool = False  # the player has a public page (has_public_result)


@dataclass(frozen=True)
class SeasonRanking:
    season: Season
    rows: list[RankingRow]  # the whole ranking, or the club's players, in ranking order
    tournaments: int  # finished tournaments counted in the season


def _season_results(
    season: Season, *, player: Player | None = None
) -> tuple[list[EventResult], dict[str, tuple[str, int | None, str, bool]], set[str]]:
    """The season's results with their points, each player's (name, club id, club name, whether
    he has a public page), and the tournaments. One query."""
    table = season.table
    placings = Placing.objects.filter(
        tournament__starts_on__gte=season.starts_on, tournament__starts_on__lte=season.ends_on
    )
    if player is not None:
        placings = placings.filter(player=player)
    rows = (
        placings.annotate(has_page=has_public_result("player_id"))
        .values_list(
            "player_id",
            "player__full_name",
            "player__club_id",
            "player__club__name",
            "tournament__slug",
            "tournament__starts_on",
            "tournament__level",
            "place",
            "game_points",
            "has_page",
        )
        .order_by()
    )
    results = []
    people: dict[str, tuple[str, int | None, str, bool]] = {}
    events = set()
    for player_id, name, club_id, club, slug, starts_on, level, place, game_points, page in rows:
        key = str(player_id)
        people[key] = (name, club_id, club or "", page)
        events.add(slug)
        results.append(
            event_result(
                table,
                player=key,
                event=slug,
                held_on=starts_on,
                level=level,
                place=place,
                game_points=game_points,
            )
        )
    return results, people, events


def season_standings(*, season: Season, club_id: int | None = None) -> SeasonRanking:
    """The season ranking (best K results, then wins, then game points; shared ranks), with the
    ranks of the whole ranking even when only one club's players are listed. One query."""
    results, people, events = _season_results(season)
    ranked = season_ranking(
        results, best_k=season.best_k, names={key: name for key, (name, *_rest) in people.items()}
    )
    shared = Counter(row.rank for row in ranked)
    rows = []
    for position, row in enumerate(ranked, start=1):
        name, row_club_id, club, has_page = people[row.player]
        if club_id is not None and row_club_id != club_id:
            continue
        rows.append(
            RankingRow(
                position=position,
                rank=row.rank,
                rank_label=rank_label(row.rank, shared[row.rank]),
                shared=shared[row.rank] > 1,
                player_id=int(row.player),
                name=name,
                club_id=row_club_id,
                club=club,
                points=row.points,
                wins=row.wins,
                game_points=row.game_points,
                counted=len(row.counted),
                events=row.events,
                has_page=has_page,
            )
        )
    return SeasonRanking(season=season, rows=rows, tournaments=len(events))


# -- The rating list -----------------------------------------------------------------------------


@dataclass(frozen=True)
class RatingRow:
    position: int
    rank: int
    player_id: int
    name: str
    club: str
    mu: float
    sigma: float
    ordinal: float
    tables: int
    has_page: bool = False  # the player has a public page (has_public_result)


def rating_list(*, club_id: int | None = None) -> list[RatingRow]:
    """Every rated player by his conservative rating (mu − 3·sigma), highest first; equal
    ratings share a rank and are listed by name. One query."""
    ratings = PlayerRating.objects.annotate(has_page=has_public_result("player_id")).values_list(
        "player_id", "player__full_name", "player__club_id", "player__club__name",
        "mu", "sigma", "ordinal", "tables", "has_page",
    ).order_by()  # fmt: skip
    ordered = sorted(ratings, key=lambda row: (-row[6], name_key(row[1])))
    rows = []
    rank = 0
    for position, row in enumerate(ordered, start=1):
        player_id, name, row_club_id, club, mu, sigma, ordinal, tables, has_page = row
        if position == 1 or ordinal != ordered[position - 2][6]:
            rank = position
        if club_id is not None and row_club_id != club_id:
            continue
        rows.append(
            RatingRow(
                position=position,
                rank=rank,
                player_id=player_id,
                name=name,
                club=club or "",
                mu=mu,
                sigma=sigma,
                ordinal=ordinal,
                tables=tables,
                has_page=has_page,
            )
        )
    return rows


# -- A player's page -----------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerEvent:
    """A player's ranking points in one finished tournament of a season."""

    season: Season
    tournament: Tournament
    level: str
    place: int
    points: int
    counted: bool  # among his best K of the season
    place_label: str = ""  # "2–3" when tied players share the place

    @property
    def level_display(self) -> str:
        return choice_label(Level, self.level)


@dataclass(frozen=True)
class PlayerSeason:
    season: Season
    rank: int | None
    points: int
    events: list[PlayerEvent]


def player_ranking(*, player: Player) -> list[PlayerSeason]:
    """The player's ranking points per tournament, season by season (newest first), each marked
    counted or not (his best K), with his season rank. 2 queries, plus 1 per season he played
    in (his rank needs the whole season's ranking)."""
    # How many share each of his places: the place is shown as the span they share.
    shared_by = Subquery(
        Placing.objects.filter(tournament=OuterRef("tournament"), place=OuterRef("place"))
        .order_by()
        .values("tournament")
        .annotate(count=Count("pk"))
        .values("count")
    )
    placings = list(
        Placing.objects.filter(player=player)
        .annotate(shared_by=shared_by)
        .select_related("tournament")
        .order_by("-tournament__starts_on", "tournament__slug")
    )
    if not placings:
        return []
    seasons = season_list()
    result = []
    for season in seasons:
        mine = [p for p in placings if season.covers(p.tournament.starts_on)]
        if not mine:
            continue
        table = season.table
        scored = {
            placing.pk: event_result(
                table,
                player=str(player.pk),
                event=placing.tournament.slug,
                held_on=placing.tournament.starts_on,
                level=placing.tournament.level,
                place=placing.place,
                game_points=placing.game_points,
            )
            for placing in mine
        }
        counted, _dropped = best_results(scored.values(), season.best_k)
        counted_events = {result.event for result in counted}
        ranking = season_standings(season=season)
        rank = next((row.rank for row in ranking.rows if row.player_id == player.pk), None)
        result.append(
            PlayerSeason(
                season=season,
                rank=rank,
                points=sum(result.points for result in counted),
                events=[
                    PlayerEvent(
                        season=season,
                        tournament=placing.tournament,
                        level=placing.tournament.level,
                        place=placing.place,
                        points=scored[placing.pk].points,
                        counted=placing.tournament.slug in counted_events,
                        place_label=rank_label(placing.place, placing.shared_by),
                    )
                    for placing in mine
                ],
            )
        )
    return result


@dataclass(frozen=True)
class RatingPoint:
    number: int  # 1-based: the player's n-th rated table
    tournament_name: str
    tournament_slug: str
    played_on: datetime.date
    round_number: int
    table_number: int
    place: int
    after: Rating
    place_label: str = ""  # "2–3" when tied players at his table shared the place


@dataclass(frozen=True)
class PlayerRatingHistory:
    current: Rating | None
    tables: int
    rank: int | None  # in the rating list
    points: list[RatingPoint]  # in the rating order


def player_rating(*, player: Player) -> PlayerRatingHistory:
    """The player's current rating, his place in the rating list and his rating after each
    rated table, in the order the tables were rated. 3 queries."""
    current = PlayerRating.objects.filter(player=player).first()
    rank = None
    if current is not None:
        rank = 1 + PlayerRating.objects.filter(ordinal__gt=current.ordinal).count()
    # How many at his table shared his place: the place is shown as the span they share.
    shared_by = Subquery(
        RatingChange.objects.filter(table_result=OuterRef("table_result"), place=OuterRef("place"))
        .order_by()
        .values("table_result")
        .annotate(count=Count("pk"))
        .values("count")
    )
    changes = RatingChange.objects.filter(player=player).annotate(shared_by=shared_by).values_list(
        "table_result__table__round__tournament__name",
        "table_result__table__round__tournament__slug",
        "table_result__table__round__tournament__starts_on",
        "table_result__table__round__number",
        "table_result__table__number",
        "place",
        "mu_after",
        "sigma_after",
        "shared_by",
    ).order_by()  # fmt: skip
    ordered = sorted(changes, key=lambda row: (row[2], row[1], row[3], row[4]))
    return PlayerRatingHistory(
        current=Rating(current.mu, current.sigma) if current else None,
        tables=current.tables if current else 0,
        rank=rank,
        points=[
            RatingPoint(
                number,
                name,
                slug,
                day,
                round_number,
                table_number,
                place,
                Rating(m, s),
                place_label=rank_label(place, shared),
            )
            for number, (name, slug, day, round_number, table_number, place, m, s, shared) in (
                enumerate(ordered, start=1)
            )
        ],
    )


def player_rating_spans(*, player: Player) -> dict[int, RatingSpan]:
    """The player's rating over each tournament he was rated in, by tournament id: before his
    first table there and after his last, and his places at those tables beside those the
    ratings before each table expected (engine.rating.expected_places). One query: the rating
    changes of everyone at his tables."""
    his_tables = RatingChange.objects.filter(player=player).values("table_result_id")
    rows = RatingChange.objects.filter(table_result_id__in=his_tables).values_list(
        "table_result_id", "player_id", "place", "mu_before", "sigma_before", "mu_after",
        "sigma_after", "table_result__table__round__tournament_id",
        "table_result__table__round__number", "table_result__table__number",
    ).order_by()  # fmt: skip
    seated: dict[int, list[tuple[int, int, Rating, Rating]]] = {}
    order: dict[int, tuple[int, int, int]] = {}  # table result → (tournament, round, table)
    for row in rows:
        result_id, player_id, place, mu, sigma, mu_after, sigma_after, *where = row
        seated.setdefault(result_id, []).append(
            (player_id, place, Rating(mu, sigma), Rating(mu_after, sigma_after))
        )
        tournament_id, round_number, table_number = where
        order[result_id] = (tournament_id, round_number, table_number)
    mine = str(player.pk)
    by_tournament: dict[int, list[TablePlace]] = {}
    for result_id in sorted(seated, key=order.__getitem__):
        table = {
            str(player_id): (place, before, after)
            for player_id, place, before, after in seated[result_id]
        }
        expected = expected_places({key: before for key, (_place, before, _after) in table.items()})
        actual = shared_places({key: place for key, (place, _before, _after) in table.items()})
        _place, before, after = table[mine]
        by_tournament.setdefault(order[result_id][0], []).append(
            TablePlace(before=before, after=after, expected=expected[mine], actual=actual[mine])
        )
    return {tournament: rating_span(tables) for tournament, tables in by_tournament.items()}


# -- A final's qualification list ----------------------------------------------------------------


@dataclass(frozen=True)
class QualifierRow:
    player: Player
    qualified_by: QualifiedBy
    rank: int | None
    points: int | None
    reason: str  # an invitation's reason
    registered: bool

    @property
    def can_register(self) -> bool:
        return not self.registered and self.player.is_active


@dataclass(frozen=True)
class Qualification:
    tournament: Tournament
    season: Season
    rows: list[QualifierRow]

    @property
    def to_register(self) -> list[Player]:
        return [row.player for row in self.rows if row.can_register]

    @property
    def registered_count(self) -> int:
        return sum(row.registered for row in self.rows)


def qualification(*, tournament: Tournament, season: Season) -> Qualification:
    """Who qualifies for the final `tournament` by the season's rules: the top N of the season
    ranking and the invited players (for every final of the season or for this one), each marked
    registered or not. 4 queries."""
    results, people, _events = _season_results(season)
    ranked: list[RankedPlayer] = season_ranking(
        results, best_k=season.best_k, names={key: name for key, (name, *_rest) in people.items()}
    )
    invitations = list(
        Invitation.objects.filter(season=season, tournament__isnull=True).order_by("pk")
    ) + list(Invitation.objects.filter(season=season, tournament=tournament).order_by("pk"))
    reasons: dict[str, str] = {}
    for invitation in invitations:
        reasons.setdefault(str(invitation.player_id), invitation.reason)
    chosen = qualifiers(ranked, places=season.qualifiers, invited=list(reasons))
    players = (
        Player.objects.select_related("club")
        .annotate(has_page=has_public_result())
        .in_bulk([int(qualifier.player) for qualifier in chosen])
    )
    registered = set(
        tournament.registrations.filter(player_id__in=players).values_list("player_id", flat=True)
    )
    points = {row.player: row.points for row in ranked}
    return Qualification(
        tournament=tournament,
        season=season,
        rows=[
            QualifierRow(
                player=players[int(qualifier.player)],
                qualified_by=qualifier.qualified_by,
                rank=qualifier.rank,
                points=points.get(qualifier.player),
                reason=reasons.get(qualifier.player, "")
                if qualifier.qualified_by == QualifiedBy.INVITATION
                else "",
                registered=int(qualifier.player) in registered,
            )
            for qualifier in chosen
        ],
    )


def final_invitations(*, season: Season, final: Tournament) -> list[Invitation]:
    """The season's invitations to the final `final` (to every final of the season, then to
    this one), each group in the reader's alphabetical order, with their players and clubs.
    One query."""
    invitations = (
        Invitation.objects.filter(season=season)
        .filter(Q(tournament__isnull=True) | Q(tournament=final))
        .select_related("player__club")
        .annotate(player_has_page=has_public_result("player_id"))
    )
    return sorted(
        invitations,
        key=lambda invitation: (
            invitation.tournament_id is not None,
            display_name_key(invitation.player.full_name),
            invitation.pk,
        ),
    )


# Players found to invite: a search narrows the register to a list one can choose from.
PLAYER_SEARCH_LIMIT = 50


def invitable_players(*, query: str) -> list[Player]:
    """Active players a search for `query` finds (`players_found`: by name, club or licence,
    without marks), in the reader's alphabetical order; at most PLAYER_SEARCH_LIMIT (none for
    an empty query). One query."""
    found = players_found(Player.objects.filter(is_active=True).select_related("club"), query)
    return sorted(found, key=lambda player: display_name_key(player.full_name))[
        :PLAYER_SEARCH_LIMIT
    ]


@dataclass(frozen=True)
class RatingUpdateProgress:
    """A re-rating waiting or running (ranking.services.rating_updates_run): the tables rated
    again so far, of how many (0 of None before the job has counted them)."""

    done: int = 0
    total: int | None = None


def rating_update_progress() -> RatingUpdateProgress | None:
    """The re-rating in progress, if any (None: the ratings are up to date). One query."""
    if not RatingUpdate.objects.exists():
        return None
    # The job's key (ranking.services.rating_job.PROGRESS_KEY): selectors do not import services.
    told = cache.get("zole:ratings:update-progress") or {}
    return RatingUpdateProgress(done=told.get("done", 0), total=told.get("total"))


def best_finishes(
    *, player: Player, tournaments: QuerySet[Tournament] | None = None, count: int = 3
) -> list[Placing]:
    """His best final places (of finished tournaments; among `tournaments` when given), best
    first, with the tournament. One query."""
    placings = Placing.objects.filter(player=player).select_related("tournament")
    if tournaments is not None:
        placings = placings.filter(tournament__in=tournaments)
    return list(placings.order_by("place", "-tournament__starts_on")[:count])
