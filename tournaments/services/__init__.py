"""Writes for the tournament domain (HackSoft style: views and commands call these, never the
models directly).

The parts: `refusal` (what every write raises when the rules refuse), `audit` (the audit log's
record), `locks` (the lock order of every write that touches a table), `tournaments`
(settings), `register` (players, clubs), `player_import` (the register from CSV),
`registrations` (registered, changed, withdrawn), `rounds` (creation, check-in, seating,
publication), `clock` (the round clock), `links` (a table's entry link), `fees` (fee categories,
fees paid). Roles and accounts, the hall and sign-ups are apps of their own (`accounts`, `hall`,
`signups`), above this one.
Callers use this package's names; the parts import each other only downwards from `refusal`,
`audit` and `locks`.
"""

from tournaments.services.audit import audit
from tournaments.services.clock import round_clock_reset, round_clock_start, round_time_call
from tournaments.services.fees import (
    CategoryRow,
    fee_categories_save,
    fee_category_set,
    fees_paid_by_present,
    fees_paid_set,
)
from tournaments.services.links import (
    table_token_issue,
    table_token_revoke,
)
from tournaments.services.locks import TableGoneError, lock_round_and_table, table_gone_message
from tournaments.services.player_import import (
    IMPORT_MAX_BYTES,
    ImportPreview,
    ImportRefusedError,
    ImportResult,
    LineProblem,
    decode_upload,
    players_import,
    players_import_preview,
)
from tournaments.services.refusal import ServiceError
from tournaments.services.register import club_create, player_save
from tournaments.services.registrations import (
    registration_update,
    registration_withdraw,
    registrations_create,
)
from tournaments.services.rounds import (
    AttendanceMismatchError,
    check_in_set,
    regenerate_confirmation,
    round_create,
    round_generate_seating,
    round_publish,
    round_swap_players,
    seating_scores,
)
from tournaments.services.tournaments import tournament_settings_save

__all__ = [
    "IMPORT_MAX_BYTES",
    "AttendanceMismatchError",
    "CategoryRow",
    "ImportPreview",
    "ImportRefusedError",
    "ImportResult",
    "LineProblem",
    "ServiceError",
    "TableGoneError",
    "audit",
    "check_in_set",
    "club_create",
    "decode_upload",
    "fee_categories_save",
    "fee_category_set",
    "fees_paid_by_present",
    "fees_paid_set",
    "lock_round_and_table",
    "player_save",
    "players_import",
    "players_import_preview",
    "regenerate_confirmation",
    "registration_update",
    "registration_withdraw",
    "registrations_create",
    "round_clock_reset",
    "round_clock_start",
    "round_create",
    "round_generate_seating",
    "round_publish",
    "round_swap_players",
    "round_time_call",
    "seating_scores",
    "table_gone_message",
    "table_token_issue",
    "table_token_revoke",
    "tournament_settings_save",
]
