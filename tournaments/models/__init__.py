"""The tournament domain's models, one module per concern: `register` (clubs, players),
`tournament` (a tournament, its rules and options, the roles), `fees` (fee categories),
`registrations` (a player registered in a tournament), `rounds` (rounds, tables, seats, table
links), `hall` (check-in and check-out: who is present for a round), `audit` (the
audit log). Callers import from `tournaments.models`; the migrations name these paths too.
"""

from tournaments.models.audit import (
    AuditRecord,
)
from tournaments.models.fees import (
    FeeCategory,
)
from tournaments.models.hall import (
    CheckIn,
    CheckInMethod,
    CheckOut,
)
from tournaments.models.register import (
    Club,
    Player,
)
from tournaments.models.registrations import (
    Registration,
    new_check_in_token,
)
from tournaments.models.rounds import (
    CHECK_IN_CODE_LENGTH,
    CHECK_IN_CODE_LETTERS,
    Round,
    RoundStatus,
    Seat,
    Table,
    TableToken,
    new_check_in_code,
    new_table_token,
)
from tournaments.models.tournament import (
    ROLE_RELATIONS,
    AbsentPlayers,
    AllPass,
    FourTablePassPules,
    GaldinsScoring,
    Level,
    PersonalPulePayment,
    Role,
    SeatingMode,
    SmallZoleLoss,
    StandingsOrder,
    TableSize,
    Tournament,
)

__all__ = [
    "CHECK_IN_CODE_LENGTH",
    "CHECK_IN_CODE_LETTERS",
    "ROLE_RELATIONS",
    "AbsentPlayers",
    "AllPass",
    "AuditRecord",
    "CheckIn",
    "CheckInMethod",
    "CheckOut",
    "Club",
    "FeeCategory",
    "FourTablePassPules",
    "GaldinsScoring",
    "Level",
    "PersonalPulePayment",
    "Player",
    "Registration",
    "Role",
    "Round",
    "RoundStatus",
    "Seat",
    "SeatingMode",
    "SmallZoleLoss",
    "StandingsOrder",
    "Table",
    "TableSize",
    "TableToken",
    "Tournament",
    "new_check_in_code",
    "new_check_in_token",
    "new_table_token",
]
