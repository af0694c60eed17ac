"""The public tournament list (upcoming, in progress, finished) and what a public page looks up."""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.db.models import Count, Exists, OuterRef, QuerySet
from django.utils import timezone

from scoring.selectors.public_results import LIVE_STATUSES, PUBLIC_STATUSES
from tournaments.models import Registration, Round, RoundStatus, Table, Tournament


class TournamentPhase(StrEnum):
    UPCOMING = "upcoming"
    IN_PROGRESS = "in_progress"
    FINISHED = "finished"


@dataclass(frozen=True)
class ListedTournament:
    """A tournament as the public list shows it, with its counts of registrations and rounds."""

    tournament: Tournament
    registration_count: int
    live_rounds: int  # rounds in play or partly played
    closed_rounds: int
    current_round: int  # rounds the public sees
    phase: TournamentPhase


@dataclass(frozen=True)
class TournamentListing:
    upcoming: list[ListedTournament]
    in_progress: list[ListedTournament]
    finished: list[ListedTournament]


def tournament_phase(
    tournament: Tournament, *, live_rounds: int, closed_rounds: int, today: datetime.date
) -> TournamentPhase:
    """Live or partly played rounds make a tournament in progress; all planned rounds closed,
    or its last day past, make it finished."""
    if closed_rounds >= tournament.rounds_planned > 0:
        return TournamentPhase.FINISHED
    if live_rounds:
        return TournamentPhase.IN_PROGRESS
    if (tournament.ends_on or tournament.starts_on) < today:
        return TournamentPhase.FINISHED
    if closed_rounds or tournament.starts_on <= today:
        return TournamentPhase.IN_PROGRESS
    return TournamentPhase.UPCOMING


def _listed(
    tournaments: Sequence[Any], rounds: QuerySet[Round], *, today: datetime.date
) -> list[ListedTournament]:
    """Each tournament (annotated with its `registration_count`) with its rounds counted by
    status from `rounds` (one query, apart: entries and rounds never multiply in a join) and
    its phase."""
    statuses: dict[int, Counter[str]] = defaultdict(Counter)
    for tournament_id, status in rounds.values_list("tournament_id", "status").order_by():
        statuses[tournament_id][status] += 1
    listed = []
    for tournament in tournaments:
        counts = statuses[tournament.pk]
        live_rounds = sum(counts[status] for status in LIVE_STATUSES)
        closed_rounds = counts[RoundStatus.CLOSED]
        listed.append(
            ListedTournament(
                tournament=tournament,
                registration_count=tournament.registration_count,
                live_rounds=live_rounds,
                closed_rounds=closed_rounds,
                current_round=sum(counts[status] for status in PUBLIC_STATUSES),
                phase=tournament_phase(
                    tournament, live_rounds=live_rounds, closed_rounds=closed_rounds, today=today
                ),
            )
        )
    return listed


def public_tournament_list(*, today: datetime.date | None = None) -> TournamentListing:
    """All tournaments, by phase: upcoming soonest first, the others newest first.

    Two queries: the rounds are counted apart, so entries and rounds never multiply in a join."""
    today = today or timezone.localdate()
    tournaments = list(
        Tournament.objects.annotate(registration_count=Count("registrations")).order_by(
            "-starts_on", "name"
        )
    )
    phases: dict[TournamentPhase, list[ListedTournament]] = defaultdict(list)
    for listed in _listed(tournaments, Round.objects.all(), today=today):
        phases[listed.phase].append(listed)
    return TournamentListing(
        upcoming=sorted(phases[TournamentPhase.UPCOMING], key=lambda t: t.tournament.starts_on),
        in_progress=phases[TournamentPhase.IN_PROGRESS],
        finished=phases[TournamentPhase.FINISHED],
    )


def upcoming_tournaments(
    *,
    level: str | None = None,
    club_id: int | None = None,
    limit: int,
    today: datetime.date | None = None,
) -> list[ListedTournament]:
    """The first `limit` upcoming tournaments, soonest first: the public list's "Upcoming", by
    the same phases; with `level`, that level's; with `club_id`, those a player of the club is
    registered for (as the calendar feed reads a club). Two queries, only of tournaments still
    to start: the past never makes them longer."""
    today = today or timezone.localdate()
    tournaments = Tournament.objects.filter(starts_on__gt=today)
    if level is not None:
        tournaments = tournaments.filter(level=level)
    if club_id is not None:
        # Exists, not a join: a club's ten players would count the tournament ten times.
        tournaments = tournaments.filter(
            Exists(Registration.objects.filter(tournament=OuterRef("pk"), player__club_id=club_id))
        )
    # Every tournament still to start is read, not `limit`: one with a round played already (its
    # date moved) is in progress, and the ones after it take its place.
    candidates = list(
        tournaments.annotate(registration_count=Count("registrations")).order_by(
            "starts_on", "name", "pk"
        )
    )
    rounds = Round.objects.filter(tournament__in=tournaments.values("pk"))
    upcoming = [
        listed
        for listed in _listed(candidates, rounds, today=today)
        if listed.phase == TournamentPhase.UPCOMING
    ]
    return upcoming[:limit]


def registration_count(*, tournament: Tournament) -> int:
    return tournament.registrations.count()


def public_round(*, tournament: Tournament, number: int) -> Round | None:
    """A round the public may see (not a draft), or None."""
    return tournament.rounds.filter(number=number, status__in=PUBLIC_STATUSES).first()


def public_table_id(*, tournament: Tournament, round_number: int, table_number: int) -> int | None:
    """The table whose sheet the public may read deal by deal: a confirmed table of a round the
    public sees; None for a table in play, a draft round, or no such table. One query."""
    return (
        Table.objects.filter(
            round__tournament=tournament,
            round__number=round_number,
            round__status__in=PUBLIC_STATUSES,
            number=table_number,
            result__isnull=False,
        )
        .values_list("pk", flat=True)
        .first()
    )
