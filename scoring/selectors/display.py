"""The hall display: the current round's seating and the top of the standings."""

from __future__ import annotations

from dataclasses import dataclass

from core.engine_text import display_name_key
from scoring.selectors.common import LIVE_STATUSES, PUBLIC_STATUSES
from scoring.selectors.progress import TournamentProgress
from scoring.selectors.round_page import TableLine, round_tables
from scoring.selectors.standings import StandingRow, tournament_standings
from tournaments.models import Round, RoundStatus, Tournament

# The standings rows the hall display shows: the top of the table, in large type.
DISPLAY_STANDINGS_ROWS = 30


def display_round(*, tournament: Tournament) -> Round | None:
    """The round the hall display shows: the latest published or in-play round, else the latest
    closed one; None before any is published. One query; the round comes with `tournament`."""
    rounds = list(
        Round.objects.filter(tournament=tournament, status__in=PUBLIC_STATUSES).order_by("-number")
    )
    live = [round_ for round_ in rounds if round_.status in LIVE_STATUSES]
    chosen = live[0] if live else (rounds[0] if rounds else None)
    if chosen is not None:
        chosen.tournament = tournament
    return chosen


@dataclass(frozen=True)
class DisplayPlayer:
    """A line of the alphabetical list: a player and his table."""

    name: str
    club: str
    table_number: int


@dataclass(frozen=True)
class HallDisplay:
    tournament: Tournament
    round: Round | None
    tables: list[TableLine]  # the round's tables in number order
    players: list[DisplayPlayer]  # the round's players in the language's alphabetical order
    standings: list[StandingRow]  # the top of the standings
    standings_count: int  # every ranked player
    progress: TournamentProgress

    @property
    def round_is_finished(self) -> bool:
        return self.round is not None and self.round.status == RoundStatus.CLOSED

    @property
    def confirmed_count(self) -> int:
        return sum(table.confirmed for table in self.tables)


def hall_display(*, tournament: Tournament) -> HallDisplay:
    """Everything the hall display shows but the clock: the current round's seating by table
    and by name, and the top of the standings (confirmed results). Eight queries, whatever the
    size of the tournament."""
    round_ = display_round(tournament=tournament)
    tables = round_tables(round_=round_).tables if round_ is not None else []
    players = sorted(
        (
            DisplayPlayer(name=seat.name, club=seat.club, table_number=table.number)
            for table in tables
            for seat in table.seats
        ),
        key=lambda player: (display_name_key(player.name), player.table_number),
    )
    standings = tournament_standings(tournament=tournament)
    # Before any table is confirmed every player stands at 0: nothing worth a screen yet.
    ranked = standings.rows if any(row.rounds for row in standings.rows) else []
    return HallDisplay(
        tournament=tournament,
        round=round_,
        tables=tables,
        players=players,
        standings=ranked[:DISPLAY_STANDINGS_ROWS],
        standings_count=len(ranked),
        progress=standings.progress,
    )
