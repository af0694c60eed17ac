"""Which of a player's statistics his page shows (his career, a season, one of his tournaments:
ranking.career_statistics) and the choices to switch between them, with the chart."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _

from core.query import id_param
from core.svg_charts import ShareChart, share_chart
from public.templatetags.statistics_figures import percent
from ranking.career_statistics import ScopedStatistics, player_seasons, scoped_statistics
from ranking.selectors import PlayerSeason
from scoring.selectors.players import PlayerTournament
from tournaments.models import Player

# The query parameters the player's page reads.
SCOPE_PARAMS = frozenset({"season", "tournament"})


@dataclass(frozen=True)
class ScopeChoice:
    label: str
    query: str  # the page's query string for it ("" for the career)
    chosen: bool


@dataclass(frozen=True)
class StatisticsSection:
    title: str
    scoped: ScopedStatistics
    choices: list[ScopeChoice]
    chart: ShareChart | None


def statistics_section(
    request: HttpRequest,
    *,
    player: Player,
    history: list[PlayerTournament],
    ranking_seasons: list[PlayerSeason],
) -> StatisticsSection:
    """The scope the query asks for (`?season=<id>`, `?tournament=<slug>`; neither: his
    career): one of his seasons or tournaments, else 404."""
    tournaments = [item.tournament for item in history if item.confirmed_rounds]
    slug = request.GET.get("tournament")
    season_id = id_param(request, "season") if "season" in request.GET else None
    if "season" in request.GET and season_id is None:
        raise Http404(_("No statistics of this player in that season."))
    scoped = scoped_statistics(
        player=player,
        tournaments=tournaments,
        season_id=season_id,
        tournament_slug=slug,
        ranking_seasons=ranking_seasons,
    )
    if scoped is None:
        raise Http404(
            _("No statistics of this player in that tournament.")
            if slug is not None
            else _("No statistics of this player in that season.")
        )
    choices = [ScopeChoice(_("Career"), "", scoped.season is None and scoped.tournament is None)]
    choices += [
        ScopeChoice(season.name, f"?season={season.pk}", season == scoped.season)
        for season in player_seasons(tournaments=tournaments)
    ]
    choices += [
        ScopeChoice(
            tournament.name, f"?tournament={tournament.slug}", tournament == scoped.tournament
        )
        for tournament in tournaments
    ]
    statistics = scoped.statistics
    rows = [(line.label, line.won_share, line.field_won_share) for line in statistics.games]
    rows.append((_("Defence"), statistics.defender_share, statistics.field_defender_share))
    title = (
        scoped.tournament.name
        if scoped.tournament
        else scoped.season.name
        if scoped.season
        else _("Career")
    )
    return StatisticsSection(
        title=title, scoped=scoped, choices=choices, chart=share_chart(rows, text=percent)
    )
