"""Reads for the tournaments app (HackSoft style: views call these, never the ORM directly).

The parts: `seating` (what seating reads), `rounds` (tournaments, rounds, entries, tables,
players, clubs), `roles` (who holds which role), `audit` (the audit log), `signups`
(registration online).
"""

from tournaments.selectors.audit import (
    AUDIT_PAGE_SIZE,
    audit_entries,
    audit_rows,
)
from tournaments.selectors.roles import (
    ROLE_HOLDERS,
    chief_refereed_tournaments,
    organised_tournaments,
    refereed_tables,
    role_holders,
    round_referee_assignments,
    tournament_people,
)
from tournaments.selectors.rounds import (
    AttendanceDifference,
    attendance_difference,
    checked_in,
    club_list,
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
    tables_confirmed_short,
    tournament_list,
    tournament_named,
    uneven_dealing,
    unregistered_players,
)
from tournaments.selectors.seating import (
    registration_rank_labels,
    registration_scores,
    round_seating,
    seating_history,
)
from tournaments.selectors.signups import (
    ListedPlayer,
    SignUpLists,
    organiser_signups,
    signup_lists,
    signup_open,
    signups_to_decide,
)

__all__ = [
    "AUDIT_PAGE_SIZE",
    "ROLE_HOLDERS",
    "AttendanceDifference",
    "ListedPlayer",
    "SignUpLists",
    "attendance_difference",
    "audit_entries",
    "audit_rows",
    "checked_in",
    "chief_refereed_tournaments",
    "club_list",
    "coming_tournaments_for",
    "last_round_number",
    "meeting_matrix",
    "next_round_number",
    "organised_tournaments",
    "organiser_signups",
    "player_list",
    "players_found",
    "playing_round",
    "refereed_tables",
    "registration_list",
    "registration_rank_labels",
    "registration_scores",
    "role_holders",
    "round_list",
    "round_referee_assignments",
    "round_seating",
    "round_tables",
    "seating_history",
    "signup_lists",
    "signup_open",
    "signups_to_decide",
    "tables_confirmed_short",
    "tournament_list",
    "tournament_named",
    "tournament_people",
    "uneven_dealing",
    "unregistered_players",
]
