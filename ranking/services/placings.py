"""Placings of a finished tournament, the final's qualifiers registered, the whole recomputation."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from engine.rating import replay_ratings
from ranking.models import (
    Placing,
    PlayerRating,
    RatingChange,
    RatingUpdate,
    Season,
)
from ranking.ranking_page_cache import ranking_changed
from ranking.services.rating_store import (
    OUTCOME_FIELDS,
    lock_ratings,
    outcomes_of,
    store_changes,
    store_ratings,
)
from ranking.services.ratings import rate_unrated
from scoring.models import SeatResult
from scoring.selectors import tournament_standings
from tournaments.models import Player, Round, RoundStatus, Table, Tournament
from tournaments.services import ServiceError, registrations_create

# The audit log's code for the qualifiers registered in one step.
QUALIFIERS_REGISTERED = "entries.qualified"


def tournament_is_finished(tournament: Tournament) -> bool:
    """All its planned rounds closed: only then does a tournament count for the ranking."""
    closed = Round.objects.filter(tournament=tournament, status=RoundStatus.CLOSED).count()
    return tournament.rounds_planned > 0 and closed >= tournament.rounds_planned


def placings_record(*, tournament: Tournament) -> int:
    """The tournament's placings from its final standings, if it is finished (none otherwise):
    every player with at least one confirmed round, at his final rank. Returns how many."""
    Placing.objects.filter(tournament=tournament).delete()
    if not tournament_is_finished(tournament):
        return 0
    standings = tournament_standings(tournament=tournament)
    created = Placing.objects.bulk_create(
        Placing(
            tournament=tournament,
            player_id=row.player_id,
            place=row.rank,
            game_points=row.game_points,
        )
        for row in standings.rows
        if row.rounds
    )
    return len(created)


@transaction.atomic
def ranking_round_closed(*, round_: Round) -> None:
    """After a round is closed (called by scoring.services.round_close): its tables confirmed in
    bulk are rated, and a tournament now finished gets its placings."""
    lock_ratings()  # before reading which tables are unrated: a rating write may be rating them
    unrated = Table.objects.filter(
        round=round_, result__isnull=False, result__rating_changes__isnull=True
    ).select_related("round__tournament")
    rate_unrated(list(unrated))
    placings_record(tournament=round_.tournament)
    ranking_changed()


@transaction.atomic
def ranking_tournament_imported(*, tournament: Tournament) -> None:
    """After a tournament is imported from an archive (called by archive, in its
    transaction): its confirmed tables are rated and, if it is finished, it gets its placings,
    as if it had been played here."""
    lock_ratings()
    unrated = Table.objects.filter(
        round__tournament=tournament, result__isnull=False, result__rating_changes__isnull=True
    ).select_related("round__tournament")
    rate_unrated(list(unrated))
    placings_record(tournament=tournament)
    ranking_changed()


@dataclass(frozen=True)
class Recomputed:
    tournaments: int  # finished tournaments with placings
    placings: int
    tables: int  # tables rated
    players: int  # players rated


@transaction.atomic
def ranking_recompute() -> Recomputed:
    """Everything from the stored results: every finished tournament's placings, and every
    player's rating from every confirmed table, replayed in the rating order."""
    lock_ratings()
    Placing.objects.all().delete()
    placings = 0
    finished = 0
    for tournament in Tournament.objects.order_by("starts_on", "slug"):
        count = placings_record(tournament=tournament)
        finished += count > 0
        placings += count
    RatingChange.objects.all().delete()
    PlayerRating.objects.all().delete()
    RatingUpdate.objects.all().delete()  # everything is replayed here
    outcomes = outcomes_of(SeatResult.objects.values_list(*OUTCOME_FIELDS).order_by())
    ratings, changes = replay_ratings(outcomes)
    tables = store_changes(changes)
    store_ratings({player: (ratings[player], tables[player]) for player in ratings})
    ranking_changed()
    return Recomputed(
        tournaments=finished, placings=placings, tables=len(outcomes), players=len(ratings)
    )


@transaction.atomic
def qualifiers_register(
    *,
    tournament: Tournament,
    season: Season,
    players: list[Player],
    by: User | None,
    ip_address: str | None = None,
) -> int:
    """Register the final's qualifiers not registered yet (one step, one audit record); returns
    how many were registered. Inactive players are refused by the caller's list."""
    if not players:
        raise ServiceError(_("nobody to register: every qualifier is registered already"))
    created = registrations_create(
        tournament=tournament,
        players=players,
        by=by,
        ip_address=ip_address,
        action=QUALIFIERS_REGISTERED,
        season=season.name,
    )
    return len(created)
