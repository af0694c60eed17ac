"""Ranking pages: the season ranking and the rating list (public, cached, CSV/XLSX), and the
qualification list of a final (its organisers). Views stay thin: selectors read, services write."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods
from django_tables2 import RequestConfig

from ranking import selectors, services
from ranking.cache import cached_ranking_page
from ranking.charts import rating_chart
from ranking.models import Season
from ranking.tables import RatingTable, SeasonRankingTable
from scoring.tables import EXPORT_FORMATS, export_response
from tournaments.models import Club, Player, Tournament
from tournaments.services import ServiceError
from tournaments.views import client_ip, organiser_required

ROWS_PER_PAGE = 100
MAX_PER_PAGE = 500
# Every query parameter the pages read (the view's and django-tables2's).
RANKING_PARAMS = frozenset({"season", "club", "_export", "sort", "page", "per_page"})
RATING_PARAMS = frozenset({"club", "_export", "sort", "page", "per_page"})


def _id_param(request: HttpRequest, name: str) -> int | None:
    """An id from the query string: absent or empty is None; anything but a whole number > 0 is
    a page that does not exist (404)."""
    text = request.GET.get(name, "").strip()
    if not text:
        return None
    if not text.isascii() or not text.isdigit() or int(text) < 1:
        raise Http404(_("No such %(name)s.") % {"name": name})
    return int(text)


def _club(request: HttpRequest, clubs: list[Club]) -> Club | None:
    club_id = _id_param(request, "club")
    if club_id is None:
        return None
    club = next((club for club in clubs if club.pk == club_id), None)
    if club is None:
        raise Http404(_("No such club."))
    return club


def _paginated(request: HttpRequest, table, *, exporting: bool) -> None:
    per_page = request.GET.get("per_page")
    if per_page is not None and (
        not per_page.isascii() or not per_page.isdigit() or not 1 <= int(per_page) <= MAX_PER_PAGE
    ):
        raise Http404(_("Rows per page are 1–%(max)s.") % {"max": MAX_PER_PAGE})
    RequestConfig(request, paginate=False if exporting else {"per_page": ROWS_PER_PAGE}).configure(
        table
    )


@require_GET
def season_ranking(request: HttpRequest) -> HttpResponse:
    """The season ranking: ?season= (the current one by default), ?club= to list one club."""
    return cached_ranking_page(
        request, params=RANKING_PARAMS, render=lambda: _season_ranking(request)
    )


def _season_ranking(request: HttpRequest) -> HttpResponse:
    seasons = selectors.season_list()
    season_id = _id_param(request, "season")
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
    _paginated(request, table, exporting=exporting)
    if exporting:
        name = f"ranking-{season.pk}" + (f"-club-{club.pk}" if club else "")
        return export_response(
            table, export_format=export_format, title=str(_("Ranking")), filename=name
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
    return cached_ranking_page(request, params=RATING_PARAMS, render=lambda: _rating(request))


def _rating(request: HttpRequest) -> HttpResponse:
    clubs = selectors.club_list()
    club = _club(request, clubs)
    table = RatingTable.for_rows(selectors.rating_list(club_id=club.pk if club else None))
    export_format = request.GET.get("_export", "")
    exporting = export_format in EXPORT_FORMATS
    _paginated(request, table, exporting=exporting)
    if exporting:
        name = "rating" + (f"-club-{club.pk}" if club else "")
        return export_response(
            table, export_format=export_format, title=str(_("Rating")), filename=name
        )
    return render(request, "ranking/rating.html", {"clubs": clubs, "club": club, "table": table})


def _qualification_season(request: HttpRequest, tournament: Tournament) -> Season | None:
    seasons = selectors.season_list()
    season_id = _id_param(request, "season")
    if season_id is None:
        return selectors.default_season(seasons, tournament.starts_on)
    season = selectors.season_by_id(seasons, season_id)
    if season is None:
        raise Http404(_("No such season."))
    return season


@organiser_required
@require_http_methods(["GET", "POST"])
def qualification(request: HttpRequest, slug: str) -> HttpResponse:
    """The final's qualifiers by the season's rules; a POST registers those not registered yet."""
    tournament = get_object_or_404(Tournament, slug=slug)
    season = _qualification_season(request, tournament)
    result = (
        selectors.qualification(tournament=tournament, season=season)
        if season is not None
        else None
    )
    if request.method == "POST":
        if result is None:
            messages.error(request, _("There is no season to qualify from."))
            return redirect("ranking:qualification", slug=tournament.slug)
        try:
            count = services.qualifiers_register(
                tournament=tournament,
                season=season,
                players=result.to_register,
                by=request.user,
                ip_address=client_ip(request),
            )
        except ServiceError as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request,
                ngettext(
                    "%(count)s qualifier registered.", "%(count)s qualifiers registered.", count
                )
                % {"count": count},
            )
        url = redirect("ranking:qualification", slug=tournament.slug).url
        return redirect(f"{url}?season={season.pk}")
    return render(
        request,
        "ranking/qualification.html",
        {
            "tournament": tournament,
            "season": season,
            "seasons": selectors.season_list(),
            "qualification": result,
        },
    )


# -- The player's page (scoring.views.public.player_detail) ---------------------------------------


def _marker_label(point: selectors.RatingPoint) -> str:
    return _(
        "%(tournament)s, round %(round)s, table %(table)s: place %(place)s, μ %(mu)s ± %(sigma)s"
    ) % {
        "tournament": point.tournament_name,
        "round": point.round_number,
        "table": point.table_number,
        "place": point.place,
        "mu": number_format(point.after.mu, decimal_pos=2),
        "sigma": number_format(point.after.sigma, decimal_pos=2),
    }


def player_page_context(*, player: Player) -> dict[str, object]:
    """What the player's page shows of the ranking: his ranking points per tournament, season by
    season, and his rating with its history as a chart."""
    history = selectors.player_rating(player=player)
    return {
        "ranking_seasons": selectors.player_ranking(player=player),
        "rating": history,
        "rating_chart": rating_chart(history.points, _marker_label),
    }
