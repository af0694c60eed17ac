"""Tournaments, their rounds, tables and standings: what the public pages show, as JSON, read by
the pages' selectors under the pages' rules (a draft round, a table in play: 404)."""

from __future__ import annotations

from typing import Literal

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from ninja import Path, Query, Router

from api import schemas
from api.answers import NUMBER_MAX, PageNumber, PageSize, answer, page_of
from engine.json_contract import rules_to_json, score_json, sheet_to_json
from engine.standings import span_text
from ranking.models import Season
from scoring import selectors
from scoring.selectors.listing import tournament_phase
from scoring.selectors.progress import TournamentProgress
from scoring.selectors.public_results import LIVE_STATUSES
from scoring.sheet.lines import sheet_names
from scoring.sheet.reader import table_sheet
from tournaments.models import Level, Round, RoundStatus, Table, Tournament
from tournaments.round_clock import round_clock
from tournaments.rule_set import RuleSet, round_rule_set, standings_order, tournament_rule_set
from tournaments.selectors.rounds import tournament_id_of

router = Router(tags=["tournaments"])

Number = Path(..., ge=1, le=NUMBER_MAX)
Phase = Literal["upcoming", "in_progress", "finished"]


def _url(request: HttpRequest, name: str, *args: object) -> str:
    return request.build_absolute_uri(reverse(f"api:{name}", args=args))


def _tournament_id(slug: str) -> int:
    """The id the answer is cached under: the whole tournament is read only to render."""
    found = tournament_id_of(slug)
    if found is None:
        raise Http404
    return found


def rule_set_json(rule_set: RuleSet, tournament: Tournament) -> dict[str, object]:
    scheme = rule_set.place_scheme
    return {
        "rules": rules_to_json(rule_set.rules),
        "place_points": {"3": list(scheme.three), "4": list(scheme.four)},
        "shared_place_points": {
            size: {span_text(span): value for span, value in spans.items()}
            for size, spans in (("3", scheme.shared_three), ("4", scheme.shared_four))
            if spans
        },
        "deals_per_round": rule_set.deals_per_round,
        "deals_at_three": rule_set.deals_at_three,
        "deals_at_four": rule_set.deals_at_four,
        "table_size": rule_set.table_size,
        "round_time_limit": tournament.round_time_limit,
        "standings_order": standings_order(tournament),
    }


# -- The tournament list -------------------------------------------------------------------------


@router.get(
    "",
    response={200: schemas.TournamentPage, 404: schemas.Error},
    url_name="tournaments",
    summary="Tournaments",
)
def tournament_list(
    request: HttpRequest,
    season: int | None = Query(None, ge=1, le=NUMBER_MAX, description="A season's id."),
    level: Level | None = Query(None, description="club, district or national."),
    status: Phase | None = Query(None, description="upcoming, in_progress or finished."),
    page: int = PageNumber,
    per_page: int = PageSize,
) -> HttpResponse:
    """Every tournament, in progress first, then upcoming (soonest first), then finished
    (newest first), as the home page lists them."""

    def build() -> dict[str, object]:
        listing = selectors.public_tournament_list()
        tournaments = [*listing.in_progress, *listing.upcoming, *listing.finished]
        if season is not None:
            found = Season.objects.filter(pk=season).first()
            if found is None:
                raise Http404
            tournaments = [t for t in tournaments if found.covers(t.tournament.starts_on)]
        if level is not None:
            tournaments = [t for t in tournaments if t.tournament.level == level]
        if status is not None:
            tournaments = [t for t in tournaments if t.phase == status]
        values = {"season": season, "level": level, "status": status}
        found_page = page_of(request, tournaments, page=page, per_page=per_page, values=values)
        return found_page.as_json(
            lambda t: {
                "slug": t.tournament.slug,
                "name": t.tournament.name,
                "venue": t.tournament.venue,
                "starts_on": t.tournament.starts_on,
                "ends_on": t.tournament.ends_on,
                "level": t.tournament.level,
                "status": str(t.phase),
                "rounds_planned": t.tournament.rounds_planned,
                "rounds_published": t.current_round,
                "registrations": t.registration_count,
                "url": _url(request, "tournament", t.tournament.slug),
            }
        )

    return answer(request, build, cached_under=None)


# -- A tournament ------------------------------------------------------------------------------


