"""A table's entries as the rows of its printed score sheet: the game in words, the declarer, his
points and tricks, the pule marks and the engine's scores and running totals; and the pule
tallies under the grid. `documents.selectors` reads the rows and hands them here.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from core.engine_text import GAME_WORDS
from documents.sheet_data import PuleTally, SheetDeal, pule_letters
from engine import Pass, PenaltyPule, Play, ScoredDeal
from engine.deals import SheetLine
from engine.rules import Game
from engine.sheet import PuleEvent


@functools.lru_cache(maxsize=64)
def _words(language: str | None, game: str) -> str:
    """A game in words in `language` (the active one): translated once, not on every row."""
    if game == "pass":
        return _("all passed")  # the page's "everyone passed" is too long for the column
    return str(GAME_WORDS[game])


@dataclass(frozen=True)
class RowWords:
    """What a sheet's rows say in the document's language: the games in words and the letters of the
    pules column. Looked up once per round: asking gettext for the active language on every row
    would be a seventh of reading a round's sheets."""

    games: dict[str, str]  # a game (Game's value: "lielais", ..., "pass", "galdins") → words
    common: str  # the letter of a common pule, "C" in English
    personal: str  # the letter of a personal pule, "P" in English

    def game(self, entry: SheetLine) -> str:
        if isinstance(entry, Play):
            return self.games[entry.game.value]
        return self.games[Game.PASS if isinstance(entry, Pass) else Game.GALDINS]


def row_words() -> RowWords:
    """The rows' words in the active language."""
    language = get_language()
    common, personal = pule_letters()
    return RowWords(
        games={game.value: _words(language, game.value) for game in Game},
        common=common,
        personal=personal,
    )


class EntryColumns(TypedDict, total=False):
    game: str
    declarer: str
    points: str
    tricks: str


def entry_columns(entry: SheetLine, by_key: dict[str, str], words: RowWords) -> EntryColumns:
    """The game, declarer, points and tricks columns of an entry."""
    if not isinstance(entry, Play):
        return {"game": words.game(entry)}
    return {
        "game": words.game(entry),
        "declarer": by_key.get(entry.declarer, entry.declarer),
        "points": "" if entry.points is None else str(entry.points),
        "tricks": "" if entry.tricks is None else str(entry.tricks),
    }


def pule_marks(deal: ScoredDeal, seat_of: dict[str, int], words: RowWords) -> str:
    """The pules column: "C+" a common pule written ("C+C+" two at once), "C−" one collected,
    "P2+" a personal pule of player 2 written, "P2−" one crossed out (in the document's
    letters)."""
    event = deal.pule_event
    if not event:
        return ""
    if event is PuleEvent.COMMON_WRITTEN:
        return f"{words.common}+" * max(deal.common_written, 1)  # "C+C+": two written at once
    if event is PuleEvent.COMMON_COLLECTED:
        return f"{words.common}−"
    owner = seat_of.get(deal.pule_owner or "")
    if event is PuleEvent.PERSONAL_WRITTEN:
        return f"{words.personal}{owner}+"
    if event in (PuleEvent.OWN_COLLECTED, PuleEvent.PERSONAL_COLLECTED):
        return f"{words.personal}{owner}−"
    return ""


def deal_row(
    deal: ScoredDeal, seat_of: dict[str, int], by_key: dict[str, str], words: RowWords
) -> SheetDeal:
    """A scored deal as its row, with the engine's scores and running totals."""
    entry = deal.entry
    play = entry if isinstance(entry, Play) else None
    return SheetDeal(
        number=deal.number or 0,
        dealer_seat=seat_of[deal.dealer or ""],
        game=words.game(entry),
        declarer=by_key.get(play.declarer, play.declarer) if play else "",
        points="" if play is None or play.points is None else str(play.points),
        tricks="" if play is None or play.tricks is None else str(play.tricks),
        pule_marks=pule_marks(deal, seat_of, words),
        scores=deal.score_row,
        totals=deal.total_row,
    )


def unscored_rows(
    entries: Sequence[SheetLine],
    blank_rows: tuple[SheetDeal, ...],
    by_key: dict[str, str],
    words: RowWords,
) -> tuple[SheetDeal, ...]:
    """The rows of a sheet the engine no longer scores: what was entered, without scores."""
    rows = list(blank_rows)
    number = 0
    for entry in entries:
        if not isinstance(entry, PenaltyPule):  # a penalty pule uses no deal
            number += 1
            if number <= len(rows):
                row = rows[number - 1]
                rows[number - 1] = SheetDeal(
                    number=row.number,
                    dealer_seat=row.dealer_seat,
                    **entry_columns(entry, by_key, words),
                )
    return tuple(rows)


def deals_before(penalty: ScoredDeal, deals: Sequence[ScoredDeal]) -> int:
    """The deals played before a penalty pule was given."""
    count = 0
    for deal in deals:
        if deal is penalty:
            return count
        if deal.number is not None:
            count += 1
    return count


def pule_tallies(
    deals: Sequence[ScoredDeal],
    keys: Sequence[str],
    open_common: int,
    open_personal: dict[str, int],
) -> tuple[PuleTally, tuple[PuleTally, ...]]:
    """The engine's pule events counted: what the referee's tally boxes would show."""
    events = Counter(deal.pule_event for deal in deals if deal.pule_event)
    written: Counter[str] = Counter()
    crossed: Counter[str] = Counter()
    for deal in deals:
        if deal.pule_event in (PuleEvent.PERSONAL_WRITTEN, PuleEvent.PENALTY):
            written[deal.pule_owner or ""] += 1
        elif deal.pule_event in (PuleEvent.OWN_COLLECTED, PuleEvent.PERSONAL_COLLECTED):
            crossed[deal.pule_owner or ""] += 1
    common = PuleTally(
        written=sum(deal.common_written for deal in deals),
        crossed=events[PuleEvent.COMMON_COLLECTED],
        open=open_common,
    )
    personal = tuple(
        PuleTally(written=written[key], crossed=crossed[key], open=open_personal.get(key, 0))
        for key in keys
    )
    return common, personal
