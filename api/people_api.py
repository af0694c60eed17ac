"""Players and clubs. A player is found only when he has a public page: an unknown id and a
player without a public result are the same 404, as on his page."""

from __future__ import annotations

from dataclasses import asdict
from fractions import Fraction

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from ninja import Path, Query, Router

from api import schemas
from api.answers import NUMBER_MAX, PageNumber, PageSize, answer, page_of
from engine.rating import Rating, RatingSpan
from engine.rules import Game
from engine.statistics import declarer_share, defender_share
from ranking.career_statistics import scoped_statistics
from ranking.ranking_page_cache import RATING_PAGES
from ranking.selectors import club_list, player_rating_spans
from scoring import selectors
from scoring.selectors.player_statistics import Totals

router = Router(tags=["players and clubs"])


@router.get(
    "/players",
    response={200: schemas.PlayerPage, 404: schemas.Error},
    url_name="players",
    summary="Players with a public result",
)
def player_list(
    request: HttpRequest,
    page: int = PageNumber,
    per_page: int = PageSize,
) -> HttpResponse:
    """Every player with a result the public sees, in alphabetical order."""

    def build() -> dict[str, object]:
        players = selectors.public_players()
        return page_of(request, players, page=page, per_page=per_page).as_json(
            lambda player: {
                "id": player.pk,
                "name": player.full_name,
                "club": player.club.name if player.club else "",
                "url": request.build_absolute_uri(reverse("api:player", args=[player.pk])),
            }
        )

    return answer(request, build, cached_under=None)


@router.get(
    "/players/{player_id}",
    response={200: schemas.Player, 404: schemas.Error},
    url_name="player",
    summary="A player and his public history",
)
def player_detail(
    request: HttpRequest, player_id: int = Path(..., ge=1, le=NUMBER_MAX)
) -> HttpResponse:
    """The player's tournaments, newest first, each with his public rounds: his table, and his
    confirmed results with the running total of game points, as his page shows them; and how
    each tournament moved his rating: before and after it, and his places at its tables beside
    those the ratings expected."""

    def build() -> dict[str, object]:
        player = selectors.public_player(player_id=player_id)
        if player is None:
            raise Http404
        rating_spans = player_rating_spans(player=player)
        return {
            "id": player.pk,
            "name": player.full_name,
            "club": player.club.name if player.club else "",
            "tournaments": [
                {
                    "slug": item.tournament.slug,
                    "name": item.tournament.name,
                    "starts_on": item.tournament.starts_on,
                    "team": item.team,
                    "game_points": item.game_points,
                    "place_points": selectors.points_exact(item.place_points),
                    "rating_change": _rating_change(rating_spans.get(item.tournament.pk)),
                    "rounds": [
                        {
                            "round": round_.round_number,
                            "table": round_.table_number,
                            "confirmed": round_.confirmed,
                            "game_points": round_.game_points,
                            "place_points": selectors.points_exact(round_.place_points),
                            "place": round_.place,
                            "cumulative_game_points": round_.cumulative_game_points,
                        }
                        for round_ in item.rounds
                    ],
                }
                for item in selectors.player_history(player=player)
            ],
        }

    return answer(request, build, cached_under=None)


def _totals(totals: Totals) -> dict[str, object]:
    tally = totals.tally

    def decimal(value: Fraction | None) -> float | None:
        return None if value is None else round(float(value), 4)

    return {
        "players": totals.players,
        "tournaments": totals.tournaments,
        "rounds": totals.rounds,
        "game_points": totals.game_points,
        "places": list(totals.places),
        "counts": asdict(tally),
        "lielais_won_share": decimal(declarer_share(tally, Game.LIELAIS)),
        "zole_won_share": decimal(declarer_share(tally, Game.ZOLE)),
        "maza_zole_won_share": decimal(declarer_share(tally, Game.MAZA_ZOLE)),
        "defender_won_share": decimal(defender_share(tally)),
        "game_points_per_deal": decimal(totals.game_points_per_deal),
    }


@router.get(
    "/players/{player_id}/statistics",
    response={200: schemas.PlayerStatistics, 404: schemas.Error},
    url_name="player_statistics",
    summary="A player's statistics from every confirmed deal",
)
def player_statistics(
    request: HttpRequest,
    player_id: int = Path(..., ge=1, le=NUMBER_MAX),
    season: int | None = Query(None, ge=1, le=NUMBER_MAX, description="One of his seasons."),
    tournament: str | None = Query(
        None, max_length=120, description="One of his tournaments (its slug)."
    ),
) -> HttpResponse:
    """His career's statistics (or a season's, or a tournament's) beside the field's: the
    figures of his page. Counted from every confirmed deal of public rounds."""

    def build() -> dict[str, object]:
        player = selectors.public_player(player_id=player_id)
        if player is None:
            raise Http404
        played = [
            item.tournament
            for item in selectors.player_history(player=player)
            if item.confirmed_rounds
        ]
        scoped = scoped_statistics(
            player=player, tournaments=played, season_id=season, tournament_slug=tournament
        )
        if scoped is None:
            raise Http404
        ranking = scoped.season_ranking
        return {
            "id": player.pk,
            "name": player.full_name,
            "season": scoped.season.pk if scoped.season else None,
            "tournament": scoped.tournament.slug if scoped.tournament else None,
            "his": _totals(scoped.statistics.his),
            "field": _totals(scoped.statistics.field),
            "best_finishes": [
                {
                    "tournament": placing.tournament.slug,
                    "name": placing.tournament.name,
                    "place": placing.place,
                }
                for placing in scoped.best_finishes
            ],
            "season_ranking": None
            if ranking is None
            else {
                "id": ranking.season.pk,
                "name": ranking.season.name,
                "points": ranking.points,
                "rank": ranking.rank,
            },
        }

    return answer(request, build, cached_under=RATING_PAGES, params=("season", "tournament"))


def _rating_figures(rating: Rating) -> dict[str, float]:
    return {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal}


def _rating_change(span: RatingSpan | None) -> dict[str, object] | None:
    if span is None:
        return None
    return {
        "tables": span.tables,
        "rating_before": _rating_figures(span.before),
        "rating_after": _rating_figures(span.after),
        "expected_place": span.expected_place,
        "actual_place": span.actual_place,
    }


@router.get(
    "/clubs",
    response={200: schemas.ClubPage, 404: schemas.Error},
    url_name="clubs",
    summary="Clubs",
)
def clubs(
    request: HttpRequest,
    page: int = PageNumber,
    per_page: int = PageSize,
) -> HttpResponse:
    """Every club, in alphabetical order: its id filters the season ranking and the rating."""

    def build() -> dict[str, object]:
        return page_of(request, club_list(), page=page, per_page=per_page).as_json(
            lambda club: {"id": club.pk, "name": club.name, "city": club.city}
        )

    return answer(request, build, cached_under=None)