@router.get(
    "/{slug}",
    response={200: schemas.Tournament, 404: schemas.Error},
    url_name="tournament",
    summary="A tournament",
)
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """A tournament with the rule set of its next rounds (the engine's JSON) and its public
    rounds."""
    tournament_id = _tournament_id(slug)

    def build() -> dict[str, object]:
        tournament = Tournament.objects.get(pk=tournament_id)
        progress = selectors.tournament_progress(tournament=tournament)
        return {
            "slug": tournament.slug,
            "name": tournament.name,
            "venue": tournament.venue,
            "starts_on": tournament.starts_on,
            "ends_on": tournament.ends_on,
            "level": tournament.level,
            "status": _phase(tournament, progress),
            "rounds_planned": tournament.rounds_planned,
            "registrations": selectors.registration_count(tournament=tournament),
            "rule_set": rule_set_json(tournament_rule_set(tournament), tournament),
            "rounds": [
                {
                    "number": round_.number,
                    "status": round_.status,
                    "tables": round_.table_count,
                    "confirmed_tables": round_.confirmed_count,
                    "url": _url(request, "round", tournament.slug, round_.number),
                }
                for round_ in progress.public_rounds
            ],
            "standings_url": _url(request, "standings", tournament.slug),
        }

    return answer(request, build, cached_under=tournament_id)


def _phase(tournament: Tournament, progress: TournamentProgress) -> str:
    """The tournament's phase as the home page lists it (selectors.tournament_phase)."""
    statuses = [round_.status for round_ in progress.rounds]
    phase = tournament_phase(
        tournament,
        live_rounds=sum(status in LIVE_STATUSES for status in statuses),
        closed_rounds=statuses.count(RoundStatus.CLOSED),
        today=timezone.localdate(),
    )
    return str(phase)


# -- A round -------------------------------------------------------------------------------------


def _clock(round_: Round) -> dict[str, object]:
    clock = round_clock(round_)
    return {
        "timed": clock.is_timed,
        "limit_minutes": clock.limit_minutes,
        "started_at": clock.started_at,
        "deadline": clock.deadline,
        "time_called_at": clock.time_called_at,
        "ended_at": clock.ended_at,
    }


@router.get(
    "/{slug}/rounds/{number}",
    response={200: schemas.Round, 404: schemas.Error},
    url_name="round",
    summary="A round: its clock and its seating by table",
)
def round_detail(request: HttpRequest, slug: str, number: int = Number) -> HttpResponse:
    """A published round (a draft's seating may still change: 404, as its page): every table
    with its players in seat order, and each confirmed table's results."""
    tournament_id = _tournament_id(slug)

    def build() -> dict[str, object]:
        tournament = Tournament.objects.get(pk=tournament_id)
        round_ = selectors.public_round(tournament=tournament, number=number)
        if round_ is None:
            raise Http404
        round_.tournament = tournament
        tables = selectors.round_tables(round_=round_)
        return {
            "tournament": tournament.slug,
            "number": round_.number,
            "status": round_.status,
            "clock": _clock(round_),
            "rule_set": rule_set_json(round_rule_set(round_), tournament),
            "tables": [
                {
                    "number": table.number,
                    "confirmed": table.confirmed,
                    "time_called_after": table.time_called_after,
                    "url": _url(request, "table", tournament.slug, round_.number, table.number)
                    if table.confirmed
                    else None,
                    "seats": [
                        {
                            "seat": seat.position,
                            "player_id": seat.player_id,
                            "name": seat.name,
                            "club": seat.club,
                            "deals_first": seat.deals_first,
                            "game_points": seat.game_points,
                            "place_points": selectors.points_exact(seat.place_points),
                            "place": seat.place,
                        }
                        for seat in table.seats
                    ],
                }
                for table in tables.tables
            ],
        }

    return answer(request, build, cached_under=tournament_id)


# -- A confirmed table's sheet -------------------------------------------------------------------


