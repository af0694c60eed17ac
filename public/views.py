"""Public pages (no login): tournaments, a tournament, a round's seating and results, live
standings, a player's history. Views stay thin: selectors read, tables format."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from django_tables2 import RequestConfig

from accounts.access import cached_tournament_page
from core.http import HtmxHttpRequest
from core.lean_tables import EXPORT_FORMATS, export_response
from core.query import paginate, positive_number
from core.ratelimit import CHECK_IN_FAILURES
from core.security import refused
from core.svg_charts import cumulative_chart
from hall import selectors as hall_selectors
from public.calendar_feed import subscription_address
from public.standings_tables import StandingsTable, TeamStandingsTable
from public.statistics_scope import SCOPE_PARAMS, statistics_section
from ranking import selectors as ranking_selectors
from ranking.ranking_page_cache import RATING_PAGES, cached_ranking_page
from scoring import selectors
from scoring.sheet.reader import table_sheet
from signups.selectors import signup_open
from tournaments import selectors as tournament_selectors
from tournaments.models import Table, Tournament
from tournaments.round_clock import round_clock
from tournaments.rule_set import rule_set_options, rule_set_words

SEARCH_MAX_LENGTH = 80  # a name; longer input is cut, never an error
TRUE_WORDS = frozenset({"1", "true", "yes", "on"})


def _flag(request: HttpRequest, name: str) -> bool:
    return request.GET.get(name, "").strip().lower() in TRUE_WORDS


@require_safe
def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "public/tournament_list.html",
        {
            "listing": selectors.public_tournament_list(),
            "calendar_subscription": subscription_address(request),
        },
    )


@require_safe
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    return cached_tournament_page(
        request,
        slug,
        params=frozenset(),
        render=lambda tournament: render(
            request,
            "public/tournament_detail.html",
            {
                "tournament": tournament,
                "progress": selectors.tournament_progress(tournament=tournament),
                "registration_count": selectors.registration_count(tournament=tournament),
                # Cached pages expire within PUBLIC_PAGE_CACHE_SECONDS of the closing time.
                "signup_open": signup_open(tournament),
                "fees": tournament_selectors.fee_texts(tournament=tournament),
                # Self check-in: the round being prepared, while it is not seated.
                "check_in_round": hall_selectors.open_check_in_round(tournament),
                # The rules of the next rounds (each round keeps its own: its sheets say them).
                "rules_in_words": rule_set_words(
                    rule_set_options(tournament), table_size=4, place_points=False
                ),
            },
        ),
    )


@require_safe
def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return cached_tournament_page(
        request,
        slug,
        params=frozenset({"q"}),
        render=lambda tournament: _round_detail(request, tournament, number),
    )


def _round_detail(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    round_ = selectors.public_round(tournament=tournament, number=number)
    if round_ is None:  # not created yet, or a draft whose seating may still change
        raise Http404(_("This round is not published."))
    query = request.GET.get("q", "").strip()[:SEARCH_MAX_LENGTH]
    return render(
        request,
        "public/round_detail.html",
        {
            "tournament": tournament,
            "round": round_,
            "progress": selectors.tournament_progress(tournament=tournament),
            "round_tables": selectors.round_tables(round_=round_, query=query),
            "query": query,
        },
    )


@require_safe
def table_detail(request: HttpRequest, slug: str, number: int, table_number: int) -> HttpResponse:
    """A confirmed table's sheet, deal by deal, read-only: the players check what was entered."""
    return cached_tournament_page(
        request,
        slug,
        params=frozenset(),
        render=lambda tournament: _table_detail(request, tournament, number, table_number),
    )


def _table_detail(
    request: HttpRequest, tournament: Tournament, number: int, table_number: int
) -> HttpResponse:
    table_id = selectors.public_table_id(
        tournament=tournament, round_number=number, table_number=table_number
    )
    if table_id is None:  # no such table, still in play, or a draft round: the plain 404
        raise Http404
    try:
        sheet = table_sheet(table_id=table_id)
    except Table.DoesNotExist:  # the round was re-seated since the lookup above
        raise Http404 from None
    return render(
        request,
        "public/table_detail.html",
        {"tournament": tournament, "round": sheet.round, "table": sheet.table, "sheet": sheet},
    )


STANDINGS_PER_PAGE = 100
# Every query parameter the standings read (the view's and django-tables2's).
STANDINGS_PARAMS = frozenset(
    {"provisional", "round", "_export", "sort", "page", "per_page", "team-sort"}
)


@require_safe
def standings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The standings page, its htmx partial and its CSV/XLSX exports, all from the cache."""
    return cached_tournament_page(
        request,
        slug,
        params=STANDINGS_PARAMS,
        render=lambda tournament: _standings(request, tournament),
    )


def _standings(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    provisional = _flag(request, "provisional")
    only_round = positive_number(request.GET.get("round"))
    result = selectors.tournament_standings(
        tournament=tournament, provisional=provisional, only_round=only_round
    )
    if only_round is not None and only_round not in {
        round_.number for round_ in result.progress.public_rounds
    }:
        raise Http404(_("This round is not published."))
    table = StandingsTable.for_standings(
        result.rows,
        round_numbers=result.round_numbers,
        with_team=tournament.teams_enabled,
        with_provisional=provisional,
    )
    export_format = request.GET.get("_export", "")
    # The page shows the standings a hundred at a time (a 600-player table of django-tables2
    # cells takes seconds to render); an export always has every row.
    exporting = export_format in EXPORT_FORMATS
    paginate(request, table, per_page=STANDINGS_PER_PAGE, exporting=exporting)
    if exporting:
        name = tournament.slug if only_round is None else f"{tournament.slug}-round-{only_round}"
        return export_response(
            table,
            export_format=export_format,
            title=str(_("Standings")),
            filename=f"{name}-standings",
        )

    team_table = None
    if result.teams:
        team_table = TeamStandingsTable.for_teams(result.teams, prefix="team-")
        RequestConfig(request, paginate=False).configure(team_table)
    context = {
        "tournament": tournament,
        "standings": result,
        "table": table,
        "team_table": team_table,
        "refresh_url": request.get_full_path(),
    }
    # htmx polls the live part of the page; a plain request gets the whole page.
    template = "public/_standings_live.html" if request.htmx else "public/standings.html"
    response = render(request, template, context)
    patch_vary_headers(response, ("HX-Request",))
    return response


# -- The hall display and the round clock --------------------------------------------------------


@require_safe
def display(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The hall display: a projector or TV at the venue shows the current round's seating, the
    round clock and the top of the standings; htmx refreshes its live part, from the cache."""
    return cached_tournament_page(
        request,
        slug,
        params=frozenset(),
        render=lambda tournament: _display(request, tournament),
    )


