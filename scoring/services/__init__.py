"""Scoring writes: deals entered at the table, corrections, penalties, confirmation, unlock.

Every write runs in one transaction with the table's row locked, is checked by the engine
against the whole sheet before anything is stored, and lands in the audit log. The writes live
in modules by what they write, and are read from here:

- deal_entries: who writes (`Writer`), the sheet's refusals, the deals and penalty pules
- corrections: an entry corrected or removed, its earlier versions kept
- confirmation: a table confirmed, unlocked, or allowed more deals after time
- round_writes: a round closed, seated by the standings before it, its clock reset
- phone_heard: when a table's phone was last heard from
"""

from scoring.services.confirmation import (
    ConfirmedTable,
    seat_results,
    table_confirm,
    table_confirm_on_sheet,
    table_deals_allow,
    table_unlock,
)
from scoring.services.corrections import deal_correct, deal_correct_on_sheet
from scoring.services.deal_entries import (
    ConflictError,
    KeyReusedError,
    LockedError,
    RecordedEntry,
    Writer,
    deal_record,
    deal_record_on_sheet,
)
from scoring.services.phone_heard import HEARD_REFRESH, table_heard
from scoring.services.round_writes import round_clock_reset, round_close, round_generate_seating

# What every refusal of these writes is (ConflictError and LockedError among them).
from tournaments.services import ServiceError

__all__ = [
    "HEARD_REFRESH",
    "ConfirmedTable",
    "ConflictError",
    "KeyReusedError",
    "LockedError",
    "RecordedEntry",
    "ServiceError",
    "Writer",
    "deal_correct",
    "deal_correct_on_sheet",
    "deal_record",
    "deal_record_on_sheet",
    "round_clock_reset",
    "round_close",
    "round_generate_seating",
    "seat_results",
    "table_confirm",
    "table_confirm_on_sheet",
    "table_deals_allow",
    "table_heard",
    "table_unlock",
]