@router.get(
    "/{slug}/rounds/{number}/tables/{table_number}",
    response={200: schemas.Table, 404: schemas.Error},
    url_name="table",
    summary="A confirmed table's sheet, in the engine's JSON, and its result",
)
def table_detail(
    request: HttpRequest, slug: str, number: int = Number, table_number: int = Number
) -> HttpResponse:
    """A confirmed table of a public round (a table in play: 404, as its page). `sheet` is the
    engine's input: `python -m engine score` scores it to `scored`, whose totals are the
    confirmed game points of `results`."""
    tournament_id = _tournament_id(slug)

    def build() -> dict[str, object]:
        tournament = Tournament.objects.get(pk=tournament_id)
        table_id = selectors.public_table_id(
            tournament=tournament, round_number=number, table_number=table_number
        )
        if table_id is None:
            raise Http404
        try:
            sheet = table_sheet(table_id=table_id)
        except Table.DoesNotExist:  # the round was seated again since the lookup above
            raise Http404 from None
        result = sheet.result
        if result is None:  # reopened since the lookup above: in play again, not public
            raise Http404
        seats = list(sheet.frame.seats)
        names = sheet_names(seats, {seat.registration_id: seat.registration for seat in seats})
        engine_sheet = sheet_to_json(sheet.engine_sheet(), names)
        results = {each.registration_id: each for each in result.seats.all()}
        return {
            "tournament": tournament.slug,
            "round": number,
            "number": table_number,
            "time_called": result.time_called,
            "players": [
                {
                    "seat": index,
                    "player_id": seat.registration.player_id,
                    "name": names[str(seat.registration_id)],
                }
                for index, seat in enumerate(seats, start=1)
            ],
            "sheet": engine_sheet,
            "scored": score_json(engine_sheet),
            "results": [
                {
                    "name": names[str(seat.registration_id)],
                    "game_points": results[seat.registration_id].game_points,
                    "place": results[seat.registration_id].place,
                    "place_points": selectors.points_exact(
                        results[seat.registration_id].place_points
                    ),
                }
                for seat in seats
            ],
        }

    return answer(request, build, cached_under=tournament_id)


# -- The standings -------------------------------------------------------------------------------


@router.get(
    "/{slug}/standings",
    response={200: schemas.Standings, 404: schemas.Error},
    url_name="standings",
    summary="The standings",
)
def standings(
    request: HttpRequest,
    slug: str,
    provisional: bool = Query(False, description="Count the tables in play (marked)."),
    only_round: int | None = Query(
        None, alias="round", ge=1, le=NUMBER_MAX, description="One round's standings alone."
    ),
    page: int = PageNumber,
    per_page: int = PageSize,
) -> HttpResponse:
    """Every figure of the standings page, exact: the place points as text ("29/2")."""
    tournament_id = _tournament_id(slug)

    def build() -> dict[str, object]:
        tournament = Tournament.objects.get(pk=tournament_id)
        result = selectors.tournament_standings(
            tournament=tournament, provisional=provisional, only_round=only_round
        )
        public = {round_.number for round_ in result.progress.public_rounds}
        if only_round is not None and only_round not in public:
            raise Http404
        values = {"provisional": "true" if provisional else None, "round": only_round}
        rows = page_of(request, result.rows, page=page, per_page=per_page, values=values)
        return {
            "tournament": tournament.slug,
            "round_numbers": result.round_numbers,
            "only_round": result.only_round,
            "provisional": result.provisional,
            "provisional_tables": result.provisional_tables,
            "is_live": result.is_live,
            "order": result.order,
            "teams": [
                {
                    "rank": team.rank,
                    "rank_label": team.rank_label,
                    "team": team.team,
                    "members": team.members,
                    "place_points": selectors.points_exact(team.place_points),
                    "game_points": team.game_points,
                }
                for team in result.teams
            ],
            **rows.as_json(
                lambda row: {
                    "position": row.position,
                    "rank": row.rank,
                    "rank_label": row.rank_label,
                    "shared": row.shared,
                    "player_id": row.player_id,
                    "name": row.name,
                    "club": row.club,
                    "team": row.team,
                    "place_points": selectors.points_exact(row.place_points),
                    "game_points": row.game_points,
                    "wins": row.wins,
                    "provisional": row.provisional,
                    "rounds": {
                        str(number): {
                            "game_points": cell.game_points,
                            "place_points": selectors.points_exact(cell.place_points),
                            "place": cell.place,
                            "provisional": cell.provisional,
                        }
                        for number, cell in row.rounds.items()
                    },
                }
            ),
        }

    return answer(
        request,
        build,
        cached_under=tournament_id,
        params=("provisional", "round", "page", "per_page"),
    )
