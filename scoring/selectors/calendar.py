"""The tournaments of the calendar feed: the upcoming ones, all of them, a level's or a club's."""

from __future__ import annotations

import datetime

from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone

from scoring.selectors.listing import TournamentPhase, tournament_phase
from scoring.selectors.public_results import LIVE_STATUSES
from tournaments.models import Club, Registration, RoundStatus, Tournament


def club_by_id(club_id: int) -> Club | None:
    return Club.objects.filter(pk=club_id).first()


def calendar_tournaments(
    *,
    level: str | None = None,
    club_id: int | None = None,
    today: datetime.date | None = None,
) -> list[Tournament]:
    """The upcoming tournaments, soonest first: with `level`, that level's; with `club_id`,
    those a player of the club is registered for (a club is its players, as the season ranking's
    ?club= reads it: a tournament belongs to no club).

    "Upcoming" here is every tournament not finished (the public list's phases): its last day is
    today or later and not all its planned rounds are closed. One being played stays in the
    calendar until it ends, so a subscriber still finds today's venue in it.

    One query, whatever the number of tournaments: the rounds are counted in it."""
    today = today or timezone.localdate()
    tournaments = Tournament.objects.filter(
        Q(ends_on__gte=today) | Q(ends_on__isnull=True, starts_on__gte=today)
    )
    if level is not None:
        tournaments = tournaments.filter(level=level)
    if club_id is not None:
        # Exists, not a join: a club's ten players would list the tournament ten times.
        tournaments = tournaments.filter(
            Exists(Registration.objects.filter(tournament=OuterRef("pk"), player__club_id=club_id))
        )
    counted = tournaments.annotate(
        live_rounds=Count("rounds", filter=Q(rounds__status__in=LIVE_STATUSES)),
        closed_rounds=Count("rounds", filter=Q(rounds__status=RoundStatus.CLOSED)),
    ).order_by("starts_on", "name", "pk")
    return [
        tournament
        for tournament in counted
        if tournament_phase(
            tournament,
            live_rounds=tournament.live_rounds,
            closed_rounds=tournament.closed_rounds,
            today=today,
        )
        != TournamentPhase.FINISHED
    ]
