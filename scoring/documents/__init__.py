"""Printed documents (reportlab): table score sheets, the seating list, the standings protocol.

    selectors.py   reads the database and asks the engine (every score is the engine's)
    sheets.py      a table's score sheet, one A4 page each (more past ~30 deals), blank or filled
    seating.py     a round's seating list for the wall
    protocol.py    the standings protocol with its signature lines
    layout.py      what they share: the level's variant, heading, footer, grids, signatures
    fonts.py       the shipped TTF font, and reportlab's one process-wide setting
    qr.py          QR codes, encoded by zxing-cpp

The tournament's level picks the variant (layout.Variant): national documents add the federation
heading, licence numbers, table referees' signature lines, control totals and "page x of y".

Every document is printed in the tournament's language (Tournament.language), whatever the
language of whoever asks for it: its words, its dates and its numbers. The paper on the wall and
the protocol in the federation's files read the same for everyone.
"""

from __future__ import annotations

from django.conf import settings
from django.utils import translation

from scoring.documents import selectors
from scoring.documents.protocol import render_protocol
from scoring.documents.seating import render_seating_list
from scoring.documents.sheets import render_score_sheets
from tournaments.models import Round, Tournament


def printed_in(tournament: Tournament) -> translation.override:
    """The tournament's language made active while its document is read and drawn."""
    return translation.override(tournament.language or settings.LANGUAGE_CODE)


def round_sheets_pdf(*, round_: Round, entry_url: selectors.EntryUrl, blank: bool = False) -> bytes:
    """Every table's score sheet of the round, one page each, in table order."""
    with printed_in(round_.tournament):
        return render_score_sheets(
            selectors.round_score_sheets(round_=round_, entry_url=entry_url, blank=blank)
        )


def round_seating_pdf(*, round_: Round) -> bytes:
    with printed_in(round_.tournament):
        return render_seating_list(selectors.round_seating_list(round_=round_))


def standings_protocol_pdf(*, tournament: Tournament, after_round: int | None = None) -> bytes:
    with printed_in(tournament):
        return render_protocol(
            selectors.standings_protocol(tournament=tournament, after_round=after_round)
        )
