"""What a score sheet holds (as the selectors read it and the sheets draw it), its numbers as
printed, and the sizes of the sheet's parts."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from django.utils.translation import get_language, pgettext

from documents.layout import (
    EventInfo,
)
from documents.pen import (
    MARGIN,
    PORTRAIT,
)


@dataclass(frozen=True)
class SheetPlayer:
    seat: int  # 1-based, each to the left of the previous
    name: str
    short_name: str
    club: str
    licence: str
    deals_first: bool


@dataclass(frozen=True)
class SheetDeal:
    """One row of the sheet: the dealer is always printed; the rest once the deal is entered."""

    number: int
    dealer_seat: int  # 1-based; at a table of 4 the dealer sits the deal out
    game: str = ""
    declarer: str = ""
    points: str = ""
    tricks: str = ""
    pule_marks: str = ""  # "C+", "P2−", ... (the letters in the document's language)
    scores: tuple[int, ...] | None = None  # per seat, the engine's
    totals: tuple[int, ...] | None = None  # running totals after this deal, the engine's


@dataclass(frozen=True)
class PuleTally:
    """How many pules of one kind were written and crossed out, and how many were open at the
    end of the round (before the settlement): counted from the engine's pule events."""

    written: int
    crossed: int
    open: int


@dataclass(frozen=True)
class ScoreSheet:
    table_number: int
    players: tuple[SheetPlayer, ...]
    deals: tuple[SheetDeal, ...]  # one per deal of the round, 1..deals_per_round
    entry_url: str | None  # the table's entry page, for the QR code
    filled: bool
    status: str = ""  # "Confirmed by ...", "12 of 24 deals entered", ...
    penalties: tuple[str, ...] = ()  # "Jānis B. (before deal 5)"
    common_pules: PuleTally | None = None
    personal_pules: tuple[PuleTally, ...] | None = None  # per seat
    settlement: tuple[int, ...] | None = None  # per seat, once the round is complete
    totals: tuple[int, ...] | None = None  # per seat, after the settlement
    places: tuple[str, ...] | None = None  # per seat, as printed: "1", "2–3" when shared
    place_points: tuple[str, ...] | None = None
    zero_sum: bool | None = None  # the engine's check that the totals add up to zero
    totals_sum: int | None = None
    error: str | None = None  # the stored deals do not score under the round's rules
    rules: tuple[str, ...] = ()  # the round's rules in words, for a table of this size
    # Confirmed with fewer deals than planned because the round's time was up: the last deal
    # played. The rows after it stay unplayed.
    time_called_after: int | None = None

    @property
    def size(self) -> int:
        return len(self.players)

    @property
    def is_complete(self) -> bool:
        return self.totals is not None


@dataclass(frozen=True)
class RoundSheets:
    event: EventInfo
    round_number: int
    deals_per_round: int
    pules: bool  # the tournament writes pules (everyone passing writes a common pule)
    sheets: tuple[ScoreSheet, ...]


@functools.lru_cache(maxsize=8)
def _pule_letters(language: str | None) -> tuple[str, str]:
    return (
        pgettext("the score sheet's mark of a common pule", "C"),
        pgettext("the score sheet's mark of a personal pule", "P"),
    )


def pule_letters() -> tuple[str, str]:
    """The letters of the pules column (common, personal) in the active language: looked up
    once per language, not on every row."""
    return _pule_letters(get_language())


@functools.lru_cache(maxsize=4096)
def signed(value: int) -> str:
    """A score as a sheet writes it: +2, −3 (a true minus sign), 0. Formatted once per value:
    a round's sheets write the same few hundred scores thousands of times."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "0"


@functools.lru_cache(maxsize=4096)
def total_text(value: int) -> str:
    return f"−{-value}" if value < 0 else str(value)


# -- Geometry (points; A4 portrait is 595 × 842) -------------------------------------------------

CONTENT_WIDTH = PORTRAIT[0] - 2 * MARGIN
QR_SIZE = 84
PLAYER_ROW = 13
GRID_HEADER = 24
MAX_ROW = 19  # rows taller than this only waste paper
MIN_ROW = 11.5  # about 4 mm: still room to write in; more deals than fit go on over pages
SUMMARY_ROW = 14
CHECK_HEIGHT = 16
TALLY_HEIGHT = 74
SIGNATURE_HEIGHT = 40
TALLY_BOX = 8
# Under the last deal row of a table: the settlement, totals, places and place points, the
# check, the pule tallies and the signatures.
FOOT_HEIGHT = SIGNATURE_HEIGHT + TALLY_HEIGHT + CHECK_HEIGHT + 4 * SUMMARY_ROW + 6
PAGE_FOOT = 4  # a page whose rows go on overleaf ends just above the footer
CONTINUED_HEADING = 34
HEADING_LINES = 15 + 15 + 12 + 22 + 13  # title, event, place and date, round and table
STATUS_LINE = 11
RULES_SIZE, RULES_LEADING, RULES_LINES = 6.5, 8, 4
