"""The Zole engine: pure Python, standard library only.

Everything the federation must be able to trust is computed here: the payout of a deal, a table
sheet with its pules and end-of-round settlement, place points and the standings order. The Django
apps call these functions; the command line (`python -m engine`) exposes them as JSON in, JSON out.
"""

from engine.deals import Galdins, Pass, PenaltyPule, Play, score_deal, validate_entry
from engine.errors import SheetError
from engine.rules import Game, Rules
from engine.sheet import ScoredDeal, ScoredSheet, Sheet, dealer_for, score_sheet, settle_round
from engine.standings import (
    Metric,
    PlaceScheme,
    RoundResult,
    Standing,
    TeamStanding,
    place_points,
    rank_standings,
    round_results,
    team_standings,
)

__all__ = [
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
    "Sheet",
    "SheetError",
    "Standing",
    "TeamStanding",
    "dealer_for",
    "place_points",
    "rank_standings",
    "round_results",
    "score_deal",
    "score_sheet",
    "settle_round",
    "team_standings",
    "validate_entry",
]
