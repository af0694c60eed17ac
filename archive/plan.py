"""The rows a checked archive will write, as `Checker` plans them and `tournament_import` writes
them."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from engine.statistics import SeatTally
from scoring.models import DealResult
from signups.models import SignUp
from tournaments.models import FeeCategory, Registration, Tournament
from tournaments.rule_set import (
    RuleSet,
)


@dataclass
class PlannedConfirmation:
    confirmed_at: datetime.datetime | None
    confirmed_by: str | None
    confirmed_by_registration: int | None  # the archive's entry id
    results: list[Any]  # engine RoundResults, players by the archive's entry id (text)
    tallies: dict[str, SeatTally]  # each player's counts of the sheet, by the same id


@dataclass(frozen=True)
class PlannedLatePlayer:
    """A late arrival at a table, or a player out of the round (`arrived_at` None)."""

    entry: int  # the archive's entry id
    seat: int  # his seat at the table, 1-based, as it was
    arrived_at: datetime.datetime | None
    minutes_late: int | None
    penalty_position: int | None
    recorded_by: str | None
    recorded_at: datetime.datetime | None


@dataclass(frozen=True)
class PlannedCall:
    """A table's call to the chief referee."""

    called_at: datetime.datetime
    reminded_at: datetime.datetime | None
    answered_at: datetime.datetime | None
    answered_by: str | None


@dataclass(frozen=True)
class PlannedCheckIn:
    entry: int  # the archive's entry id
    method: str | None  # None: an older archive's (the model's default)
    at: datetime.datetime | None


@dataclass
class PlannedTable:
    number: int
    first_dealer_position: int
    flags: list[Any]
    seats: list[int]  # the archive's entry ids in seat order
    versions: list[DealResult]  # unsaved; players by the archive's entry ids
    entered_by: list[str | None]  # per version
    via_link: list[bool]  # per version
    entered_at: list[datetime.datetime | None]  # per version
    confirmation: PlannedConfirmation | None
    roles: dict[str, list[str]] = field(default_factory=dict)  # relation: usernames
    time_called: bool = False  # confirmed with fewer deals than planned
    deals_allowed_after_time: int = 0
    late_players: list[PlannedLatePlayer] = field(default_factory=list)
    referee_calls: list[PlannedCall] = field(default_factory=list)


@dataclass
class PlannedRound:
    number: int
    status: str
    seating_mode: str
    seed: int | None
    warnings: list[Any]
    generated_at: datetime.datetime | None
    published_at: datetime.datetime | None
    check_ins: list[PlannedCheckIn]
    stored_rule_set: dict[str, Any]  # Round.rule_set as it is written: empty for a draft
    rule_set: RuleSet  # what its tables are checked against
    clock_started_at: datetime.datetime | None = None
    time_limit: int | None = None
    time_called_at: datetime.datetime | None = None
    tables: list[PlannedTable] = field(default_factory=list)
    # Whom the organiser marked absent: (the archive's entry id, when).
    check_outs: list[tuple[int, datetime.datetime | None]] = field(default_factory=list)


@dataclass(frozen=True)
class PlannedEntryFee:
    """An entry's fee: its category by name (None: the tournament's first) and who took it."""

    category: str | None
    paid_to: str | None


@dataclass
class PlannedAuditRow:
    action: str
    at: datetime.datetime | None
    user: str | None
    table: tuple[int, int] | None  # (round number, table number)
    detail: dict[str, Any]


@dataclass(frozen=True)
class NamedRole:
    """A role the archive gives an account: one of the tournament's (`table` None) or a
    table's (`table` its round and table numbers), by the model's relation name."""

    username: str
    relation: str
    table: tuple[int, int] | None = None


@dataclass
class Plan:
    """A checked archive, ready to be written: rows refer to each other by the archive's ids."""

    tournament: Tournament  # unsaved; mix_plan still by the archive's entry ids
    roles: dict[str, list[str]]  # relation: usernames
    clubs: dict[str, str]  # name: city
    players: dict[int, tuple[str, str | None, str]]  # id: (name, club name, licence or "")
    registrations: dict[int, Registration]  # unsaved, player_id the archive's player id
    rounds: list[PlannedRound]
    audit: list[PlannedAuditRow]
    fee_categories: list[FeeCategory] = field(default_factory=list)  # unsaved
    fees: dict[int, PlannedEntryFee] = field(default_factory=dict)  # by the archive's entry id
    # When each entry registered (the archive's entry id: the moment; an older archive: none).
    registered_at: dict[int, datetime.datetime] = field(default_factory=dict)
    # Unsaved; player_id and registration_id the archive's ids.
    signups: list[SignUp] = field(default_factory=list)

    @property
    def named_roles(self) -> list[NamedRole]:
        """Every role the archive names: the tournament's, then its tables' in order."""
        roles = [
            NamedRole(name, relation)
            for relation, holders in self.roles.items()
            for name in holders
        ]
        for round_ in self.rounds:
            for table in round_.tables:
                roles.extend(
                    NamedRole(name, relation, (round_.number, table.number))
                    for relation, holders in table.roles.items()
                    for name in holders
                )
        return roles

    @property
    def usernames(self) -> set[str]:
        names = {name for holders in self.roles.values() for name in holders}
        names.update(row.user for row in self.audit if row.user)
        names.update(fee.paid_to for fee in self.fees.values() if fee.paid_to)
        for round_ in self.rounds:
            for table in round_.tables:
                names.update(name for holders in table.roles.values() for name in holders)
                names.update(name for name in table.entered_by if name)
                if table.confirmation is not None and table.confirmation.confirmed_by:
                    names.add(table.confirmation.confirmed_by)
                names.update(late.recorded_by for late in table.late_players if late.recorded_by)
                names.update(call.answered_by for call in table.referee_calls if call.answered_by)
        return names
