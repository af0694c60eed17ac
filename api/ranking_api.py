"""The season ranking and the rating list, as their pages show them, from the ranking pages'
cache (ranking.ranking_page_cache: a generation for each)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from ninja import Query, Router

from api import schemas
from api.answers import NUMBER_MAX, PageNumber, PageSize, answer, page_of
from ranking import selectors
from ranking.ranking_page_cache import RATING_PAGES, SEASON_PAGES

router = Router(tags=["ranking"])

ClubId = Query(None, ge=1, le=NUMBER_MAX, description="List one club's players (its id).")


def _club_id(club: int | None) -> int | None:
    if club is not None and not any(each.pk == club for each in selectors.club_list()):
        raise Http404
    return club


def _season(season) -> dict[str, object]:
    return {
        "id": season.pk,
        "name": season.name,
        "starts_on": season.starts_on,
        "ends_on": season.ends_on,
        "best_k": season.best_k,
    }


@router.get(
    "/seasons",
    response={200: list[schemas.Season]},
    url_name="seasons",
    summary="The seasons",
)
def season_list(request: HttpRequest) -> HttpResponse:
    """Every season, newest first: its id chooses the season ranking and filters the
    tournaments."""
    return answer(
        request,
        lambda: [_season(season) for season in selectors.season_list()],
        cached_under=SEASON_PAGES,
    )


@router.get(
    "/season",
    response={200: schemas.SeasonRanking, 404: schemas.Error},
    url_name="season_ranking",
    summary="The season ranking",
)
def season_ranking(
    request: HttpRequest,
    season: int | None = Query(None, ge=1, le=NUMBER_MAX, description="A season's id."),
    club: int | None = ClubId,
    page: int = PageNumber,
    per_page: int = PageSize,
) -> HttpResponse:
    """A season's ranking (the current season by default): the best results counted, ranks
    shared as on the page; with `club`, that club's players with their ranks in the whole."""

    def build() -> dict[str, object]:
        seasons = selectors.season_list()
        if season is None:
            found = selectors.default_season(seasons)
        else:
            found = selectors.season_by_id(seasons, season)
            if found is None:
                raise Http404
        club_id = _club_id(club)
        values = {"season": season, "club": club}
        if found is None:
            return {
                "season": None,
                "tournaments": 0,
                **page_of(request, [], page=page, per_page=per_page, values=values).as_json(dict),
            }
        ranking = selectors.season_standings(season=found, club_id=club_id)
        rows = page_of(request, ranking.rows, page=page, per_page=per_page, values=values)
        return {
            "season": _season(found),
            "tournaments": ranking.tournaments,
            **rows.as_json(
                lambda row: {
                    "position": row.position,
                    "rank": row.rank,
                    "rank_label": row.rank_label,
                    "shared": row.shared,
                    "player_id": row.player_id,
                    "name": row.name,
                    "club_id": row.club_id,
                    "club": row.club,
                    "points": row.points,
                    "wins": row.wins,
                    "game_points": row.game_points,
                    "counted": row.counted,
                    "events": row.events,
                }
            ),
        }

    return answer(
        request,
        build,
        cached_under=SEASON_PAGES,
        params=("season", "club", "page", "per_page"),
    )


@router.get(
    "/rating",
    response={200: schemas.Rating, 404: schemas.Error},
    url_name="rating",
    summary="The rating list",
)
def rating(
    request: HttpRequest,
    club: int | None = ClubId,
    page: int = PageNumber,
    per_page: int = PageSize,
) -> HttpResponse:
    """Every rated player by his conservative rating (mu − 3·sigma), highest first."""

    def build() -> dict[str, object]:
        rows = selectors.rating_list(club_id=_club_id(club))
        found = page_of(request, rows, page=page, per_page=per_page, values={"club": club})
        return found.as_json(
            lambda row: {
                "position": row.position,
                "rank": row.rank,
                "player_id": row.player_id,
                "name": row.name,
                "club": row.club,
                "mu": row.mu,
                "sigma": row.sigma,
                "ordinal": row.ordinal,
                "tables": row.tables,
            }
        )

    return answer(request, build, cached_under=RATING_PAGES, params=("club", "page", "per_page"))
