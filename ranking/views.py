"""The public ranking pages: the season ranking and the rating list (cached, CSV/XLSX). Views stay
thin: selectors read. The organisers' pages of the ranking (a final's qualification list, the
seasons' rules) are the organiser's app's."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from core.lean_tables import EXPORT_FORMATS, export_response
from core.query import id_param, paginate
from engine.rating import NEW_PLAYER
from ranking import selectors
from ranking.ranking_page_cache import RATING_PAGES, SEASON_PAGES, cached_ranking_page
from ranking.ranking_tables import RatingTable, SeasonRankingTable, rating_text
from tournaments.models import Club

ROWS_PER_PAGE = 100
# Every query parameter the pages read (the view's and django-tables2's).
RANKING_PARAMS = frozenset({"season", "club", "_export", "sort", "page", "per_page"})
RATING_PARAMS = frozenset({"club", "_export", "sort", "page", "per_page"})


def _club(request: HttpRequest, clubs: list[Club]) -> Club | None:
    club_id = id_param(request, "club")
    if club_id is None:
        return None
    club = next((club for club in clubs if club.pk == club_id), None)
    if club is None:
        raise Http404(_("No such club."))
    return club


@require_GET
def season_ranking(request: HttpRequest) -> HttpResponse:
    """The season ranking: ?season= (the current one by default), ?club= to list one club."""
    return cached_ranking_page(
        request, pages=SEASON_PAGES, params=RANKING_PARAMS, render=lambda: _season_ranking(request)
    )


def _season_ranking(request: HttpRequest) -> HttpResponse:
    seasons = selectors.season_list()
    season_id = id_param(request, "season")
    if season_id is None:
        season = selectors.default_season(seasons)
    else:
        season = selectors.season_by_id(seasons, season_id)
        if season is None:
            raise Http404(_("No such season."))
    clubs = selectors.club_list()
    club = _club(request, clubs)
    if season is None:
        return render(request, "ranking/season.html", {"season": None, "seasons": seasons})
    ranking = selectors.season_standings(season=season, club_id=club.pk if club else None)
    table = SeasonRankingTable.for_rows(ranking.rows)
    export_format = request.GET.get("_export", "")
    exporting = export_format in EXPORT_FORMATS
    paginate(request, table, per_page=ROWS_PER_PAGE, exporting=exporting)
    if exporting:
        name = f"ranking-{season.pk}" + (f"-club-{club.pk}" if club else "")
        return export_response(
            table, export_format=export_format, title=str(_("Season ranking")), filename=name
        )
    return render(
        request,
        "ranking/season.html",
        {
            "season": season,
            "seasons": seasons,
            "clubs": clubs,
            "club": club,
            "ranking": ranking,
            "table": table,
        },
    )


@require_GET
def rating(request: HttpRequest) -> HttpResponse:
    """The rating list: every rated player by his conservative rating; ?club= to list one club."""
    return cached_ranking_page(
        request, pages=RATING_PAGES, params=RATING_PARAMS, render=lambda: _rating(request)
    )


def _rating(request: HttpRequest) -> HttpResponse:
    clubs = selectors.club_list()
    club = _club(request, clubs)
    table = RatingTable.for_rows(selectors.rating_list(club_id=club.pk if club else None))
    export_format = request.GET.get("_export", "")
    exporting = export_format in EXPORT_FORMATS
    paginate(request, table, per_page=ROWS_PER_PAGE, exporting=exporting)
    if exporting:
        name = "rating" + (f"-club-{club.pk}" if club else "")
        return export_response(
            table, export_format=export_format, title=str(_("Rating")), filename=name
        )
    return render(
        request,
        "ranking/rating.html",
        {
            "clubs": clubs,
            "club": club,
            "table": table,
            "update": selectors.rating_update_progress(),
            "new_mu": rating_text(NEW_PLAYER.mu),
            "new_sigma": rating_text(NEW_PLAYER.sigma),
            "new_rating": rating_text(NEW_PLAYER.ordinal),
        },
    )
