"""Reads for the printed documents, each in a fixed number of queries whatever the size of the
round or tournament. Every score, total, settlement, place and standing comes from the engine
(through `scoring.sheet.lines` and `engine.standings`); these modules load the rows, hand them to
the engine and put the answers in the shape the drawing code prints.

The parts: `heading` (the event's heading on every document), `round_sheets` (a round's score
sheets), `seating_lists` (a round's seating list), `results` (the standings protocol and the
prize list).
"""

from documents.selectors.heading import event_info
from documents.selectors.results import (
    prize_document,
    prize_note,
    prize_subtitle,
    standings_protocol,
)
from documents.selectors.round_sheets import DEAL_FIELDS, EntryUrl, round_score_sheets
from documents.selectors.seating_lists import round_seating_list

__all__ = [
    "DEAL_FIELDS",
    "EntryUrl",
    "event_info",
    "prize_document",
    "prize_note",
    "prize_subtitle",
    "round_score_sheets",
    "round_seating_list",
    "standings_protocol",
]
