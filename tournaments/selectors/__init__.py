"""Reads for the tournaments app (HackSoft style: views call these, never the ORM directly).

The parts: `seating` (what seating reads), `rounds` (tournaments, rounds, registrations,
tables, players, clubs), `audit` (the audit log's records, filtered), `fees` (fees and the prize
fund).
"""

from tournaments.selectors.audit import (
    AUDIT_PAGE_SIZE,
    audit_records,
    registration_names,
)
from tournaments.selectors.fees import (
    CategoryFund,
    Fund,
    cents,
    fee_categories,
    fee_text,
    fee_texts,
    fees_paid,
    money_text,
    prize_fund,
    registration_fees,
)
from tournaments.selectors.rounds import (
    AttendanceDifference,
    attendance_difference,
    checked_in,
    club_list,
    club_named,
    coming_tournaments_for,
    last_round_number,
    meeting_matrix,
    next_round_number,
    player_list,
    players_found,
    playing_round,
    registration_list,
    round_list,
    round_tables,
    round_to_join,
    tournament_list,
    tournament_named,
    uneven_dealing,
    unregistered_players,
)
from tournaments.selectors.seating import (
    round_seating,
    seating_history,
)

__all__ = [
    "AUDIT_PAGE_SIZE",
    "AttendanceDifference",
    "CategoryFund",
    "Fund",
    "attendance_difference",
    "audit_records",
    "cents",
    "checked_in",
    "club_list",
    "club_named",
    "coming_tournaments_for",
    "fee_categories",
    "fee_text",
    "fee_texts",
    "fees_paid",
    "last_round_number",
    "meeting_matrix",
    "money_text",
    "next_round_number",
    "player_list",
    "players_found",
    "playing_round",
    "prize_fund",
    "registration_fees",
    "registration_list",
    "registration_names",
    "round_list",
    "round_seating",
    "round_tables",
    "round_to_join",
    "seating_history",
    "tournament_list",
    "tournament_named",
    "uneven_dealing",
    "unregistered_players",
]
