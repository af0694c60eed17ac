"""The checks of an archive's rounds: each round's settings, rule set, clock, check-ins and
check-outs, and its tables (`TableChecks`). A part of `Checker` (archive.checking), which holds
the tournament, the entries, the archive's version and the settings check these read."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import models

from archive.plan import (
    PlannedCheckIn,
    PlannedRound,
)
from archive.reading import (
    SMALL,
    ArchiveError,
    as_list,
    as_object,
    check_bounds,
    clean_row,
    is_id,
    moment_field,
    required,
    shown,
    text_field,
    whole_field,
)
from archive.table_checks import TableChecks
from core.model_columns import concrete_field
from engine import SheetError
from tournaments.bounds import MAX_ROUND_MINUTES
from tournaments.models import CheckInMethod, Round, RoundStatus, Tournament
from tournaments.rule_set import (
    RULE_SET_FIELDS,
    round_rule_set,
    rule_set_options,
)


class RoundChecks(TableChecks):
    """The round checks of `Checker`; it provides `tournament` and `_setting` besides what
    `TableChecks` reads."""

    tournament: Tournament

    if TYPE_CHECKING:  # Checker's, declared for the type checker

        @staticmethod
        def _setting(model_field: models.Field, value: object, where: str) -> object: ...

    def _round(self, data: dict[str, Any], index: int) -> PlannedRound:
        number = whole_field(data, "number", f"round {index}", low=1, high=SMALL)
        where = f"round {number}"
        status = text_field(data, "status", where, max_length=10)
        stored = self._round_rule_set(
            as_object(self._added_in(3, "rule_set", {}, data, where), f"{where}: rule_set"),
            status,
            where,
        )
        try:
            rule_set = round_rule_set(Round(tournament=self.tournament, rule_set=stored))
        except SheetError as error:
            raise ArchiveError(f"{where}: rule_set: {error}") from None
        round_ = PlannedRound(
            number=number,
            status=status,
            seating_mode=text_field(data, "seating_mode", where, max_length=8),
            seed=whole_field(data, "seed", where, low=0, high=2**31 - 1, null=True),
            warnings=as_list(self._added_in(2, "warnings", [], data, where), f"{where}: warnings"),
            generated_at=moment_field(data, "generated_at", where) if self.version > 1 else None,
            published_at=moment_field(data, "published_at", where) if self.version > 1 else None,
            check_ins=self._check_ins(
                self._added_in(2, "check_ins", [], data, where), f"{where}: check_ins"
            ),
            stored_rule_set=stored,
            rule_set=rule_set,
        )
        if self.version >= 3:
            round_.clock_started_at = moment_field(data, "clock_started_at", where)
            round_.time_limit = whole_field(
                data, "time_limit", where, low=1, high=MAX_ROUND_MINUTES, null=True
            )
            round_.time_called_at = moment_field(data, "time_called_at", where)
            if (round_.clock_started_at is None) != (round_.time_limit is None) or (
                round_.time_called_at is not None and round_.clock_started_at is None
            ):
                raise ArchiveError(
                    f"{where}: a round clock needs its start and its limit, and time is called "
                    "only on a started clock"
                )
        clean_row(
            Round(
                number=number,
                status=round_.status,
                seating_mode=round_.seating_mode,
                seed=round_.seed,
                warnings=round_.warnings,
                rule_set=round_.stored_rule_set,
                time_limit=round_.time_limit,
            ),
            where,
            exclude=("tournament",),
        )
        if self.version >= 4:
            absent = self._moments_of_entries(
                required(data, "check_outs", where), f"{where}: check_outs"
            )
            present = {check_in.entry for check_in in round_.check_ins}
            if present & {entry for entry, _at in absent}:
                raise ArchiveError(f"{where}: a player is both checked in and marked absent")
            round_.check_outs = absent
        seated: set[int] = set()
        out: set[int] = set()
        for table_index, item in enumerate(
            as_list(required(data, "tables", where), f"{where}: tables"), 1
        ):
            table = self._table(
                as_object(item, f"{where}, table {table_index}"), round_, table_index
            )
            if seated & set(table.seats):
                raise ArchiveError(f"{where}, table {table.number}: a player has two seats")
            seated.update(table.seats)
            out.update(late.entry for late in table.late_players if late.arrived_at is None)
            round_.tables.append(table)
        if seated & out:
            raise ArchiveError(f"{where}: a player out of the round has a seat in it")
        numbers = [table.number for table in round_.tables]
        if len(set(numbers)) != len(numbers):
            raise ArchiveError(f"{where}: a table number is used twice")
        return round_

    def _round_rule_set(self, given: dict[str, Any], status: str, where: str) -> dict[str, Any]:
        """The rule set a round keeps, checked as the tournament's own options are: a draft's
        (normally none: it follows the tournament) as given; a published, in-play or closed
        round's complete, an option it lacks (an older archive) being the tournament's now."""
        where = f"{where}: rule_set"
        checked: dict[str, Any] = {}
        for name, value in given.items():
            if name not in RULE_SET_FIELDS:
                raise ArchiveError(f"{where}: unknown option {shown(name)}")
            model_field = concrete_field(Tournament, name)
            value = self._setting(model_field, value, where)
            try:
                model_field.clean(value, None)
            except ValidationError as error:
                raise ArchiveError(f"{where}: {name}: {' '.join(error.messages)}") from None
            checked[name] = value
        check_bounds(
            where,
            deals_per_round=checked.get("deals_per_round"),
            deals_at_three=checked.get("deals_at_three"),
            deals_at_four=checked.get("deals_at_four"),
        )
        if status == RoundStatus.DRAFT:
            return checked
        return {**rule_set_options(self.tournament), **checked}

    def _entry_ids(self, value: object, where: str) -> list[int]:
        ids = as_list(value, where)
        for registration_id in ids:
            if not is_id(registration_id) or registration_id not in self.registrations:
                raise ArchiveError(f"{where}: {shown(registration_id)} is not an entry")
        if len(set(ids)) != len(ids):
            raise ArchiveError(f"{where}: an entry is listed twice")
        return ids

    def _check_ins(self, value: object, where: str) -> list[PlannedCheckIn]:
        """Who checked in: entry ids (archives 2 and 3), or from archive 4 each with how and
        when."""
        if self.version < 4:
            return [PlannedCheckIn(entry, None, None) for entry in self._entry_ids(value, where)]
        check_ins: list[PlannedCheckIn] = []
        for item in as_list(value, where):
            data = as_object(item, f"{where}: a check-in")
            method = required(data, "method", where)
            if method not in CheckInMethod.values:
                raise ArchiveError(f"{where}: unknown method {shown(method)}")
            check_ins.append(
                PlannedCheckIn(
                    required(data, "entry", where), method, moment_field(data, "at", where)
                )
            )
        self._entry_ids([check_in.entry for check_in in check_ins], where)
        return check_ins

    def _moments_of_entries(
        self, value: object, where: str
    ) -> list[tuple[int, datetime.datetime | None]]:
        """[{"entry": id, "at": moment}]: each entry once."""
        rows = [as_object(item, f"{where}: a row") for item in as_list(value, where)]
        entries = self._entry_ids([required(row, "entry", where) for row in rows], where)
        return [
            (entry, moment_field(row, "at", where))
            for entry, row in zip(entries, rows, strict=True)
        ]
