"""A round's or a tournament's document as PDF bytes, what the views (and the tests) ask for.

Every document is printed in the tournament's language (Tournament.language), whatever the
language of whoever asks for it: the paper on the wall reads the same for everyone."""

from __future__ import annotations

from django.conf import settings
from django.utils import translation

from documents import selectors
from documents.prize_list import render_prize_list
from documents.protocol import render_protocol
from documents.score_sheets import render_score_sheets
from documents.seating_list import CheckInNotice, render_seating_list
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


def round_seating_pdf(*, round_: Round, check_in: CheckInNotice | None = None) -> bytes:
    with printed_in(round_.tournament):
        return render_seating_list(selectors.round_seating_list(round_=round_, check_in=check_in))


def standings_protocol_pdf(*, tournament: Tournament, after_round: int | None = None) -> bytes:
    with printed_in(tournament):
        return render_protocol(
            selectors.standings_protocol(tournament=tournament, after_round=after_round)
        )


def prize_list_pdf(*, tournament: Tournament) -> bytes:
    with printed_in(tournament):
        return render_prize_list(selectors.prize_document(tournament=tournament))
