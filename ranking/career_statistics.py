"""A player's statistics over a scope the reader chooses (his career, one of his seasons, one
of his tournaments), with what the ranking adds to the figures of every deal: his best final
places and, for a season, his ranking points. The player's page and the API read it here."""

from __future__ import annotations

from dataclasses import dataclass

from ranking.models import Placing, Season
from ranking.selectors import PlayerSeason, best_finishes, player_ranking, season_list
from scoring.selectors.player_statistics import (
    PlayerStatistics,
    StatisticsScope,
    player_statistics,
)
from tournaments.models import Player, Tournament


@dataclass(frozen=True)
class ScopedStatistics:
    season: Season | None  # the chosen season, if one is
    tournament: Tournament | None  # the chosen tournament, if one is
    statistics: PlayerStatistics
    best_finishes: list[Placing]
    season_ranking: PlayerSeason | None  # his season ranking, when the scope is a season


def player_seasons(*, tournaments: list[Tournament]) -> list[Season]:
    """The seasons of these tournaments (his), newest first."""
    return [
        season
        for season in season_list()
        if any(season.covers(tournament.starts_on) for tournament in tournaments)
    ]


def scoped_statistics(
    *,
    player: Player,
    tournaments: list[Tournament],
    season_id: int | None = None,
    tournament_slug: str | None = None,
    ranking_seasons: list[PlayerSeason] | None = None,
) -> ScopedStatistics | None:
    """His statistics in one of his `tournaments` (by slug), one of their seasons (by id), or
    his whole career (neither given); None when the scope asked for is not one of his.
    `ranking_seasons`: his seasons' ranking (`player_ranking`) when the caller has it."""
    if tournament_slug is not None:
        tournament = next((t for t in tournaments if t.slug == tournament_slug), None)
        if tournament is None:
            return None
        return ScopedStatistics(
            season=None,
            tournament=tournament,
            statistics=player_statistics(
                player=player, scope=StatisticsScope(tournament=tournament)
            ),
            best_finishes=best_finishes(
                player=player, tournaments=Tournament.objects.filter(pk=tournament.pk)
            ),
            season_ranking=None,
        )
    if season_id is not None:
        season = next(
            (s for s in player_seasons(tournaments=tournaments) if s.pk == season_id), None
        )
        if season is None:
            return None
        scope = StatisticsScope(starts_on=season.starts_on, ends_on=season.ends_on)
        return ScopedStatistics(
            season=season,
            tournament=None,
            statistics=player_statistics(player=player, scope=scope),
            best_finishes=best_finishes(
                player=player,
                tournaments=Tournament.objects.filter(
                    starts_on__gte=season.starts_on, starts_on__lte=season.ends_on
                ),
            ),
            season_ranking=next(
                (
                    item
                    for item in (
                        player_ranking(player=player)
                        if ranking_seasons is None
                        else ranking_seasons
                    )
                    if item.season.pk == season.pk
                ),
                None,
            ),
        )
    return ScopedStatistics(
        season=None,
        tournament=None,
        statistics=player_statistics(player=player, scope=StatisticsScope()),
        best_finishes=best_finishes(player=player),
        season_ranking=None,
    )
