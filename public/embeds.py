"""The embeds: small pages that other sites (the federation's, a club's) show in a frame: the
upcoming tournaments, a tournament's standings, the season ranking. Each has its own plain
template (no navigation, no language bar), links to its full page in a new tab, is served from
the cache like the public pages, and may be framed by the sites settings.EMBED_FRAME_ANCESTORS
names (core.security.frameable)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from accounts.access import cached_tournament_page
from core.page_cache import EVERY_TOURNAMENT, cached_public_page
from core.query import id_param, whole_number
from core.security import frameable
from ranking import selectors as ranking_selectors
from ranking.ranking_page_cache import SEASON_PAGES, cached_ranking_page
from scoring import selectors
from scoring.selectors.calendar import club_by_id
from tournaments.models import Level, Tournament

UPCOMING_MAX = 30  # an embed is a short list: the full page lists them all

UPCOMING_PARAMS = frozenset({"level", "club"})
STANDINGS_PARAMS: frozenset[str] = frozenset()
RANKING_PARAMS = frozenset({"season", "limit"})

# How many of the season ranking's players the embed lists: ?limit=, within these bounds.
RANKING_LIMIT_DEFAULT = 10
RANKING_LIMIT_MIN = 10
RANKING_LIMIT_MAX = 100


@frameable
@require_safe
def upcoming(request: HttpRequest) -> HttpResponse:
    """The upcoming tournaments, soonest first; ?level= (club, district, national) lists one
    level's, ?club= (an id) those a club's players are registered for, as the calendar feed."""
    return cached_public_page(
        request,
        # Any tournament's change renews it, as it does the calendar feed.
        tournament_id=EVERY_TOURNAMENT,
        params=UPCOMING_PARAMS,
        render=lambda: _upcoming(request),
    )


def _level(request: HttpRequest) -> str | None:
    level = request.GET.get("level", "").strip()
    if not level:
        return None
    if level not in Level.values:
        raise Http404(_("No such level."))
    return level


def _upcoming(request: HttpRequest) -> HttpResponse:
    level = _level(request)
    club_id = id_param(request, "club")
    club = None if club_id is None else club_by_id(club_id)
    if club_id is not None and club is None:
        raise Http404(_("No such club."))
    return render(
        request,
        "public/embed/upcoming.html",
        {
            "tournaments": selectors.upcoming_tournaments(
                level=level, club_id=club_id, limit=UPCOMING_MAX
            ),
            "level": Level(level).label if level else None,
            "club": club,
        },
    )


@frameable
@require_safe
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """A tournament's standings by its confirmed tables, compact: place, name, place points,
    game points. Renewed with the tournament's pages when a table is confirmed."""
    return cached_tournament_page(
        request,
        slug,
        params=STANDINGS_PARAMS,
        render=lambda tournament: _standings(request, tournament),
    )


def _standings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(
        request,
        "public/embed/standings.html",
        {
            "tournament": tournament,
            "standings": selectors.tournament_standings(tournament=tournament),
        },
    )


@frameable
@require_safe
def ranking(request: HttpRequest) -> HttpResponse:
    """The top of the season ranking: ?season= (the current one by default), ?limit= players
    (RANKING_LIMIT_MIN to RANKING_LIMIT_MAX; outside them, the nearest)."""
    return cached_ranking_page(
        request, pages=SEASON_PAGES, params=RANKING_PARAMS, render=lambda: _ranking(request)
    )


def ranking_limit(text: str | None) -> int:
    """?limit= as the number of players listed: a number outside the bounds is brought within
    them, anything else is the default (an embed is never an error for its size)."""
    number = whole_number(text)
    if number is None:
        return RANKING_LIMIT_DEFAULT
    return min(max(number, RANKING_LIMIT_MIN), RANKING_LIMIT_MAX)


def _ranking(request: HttpRequest) -> HttpResponse:
    seasons = ranking_selectors.season_list()
    season_id = id_param(request, "season")
    if season_id is None:
        season = ranking_selectors.default_season(seasons)
    else:
        season = ranking_selectors.season_by_id(seasons, season_id)
        if season is None:
            raise Http404(_("No such season."))
    limit = ranking_limit(request.GET.get("limit"))
    rows = (
        ranking_selectors.season_standings(season=season).rows[:limit] if season is not None else []
    )
    return render(
        request, "public/embed/ranking.html", {"season": season, "rows": rows, "limit": limit}
    )
