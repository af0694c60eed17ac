"""Which of a player's statistics his page shows (his career, a season, one of his tournaments)
and the figures for it, with the choices to switch between them."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.query import id_param
from core.svg_charts import ShareChart, share_chart
from engine.rules import Game
from ranking.models import Placing
from ranking.selectors import PlayerSeason, best_finishes, player_ranking, season_list
from scoring.selectors.player_statistics import PlayerStatistics, StatisticsScope
from scoring.selectors.player_statistics import player_statistics as statistics_of
from scoring.selectors.players import PlayerTournament
from tournaments.models import Player, Tournament

# The query parameters the player's page reads.
SCOPE_PARAMS = frozenset({"season", "tournament"})

GAME_WORDS = {
    Game.LIELAIS: gettext_lazy("Lielais"),
    Game.ZOLE: gettext_lazy("Zole"),
    Game.MAZA_ZOLE: gettext_lazy("Mazā zole"),
}


@dataclass(frozen=True)
class ScopeChoice:
    label: str
    query: str  # the page's query string for it ("" for the career)
    chosen: bool


@dataclass(frozen=True)
class StatisticsSection:
    title: str
    statistics: PlayerStatistics
    choices: list[ScopeChoice]
    chart: ShareChart | None
    best_finishes: list[Placing]
    season: PlayerSeason | None  # his season ranking, when the scope is a season


def statistics_section(
    request: HttpRequest, *, player: Player, history: list[PlayerTournament]
) -> StatisticsSection:
    """The scope the query asks for (`?season=<id>`, `?tournament=<slug>`; neither: his
    career): one of his seasons or tournaments, else 404."""
    seasons = [
        season
        for season in season_list()
        if any(season.covers(item.tournament.starts_on) for item in history)
    ]
    tournaments = [item.tournament for item in history if item.confirmed_rounds]
    slug = request.GET.get("tournament")
    in_scope = None
    season_ranking = None
    season_id = id_param(request, "season")
    choices = [ScopeChoice(_("Career"), "", slug is None and season_id is None)]
    choices += [
        ScopeChoice(
            season.name,
            f"?season={season.pk}",
            slug is None and season_id == season.pk,
        )
        for season in seasons
    ]
    choices += [
        ScopeChoice(tournament.name, f"?tournament={tournament.slug}", slug == tournament.slug)
        for tournament in tournaments
    ]
    if slug is not None:
        tournament = next((t for t in tournaments if t.slug == slug), None)
        if tournament is None:
            raise Http404(_("No statistics of this player in that tournament."))
        scope, title = StatisticsScope(tournament=tournament), tournament.name
        in_scope = Tournament.objects.filter(pk=tournament.pk)
    elif "season" in request.GET:
        season = next((s for s in seasons if s.pk == season_id), None)
        if season is None:
            raise Http404(_("No statistics of this player in that season."))
        scope = StatisticsScope(starts_on=season.starts_on, ends_on=season.ends_on)
        title = season.name
        in_scope = Tournament.objects.filter(
            starts_on__gte=season.starts_on, starts_on__lte=season.ends_on
        )
        season_ranking = next(
            (item for item in player_ranking(player=player) if item.season.pk == season.pk), None
        )
    else:
        scope, title = StatisticsScope(), _("Career")
    statistics = statistics_of(player=player, scope=scope)
    rows = [
        (str(GAME_WORDS[line.game]), line.won_share, line.field_won_share)
        for line in statistics.games
    ]
    rows.append((_("Defence"), statistics.defender_share, statistics.field_defender_share))
    return StatisticsSection(
        title=title,
        statistics=statistics,
        choices=choices,
        chart=share_chart(rows),
        best_finishes=best_finishes(player=player, tournaments=in_scope),
        season=season_ranking,
    )
