"""The entries a table's sheet takes (`ENTRY_ACTIONS`), the same for the plain form
(entry.views) and the phone's sync (entry.sync): each gives an `Outcome` (entry.page)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from entry.correction_posts import post_correct, post_remove
from entry.deal_posts import post_confirm, post_deal, post_penalty
from entry.page import CLOSED, Outcome, SheetPage, closed_message

# The entries of the sheet, sent by a plain form or the phone's sync: each gives an Outcome.
ENTRY_ACTIONS: dict[str, Callable[[SheetPage, Mapping[str, str]], Outcome]] = {
    "deal": post_deal,
    "penalty": post_penalty,
    "correct": post_correct,
    "remove": post_remove,
    "confirm": post_confirm,
}


def entry_outcome(page: SheetPage, action: str, data: Mapping[str, str]) -> Outcome:
    """An entry sent to the sheet (`action`: one of ENTRY_ACTIONS, its form's fields in
    `data`), written as its form says: the same for a plain form and the phone's sync."""
    if action != "confirm" and not page.frame.accepts_entries:
        return Outcome(CLOSED, closed_message(page.sheet))
    return ENTRY_ACTIONS[action](page, data)
