"""The hall display: the current round's seating and the top of the standings."""

from __future__ import annotations

import math
from dataclasses import dataclass

from core.engine_text import display_name_key
from scoring.selectors.progress import TournamentProgress
from scoring.selectors.public_results import LIVE_STATUSES, PUBLIC_STATUSES
from scoring.selectors.round_page import TableLine, round_tables
from scoring.selectors.tournament_standings import StandingRow, tournament_standings
from tournaments.models import Round, RoundStatus, Tournament

# The standings rows the hall display shows: the top of the table, in large type.
DISPLAY_STANDINGS_ROWS = 30

# The seating panel on a large screen (static/css/display.css), in the screen's rem, which grows
# with the screen's width: its width beside the players' list alone (wide) or beside the
# standings too, and its height under the head and the clock. A 16:9 screen's figures.
SEATING_PANEL_REM = {True: 59.0, False: 34.0}
SEATING_PANEL_HEIGHT_REM = 33.0
CARD_GAP_REM = 0.6
# A table card in its own type (em): a name's letters are about 0.58 em wide (DejaVu Sans, with
# a margin), around them the card's padding and the seat numbers; its height is its heading
# and padding plus a line per seat.
LETTER_EM = 0.58
CARD_SIDES_EM = 3.0
CARD_HEAD_EM = 2.4
LINE_EM = 1.3
# The smallest type of a card's names, across a hall: a field whose cards do not fit the panel
# in this size scrolls (static/js/display.js) instead of shrinking further. Beside the standings
# a large field's cards in one column would scroll through many screens: two columns of names
# in this size fit there.
SMALLEST_TYPE_REM = 0.95
MOST_COLUMNS = 12


@dataclass(frozen=True)
class SeatingGrid:
    """The table cards' grid on a large screen: its columns and rows, whether it scrolls, the
    cards' measures in their own type (em: the CSS sizes the type by the panel it gets) and the
    type this gives on a 16:9 screen (rem)."""

    columns: int
    rows: int
    scrolls: bool
    name_em: int  # a card's width
    lines: int  # a card's lines under its heading
    type_rem: float

    @property
    def classes(self) -> str:
        """The grid's classes (a Content-Security-Policy allows no style attribute)."""
        classes = [f"cols-{self.columns}", f"name-em-{self.name_em}", f"lines-{self.lines}"]
        classes.append("scrolls" if self.scrolls else f"rows-{self.rows}")
        return " ".join(classes)


def seating_grid(
    *, tables: int, seats: int, longest_name: int, wide: bool, notes: bool = False
) -> SeatingGrid:
    """The columns that give the cards' names the largest type with every table in view; when
    that type would be under SMALLEST_TYPE_REM, the most columns that keep at least that size,
    the names filling their cards' width and the grid scrolling. `seats`: the most at a table;
    `longest_name`: in letters; `wide`: the panel beside the players' list alone; `notes`: a
    card has a line under its seats ("time called")."""
    width = SEATING_PANEL_REM[wide]
    name_em = min(30, math.ceil(LETTER_EM * max(longest_name, 10) + CARD_SIDES_EM))
    lines = max(seats, 3) + notes
    card_em = CARD_HEAD_EM + LINE_EM * lines
    tables = max(tables, 1)

    def by_width(columns: int) -> float:
        return (width - (columns - 1) * CARD_GAP_REM) / columns / name_em

    def by_height(rows: int) -> float:
        return (SEATING_PANEL_HEIGHT_REM - (rows - 1) * CARD_GAP_REM) / rows / card_em

    def rows_of(columns: int) -> int:
        return math.ceil(tables / columns)

    fits = [
        (min(by_width(columns), by_height(rows_of(columns))), columns)
        for columns in range(1, min(tables, MOST_COLUMNS) + 1)
    ]
    type_rem, columns = max(fits, key=lambda fit: (fit[0], -fit[1]))
    scrolls = type_rem < SMALLEST_TYPE_REM
    if scrolls:
        columns = max(
            (
                c
                for c in range(1, min(tables, MOST_COLUMNS) + 1)
                if by_width(c) >= SMALLEST_TYPE_REM
            ),
            default=1,
        )
        type_rem = by_width(columns)
    return SeatingGrid(
        columns=columns,
        rows=rows_of(columns),
        scrolls=scrolls,
        name_em=name_em,
        lines=lines,
        type_rem=round(type_rem, 3),
    )


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

    @property
    def shows_standings(self) -> bool:
        """On a large screen the standings have a column once there are any; before, the
        seating takes their room."""
        return self.round is None or bool(self.standings)

    @property
    def seating_grid(self) -> SeatingGrid:
        return seating_grid(
            tables=len(self.tables),
            seats=max((len(table.seats) for table in self.tables), default=3),
            longest_name=max((len(player.name) for player in self.players), default=0),
            wide=not self.shows_standings,
            notes=any(table.time_called_after for table in self.tables),
        )


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