def _display(
    request: HtmxHttpRequest, tournament: Tournament, *, private_url: str | None = None
) -> HttpResponse:
    """The display's page, or its live part for htmx. `private_url`: shown by the private
    link, whose page alone carries the check-in code (and refreshes from that address)."""
    hall = selectors.hall_display(tournament=tournament)
    context = {
        "tournament": tournament,
        "hall": hall,
        # The clock as it stood when the page was rendered: the fallback without JavaScript.
        # With it, htmx fetches the clock at once and every 20 s (display_clock: never cached).
        "clock": round_clock(hall.round) if hall.round is not None else None,
        # Self check-in: the round being prepared, while it is not seated (its code: the hall's).
        "check_in_round": hall_selectors.open_check_in_round(tournament),
        "shows_check_in_code": private_url is not None,
        "live_url": private_url or reverse("public:display", args=[tournament.slug]),
    }
    template = "public/_display_live.html" if request.htmx else "public/display.html"
    response = render(request, template, context)
    patch_vary_headers(response, ("HX-Request",))
    return response


@never_cache
@require_safe
def private_display(request: HtmxHttpRequest, slug: str, token: str) -> HttpResponse:
    """The hall display by the organiser's private link: the public display and the check-in
    code of the round being prepared, for the screen in the hall (anyone could check every
    player in with the code). Never cached; unknown links count against the address."""
    link = hall_selectors.display_link_by_token(slug=slug, token=token)
    if link is None:
        refusal = CHECK_IN_FAILURES.begin(request)  # as a guessed check-in link
        if refusal is not None:
            return refusal
        raise Http404(_("This display link is not known: ask the organiser for the hall's link."))
    if link.revoked_at is not None:
        response = refused(
            request,
            status=410,
            title=_("Link replaced"),
            message=_(
                "This hall display link was replaced or withdrawn: open the new one from the "
                "organiser's round page."
            ),
        )
        response["HX-Refresh"] = "true"  # a screen left open shows this page, not the old code
        return response
    if request.GET:  # the address is the link itself: no other form of it is kept
        return redirect(request.path)
    response = _display(request, link.tournament, private_url=request.path)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@never_cache
@require_safe
def display_clock(request: HttpRequest, slug: str) -> HttpResponse:
    """The hall display's clock, the current round's: fresh from the database on every request
    (a cached copy would count down from an older time), three small queries."""
    tournament = get_object_or_404(Tournament, slug=slug)
    round_ = selectors.display_round(tournament=tournament)
    return render(
        request,
        "scoring/_round_clock.html",
        {
            "clock": round_clock(round_) if round_ is not None else None,
            "variant": "display",
            "sync_url": request.path,
        },
    )


@never_cache
@require_safe
def round_clock_fragment(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """One round's clock, as the referee's sheet shows it: it fetches it every 20 s, so time
    called by the chief referee reaches every table without a reload. Never cached."""
    tournament = get_object_or_404(Tournament, slug=slug)
    round_ = selectors.public_round(tournament=tournament, number=number)
    if round_ is None:
        raise Http404(_("This round is not published."))
    round_.tournament = tournament
    return render(
        request,
        "scoring/_round_clock.html",
        {"clock": round_clock(round_), "variant": "sheet", "sync_url": request.path},
    )


# -- Player page and its chart -------------------------------------------------------------------


@require_safe
def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    """Cached with the rating list: both change with every table confirmed or unlocked."""
    return cached_ranking_page(
        request,
        pages=RATING_PAGES,
        params=SCOPE_PARAMS,
        render=lambda: _player_page(request, player_id),
    )


def _player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    player = selectors.public_player(player_id=player_id)
    if player is None:
        raise Http404(_("No such player."))
    history = selectors.player_history(player=player)
    rating_spans = ranking_selectors.player_rating_spans(player=player)
    # His seasons' ranking, read once: the ranking's part of the page and his statistics of a
    # season both show it (each season's is the whole season's ranking computed).
    ranking_seasons = ranking_selectors.player_ranking(player=player)
    tournaments = [
        {
            "history": item,
            "rating_change": rating_spans.get(item.tournament.pk),
            "chart": cumulative_chart(
                [
                    (r.round_number, r.cumulative_game_points)
                    for r in item.confirmed_rounds
                    if r.cumulative_game_points is not None  # a confirmed round always has it
                ]
            ),
        }
        for item in history
    ]
    return render(
        request,
        "public/player_detail.html",
        {
            "player": player,
            "tournaments": tournaments,
            "ranking_seasons": ranking_seasons,
            "statistics": statistics_section(
                request, player=player, history=history, ranking_seasons=ranking_seasons
            ),
        },
    )
