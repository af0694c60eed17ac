"""Reads for the scoring app and the public pages: standings, round results, player history.

Every standing comes from the engine (`engine.standings`) over confirmed results (SeatResult
rows); provisional results of tables still in play are scored by the engine from their current
deals, only when a page asks for them. Each read runs a fixed number of queries, whatever the
size of the tournament: rows are loaded in bulk and joined in Python.

The parts: `public_results` (what the public sees, points as text), `progress`, `listing` (the
tournament list), `tournament_standings`, `round_page`, `display` (the hall display), `players` (a
player's page), `own_page` (the player's own page, by his private link), `standings_before` (the
standings a round is seated by), `tournament_statistics` (a tournament's statistics page).
"""

from scoring.selectors.display import (
    SeatingGrid,
    display_round,
    hall_display,
    seating_grid,
)
from scoring.selectors.listing import (
    public_round,
    public_table_id,
    public_tournament_list,
    registration_count,
    upcoming_tournaments,
)
from scoring.selectors.own_page import OwnPage, own_page
from scoring.selectors.players import (
    player_history,
    public_player,
    public_players,
)
from scoring.selectors.prize_standings import PrizeList, PrizeRow, prize_list
from scoring.selectors.progress import (
    tables_confirmed_short,
    tournament_progress,
)
from scoring.selectors.public_results import (
    PUBLIC_STATUSES,
    has_public_result,
    points_exact,
    points_number,
    points_text,
    rank_label,
    standings_order,
)
from scoring.selectors.round_page import (
    TableLine,
    round_tables,
)
from scoring.selectors.standings_before import rank_labels_before, standings_before
from scoring.selectors.tournament_standings import (
    RoundCell,
    StandingRow,
    TeamRow,
    tournament_standings,
)
from scoring.selectors.tournament_statistics import (
    TournamentStatistics,
    tournament_statistics,
)

__all__ = [
    "PUBLIC_STATUSES",
    "OwnPage",
    "PrizeList",
    "PrizeRow",
    "RoundCell",
    "SeatingGrid",
    "StandingRow",
    "TableLine",
    "TeamRow",
    "TournamentStatistics",
    "display_round",
    "hall_display",
    "has_public_result",
    "own_page",
    "player_history",
    "points_exact",
    "points_number",
    "points_text",
    "prize_list",
    "public_player",
    "public_players",
    "public_round",
    "public_table_id",
    "public_tournament_list",
    "rank_label",
    "rank_labels_before",
    "registration_count",
    "round_tables",
    "seating_grid",
    "standings_before",
    "standings_order",
    "tables_confirmed_short",
    "tournament_progress",
    "tournament_standings",
    "tournament_statistics",
    "upcoming_tournaments",
]
