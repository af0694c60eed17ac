"""The Zole engine: pure Python, standard library only.

Everything the federation must be able to trust is computed here: the payout of a deal under the
table's rule-set options, a table sheet with its pules and end-of-round settlement, places and
place points and the standings order, and the seating of each round. The Django
apps call these functions; the command line (`python -m engine`) exposes them as JSON in, JSON out.
"""

from engine.deals import (
    Galdins,
    Pass,
    PenaltyPule,
    Play,
    galdins_draw_needed,
    score_deal,
    validate_entry,
)
from engine.errors import SheetError
from engine.rules import Game, Rules
from engine.seating import (
    SeatedTable,
    SeatingPlan,
    SeatingPlayer,
    TableFlag,
    explain_table,
    meeting_counts,
    seat_players,
    table_sizes,
)
from engine.sheet import ScoredDeal, ScoredSheet, Sheet, dealer_for, score_sheet, settle_round
from engine.standings import (
    AbsentRule,
    Metric,
    PlaceScheme,
    RoundResult,
    Standing,
    TeamStanding,
    place_labels,
    place_points,
    rank_standings,
    round_results,
    team_standings,
)

__all__ = [
    "AbsentRule",
    "Galdins",
    "Game",
    "Metric",
    "Pass",
    "PenaltyPule",
    "PlaceScheme",
    "Play",
    "RoundResult",
    "Rules",
    "ScoredDeal",
    "ScoredSheet",
    "SeatedTable",
    "SeatingPlan",
    "SeatingPlayer",
    "Sheet",
    "SheetError",
    "Standing",
    "TableFlag",
    "TeamStanding",
    "dealer_for",
    "explain_table",
    "galdins_draw_needed",
    "meeting_counts",
    "place_labels",
    "place_points",
    "rank_standings",
    "round_results",
    "score_deal",
    "score_sheet",
    "seat_players",
    "settle_round",
    "table_sizes",
    "team_standings",
    "validate_entry",
]
