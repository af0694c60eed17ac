"""The whole archive checked before anything is written: `Checker` turns it into a `Plan` of rows,
every sheet re-scored by the engine against the rules of its own round."""

from __future__ import annotations

import json
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.utils.dateparse import parse_date, parse_datetime

from archive.format import (
    ARCHIVE_FORMAT,
    NOT_SETTINGS,
    READABLE_VERSIONS,
    user_relations,
)
from archive.people_checks import PeopleChecks
from archive.plan import (
    Plan,
    PlannedAuditRow,
)
from archive.reading import (
    ArchiveError,
    as_list,
    as_object,
    check_bounds,
    check_text,
    clean_row,
    is_id,
    moment_field,
    remap_detail,
    remap_mix_plan,
    required,
    shown,
    text_field,
    username_field,
)
from archive.round_checks import RoundChecks
from engine import SheetError
from engine.json_contract import rules_to_json
from tournaments.models import Tournament
from tournaments.rule_set import (
    tournament_rule_set,
)


class Checker(PeopleChecks, RoundChecks):
    """Reads and checks a whole archive without writing anything (the first half of the
    import); `plan()` gives what to write, or raises an `ArchiveError` naming the place."""

    def __init__(self, archive: object, *, slug: str | None) -> None:
        self.archive = as_object(archive, "the archive")
        self.slug = slug

    def plan(self) -> Plan:
        archive = self.archive
        if archive.get("format") != ARCHIVE_FORMAT:
            raise ArchiveError(
                f'not a tournament archive: format must be "{ARCHIVE_FORMAT}", got '
                f"{shown(archive.get('format'))}"
            )
        version = archive.get("version")
        if not is_id(version) or version not in READABLE_VERSIONS:
            readable = ", ".join(map(str, READABLE_VERSIONS))
            raise ArchiveError(
                f"archive version {shown(version)} cannot be read here (only {readable})"
            )
        self.version = version
        # One quick look at the whole text; the walk that names the place only when needed.
        try:
            clean = b"\\u0000" not in json.dumps(archive, ensure_ascii=False).encode()
        except UnicodeEncodeError:
            clean = False
        if not clean:
            check_text(archive, "archive")
        tournament = self._tournament(
            as_object(required(archive, "tournament", "the archive"), "tournament")
        )
        self.tournament = tournament
        if required(archive, "rules", "the archive") != rules_to_json(
            tournament_rule_set(tournament).rules
        ):
            raise ArchiveError("rules: they disagree with the tournament's settings")
        fee_categories = self._fee_categories()
        clubs = self._clubs()
        players = self._players(clubs)
        self.registrations = self._registrations(players)
        fees, registered_at = self._entry_fees({category.name for category in fee_categories})
        signups = self._signups(players)
        rounds = [
            self._round(as_object(item, f"round {index}"), index)
            for index, item in enumerate(
                as_list(required(archive, "rounds", "the archive"), "rounds"), 1
            )
        ]
        numbers = [round_.number for round_ in rounds]
        if len(set(numbers)) != len(numbers):
            raise ArchiveError("rounds: a round number is used twice")
        self.tables = {
            (round_.number, table.number): table for round_ in rounds for table in round_.tables
        }
        roles = self._roles(self._added_in(2, "roles", {}), Tournament, "roles")
        audit = [
            self._audit(as_object(item, f"audit record {index}"), f"audit record {index}")
            for index, item in enumerate(as_list(self._added_in(2, "audit", []), "audit"), 1)
        ]
        self._check_mix_plan(tournament.mix_plan)
        return Plan(
            tournament,
            roles,
            clubs,
            players,
            self.registrations,
            rounds,
            audit,
            fee_categories=fee_categories,
            fees=fees,
            registered_at=registered_at,
            signups=signups,
        )

    def _added_in(
        self,
        version: int,
        key: str,
        default: object,
        data: Mapping[str, Any] | None = None,
        where: str = "the archive",
    ) -> Any:
        """A key that archive `version` added: required from then on, the default in an older
        archive."""
        data = self.archive if data is None else data
        if self.version < version:
            return data.get(key, default)
        return required(data, key, where)

    @staticmethod
    def _roles(value: object, model: type[models.Model], where: str) -> dict[str, list[str]]:
        """{relation: usernames} of the model's relations to accounts (see `user_relations`)."""
        known = {relation.name for relation in user_relations(model)}
        roles: dict[str, list[str]] = {}
        for relation, holders in as_object(value, where).items():
            if relation not in known:
                raise ArchiveError(f"{where}: {shown(relation)} is no role that can be stored")
            names = [
                username_field(name, f"{where}: {relation}") for name in as_list(holders, where)
            ]
            usernames = [name for name in names if name is not None]
            if len(usernames) != len(names) or len(set(usernames)) != len(usernames):
                raise ArchiveError(f"{where}: {relation} must name different accounts")
            roles[relation] = usernames
        return roles

    def _entry_key(self, key: str) -> str:
        """An entry id of the archive (as text), checked: the mapping of the check pass."""
        if not (isinstance(key, str) and key.isascii() and key.isdigit() and len(key) < 19):
            raise KeyError(key)
        if int(key) not in self.registrations:
            raise KeyError(key)
        return key

    def _check_mix_plan(self, plan: dict[str, Any]) -> None:
        """The stored mixing plan (tournaments.services.rounds._mix_round) names entries: checked
        now, mapped when they are written."""
        if not plan:
            return
        problem = "tournament: mix_plan is not a mixing plan of these entries"
        # A plan made before tables of 4 could be chosen has no table_size (tables of 3).
        if set(plan) - {"table_size"} != {"from_round", "seed", "players", "rounds"}:
            raise ArchiveError(problem)
        if not (is_id(plan["from_round"]) and is_id(plan["seed"])):
            raise ArchiveError(problem)
        if plan.get("table_size", 3) not in (3, 4):
            raise ArchiveError(problem)
        if not isinstance(plan["players"], list) or not isinstance(plan["rounds"], list):
            raise ArchiveError(problem)
        for round_ in plan["rounds"]:
            if not isinstance(round_, list) or not all(isinstance(table, list) for table in round_):
                raise ArchiveError(problem)
        try:
            remap_mix_plan(plan, self._entry_key)
        except KeyError:
            raise ArchiveError(problem) from None

    # -- the tournament

    def _tournament(self, settings: dict[str, Any]) -> Tournament:
        values: dict[str, Any] = {}
        for name, value in settings.items():
            if name in NOT_SETTINGS:
                continue
            try:
                model_field = Tournament._meta.get_field(name)
            except FieldDoesNotExist:
                raise ArchiveError(f"tournament: unknown setting {shown(name)}") from None
            if (
                not isinstance(model_field, models.Field)
                or not model_field.concrete
                or model_field.is_relation
            ):
                raise ArchiveError(f"tournament: {name} cannot be imported")
            values[model_field.attname] = self._setting(model_field, value, "tournament")
        for model_field in Tournament._meta.concrete_fields:
            if model_field.name in NOT_SETTINGS or model_field.attname in values:
                continue
            if not (model_field.has_default() or model_field.null):
                raise ArchiveError(f"tournament: {model_field.name} is missing")
        if self.slug is not None:
            values["slug"] = self.slug
        tournament = Tournament(**values)
        if not isinstance(tournament.mix_plan, dict):
            raise ArchiveError("tournament: mix_plan must be a JSON object")
        clean_row(tournament, "tournament")
        if Tournament.objects.filter(slug=tournament.slug).exists():
            raise ArchiveError(
                f'a tournament with the slug "{tournament.slug}" already exists: nothing '
                "imported (import it under another slug with --slug NEW_SLUG)"
            )
        check_bounds(
            "tournament",
            deals_per_round=tournament.deals_per_round,
            round_time_limit=tournament.round_time_limit,
            deals_at_three=tournament.deals_at_three,
            deals_at_four=tournament.deals_at_four,
        )
        try:
            tournament_rule_set(tournament)
        except SheetError as error:
            raise ArchiveError(f"tournament: {error}") from None
        return tournament

    @staticmethod
    def _setting(model_field: models.Field, value: object, where: str) -> object:
        where = f"{where}: {model_field.name}"
        if value is None:
            if not model_field.null:
                raise ArchiveError(f"{where} cannot be null")
            return None
        kind = model_field.get_internal_type()
        if kind in ("CharField", "SlugField", "TextField"):
            if not isinstance(value, str):
                raise ArchiveError(f"{where} must be a text, got {shown(value)}")
        elif kind == "BooleanField":
            if not isinstance(value, bool):
                raise ArchiveError(f"{where} must be true or false, got {shown(value)}")
        elif kind.endswith("IntegerField"):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ArchiveError(f"{where} must be a whole number, got {shown(value)}")
        elif kind == "DecimalField":
            try:
                number = Decimal(value) if isinstance(value, str) else None
            except InvalidOperation:
                number = None
            if number is None or not number.is_finite():
                raise ArchiveError(f"{where} must be a number written as text, got {shown(value)}")
            return number
        elif kind == "DateField":
            try:
                date = parse_date(value) if isinstance(value, str) else None
            except ValueError:  # well formed, but no such day (2026-02-30)
                date = None
            if date is None:
                raise ArchiveError(f"{where} must be a date (YYYY-MM-DD), got {shown(value)}")
            return date
        elif kind == "DateTimeField":
            try:
                moment = parse_datetime(value) if isinstance(value, str) else None
            except ValueError:  # well formed, but no such moment
                moment = None
            if moment is None or moment.tzinfo is None:
                raise ArchiveError(
                    f"{where} must be a moment with its offset (YYYY-MM-DDTHH:MM:SS+00:00), "
                    f"got {shown(value)}"
                )
            return moment
        return value

    # -- the audit

    def _audit(self, data: dict[str, Any], where: str) -> PlannedAuditRow:
        action = text_field(data, "action", where, max_length=40)
        place = required(data, "table", where)
        table: tuple[int, int] | None = None
        if place is not None:
            place = as_object(place, f"{where}: table")
            table = (required(place, "round", where), required(place, "table", where))
            if not (is_id(table[0]) and is_id(table[1])) or table not in self.tables:
                raise ArchiveError(f"{where}: round {table[0]} has no table {table[1]}")
        detail = as_object(required(data, "detail", where), f"{where}: detail")
        try:
            remap_detail(action, detail, self._entry_key)
        except (KeyError, ValueError):
            raise ArchiveError(f"{where}: the detail names a player who is not entered") from None
        return PlannedAuditRow(
            action=action,
            at=moment_field(data, "at", where),
            user=username_field(data.get("user"), where),
            table=table,
            detail=detail,
        )
