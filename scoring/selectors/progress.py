"""A tournament's progress: rounds, tables confirmed, deals entered."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count

from scoring.selectors.public_results import LIVE_STATUSES, PUBLIC_STATUSES
from tournaments.models import Round, RoundStatus, Tournament


@dataclass(frozen=True)
class RoundProgress:
    """A planned round and how far it is: its status and tables confirmed of all."""

    number: int
    status: str  # a RoundStatus, or "" for a round not created yet
    status_display: str
    table_count: int = 0
    confirmed_count: int = 0

    @property
    def is_public(self) -> bool:
        return self.status in PUBLIC_STATUSES

    @property
    def is_live(self) -> bool:
        return self.status in LIVE_STATUSES


@dataclass(frozen=True)
class TournamentProgress:
    rounds_planned: int
    rounds: list[RoundProgress]

    @property
    def public_rounds(self) -> list[RoundProgress]:
        return [round_ for round_ in self.rounds if round_.is_public]

    @property
    def current(self) -> RoundProgress | None:
        """The latest public round: the one people follow."""
        public = self.public_rounds
        return public[-1] if public else None

    @property
    def is_live(self) -> bool:
        return any(round_.is_live for round_ in self.rounds)

    @property
    def is_finished(self) -> bool:
        closed = sum(round_.status == RoundStatus.CLOSED for round_ in self.rounds)
        return self.rounds_planned > 0 and closed >= self.rounds_planned


def tournament_progress(*, tournament: Tournament) -> TournamentProgress:
    """Every planned round with its status and confirmed tables, in one query."""
    rounds = {
        round_.number: round_
        for round_ in Round.objects.filter(tournament=tournament)
        .annotate(
            table_count=Count("tables", distinct=True),
            confirmed_count=Count("tables__result", distinct=True),
        )
        .order_by("number")
    }
    progress = []
    for number in range(1, max(tournament.rounds_planned, max(rounds, default=0)) + 1):
        round_ = rounds.get(number)
        if round_ is None or round_.status == RoundStatus.DRAFT:
            # A draft's seating may still change: to the public it is simply not out yet.
            progress.append(RoundProgress(number=number, status="", status_display=""))
        else:
            progress.append(
                RoundProgress(
                    number=number,
                    status=round_.status,
                    status_display=round_.get_status_display(),
                    table_count=round_.table_count,
                    confirmed_count=round_.confirmed_count,
                )
            )
    return TournamentProgress(rounds_planned=tournament.rounds_planned, rounds=progress)
