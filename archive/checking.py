"""The whole archive checked before anything is written: `Checker` turns it into a `Plan` of rows,
every sheet re-scored by the engine against the rules of its own round."""

from __future__ import annotations

import datetime
import json
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any, cast

from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import models
from django.utils.dateparse import parse_date, parse_datetime

from archive.format import (
    ARCHIVE_FORMAT,
    NOT_SETTINGS,
    READABLE_VERSIONS,
    user_relations,
)
from archive.plan import (
    Plan,
    PlannedAuditRow,
    PlannedCheckIn,
    PlannedEntryFee,
    PlannedRound,
)
from archive.reading import (
    SMALL,
    ArchiveError,
    as_list,
    as_object,
    check_bounds,
    check_text,
    clean_row,
    cleaned,
    is_id,
    moment_field,
    name_field,
    remap_detail,
    remap_mix_plan,
    required,
    shown,
    text_field,
    username_field,
    whole_field,
)
from archive.table_checks import TableChecks
from core.model_columns import concrete_field
from engine import SheetError
from engine.json_contract import rules_to_json
from tournaments.bounds import MAX_ROUND_MINUTES
from tournaments.models import (
    CheckInMethod,
    FeeCategory,
    Player,
    Registration,
    Round,
    RoundStatus,
    SignUp,
    SignUpStatus,
    Tournament,
)
from tournaments.rule_set import (
    RULE_SET_FIELDS,
    round_rule_set,
    rule_set_options,
    tournament_rule_set,
)


class Checker(TableChecks):
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
            self._audit(as_object(item, f"audit entry {index}"), f"audit entry {index}")
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

    # -- the tournament, clubs, players and entries

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

    def _clubs(self) -> dict[str, str]:
        clubs: dict[str, str] = {}
        for index, item in enumerate(
            as_list(required(self.archive, "clubs", "the archive"), "clubs"), 1
        ):
            where = f"club {index}"
            club = as_object(item, where)
            name = name_field(club, "name", where, max_length=120)
            city = text_field(club, "city", where, max_length=120)
            if not name.strip():
                raise ArchiveError(f"{where}: the name is empty")
            if name in clubs:
                raise ArchiveError(f"{where}: club {shown(name)} is listed twice")
            clubs[name] = city
        return clubs

    def _players(self, clubs: dict[str, str]) -> dict[int, tuple[str, str | None, str]]:
        players: dict[int, tuple[str, str | None, str]] = {}
        licences: set[str] = set()
        items = as_list(required(self.archive, "players", "the archive"), "players")
        for index, item in enumerate(items, 1):
            where = f"player {index}"
            data = as_object(item, where)
            player_id = whole_field(data, "id", where, low=1, high=2**63 - 1)
            name = name_field(data, "name", where, max_length=120)
            if not name.strip():
                raise ArchiveError(f"{where}: the name is empty")
            club = cleaned(required(data, "club", where))
            if club is not None and (not isinstance(club, str) or club not in clubs):
                raise ArchiveError(f"{where}: club {shown(club)} is not among the clubs")
            licence = required(data, "licence", where) or ""
            if not isinstance(licence, str) or len(licence) > 20:
                raise ArchiveError(f"{where}: licence must be a text of at most 20 characters")
            if licence and licence in licences:
                raise ArchiveError(f"{where}: licence {licence} belongs to two players")
            if player_id in players:
                raise ArchiveError(f"{where}: player id {player_id} is used twice")
            clean_row(Player(full_name=name, licence_number=licence), where, exclude=("club",))
            licences.add(licence)
            players[player_id] = (name, club, licence)
        return players

    def _registrations(
        self, players: dict[int, tuple[str, str | None, str]]
    ) -> dict[int, Registration]:
        entries: dict[int, Registration] = {}
        seen_players: set[int] = set()
        items = as_list(required(self.archive, "entries", "the archive"), "entries")
        for index, item in enumerate(items, 1):
            where = f"entry {index}"
            data = as_object(item, where)
            registration_id = whole_field(data, "id", where, low=1, high=2**63 - 1)
            player_id = required(data, "player", where)
            if not is_id(player_id) or player_id not in players:
                raise ArchiveError(f"{where}: player {shown(player_id)} is not among the players")
            if player_id in seen_players:
                raise ArchiveError(f"{where}: player {player_id} is entered twice")
            if cleaned(required(data, "name", where)) != players[player_id][0]:
                raise ArchiveError(f"{where}: the name is not the player's name")
            if registration_id in entries:
                raise ArchiveError(f"{where}: entry id {registration_id} is used twice")
            entry = Registration(
                player_id=player_id,
                team=name_field(data, "team", where, max_length=80),
                first_round=whole_field(data, "first_round", where, low=0, high=SMALL),
                withdrawn_after_round=whole_field(
                    data, "withdrawn_after_round", where, low=0, high=SMALL, null=True
                ),
                fixed_table=whole_field(data, "fixed_table", where, low=0, high=SMALL, null=True),
            )
            clean_row(entry, where, exclude=("tournament", "player"))
            seen_players.add(player_id)
            entries[registration_id] = entry
        return entries

    def _fee_categories(self) -> list[FeeCategory]:
        categories: list[FeeCategory] = []
        items = as_list(self._added_in(4, "fee_categories", []), "fee_categories")
        for index, item in enumerate(items, 1):
            where = f"fee category {index}"
            data = as_object(item, where)
            name = name_field(data, "name", where, max_length=60)
            if not name.strip():
                raise ArchiveError(f"{where}: the name is empty")
            if name in {category.name for category in categories}:
                raise ArchiveError(f"{where}: {shown(name)} is listed twice")
            category = FeeCategory(
                name=name,
                # A decimal column without null: _setting gives a Decimal or refuses.
                amount=cast(
                    Decimal,
                    self._setting(
                        concrete_field(FeeCategory, "amount"),
                        required(data, "amount", where),
                        where,
                    ),
                ),
                order=whole_field(data, "order", where, low=0, high=SMALL),
            )
            clean_row(category, where, exclude=("tournament",))
            categories.append(category)
        return categories

    def _entry_fees(
        self, categories: set[str]
    ) -> tuple[dict[int, PlannedEntryFee], dict[int, datetime.datetime]]:
        """Each entry's fee (its category by name, when it was paid and to whom) and when it
        registered: archive 4 on; an older archive has none (unpaid, registered now)."""
        fees: dict[int, PlannedEntryFee] = {}
        registered_at: dict[int, datetime.datetime] = {}
        if self.version < 4:
            return fees, registered_at
        items = as_list(required(self.archive, "entries", "the archive"), "entries")
        for index, (registration_id, entry) in enumerate(self.registrations.items(), 1):
            where = f"entry {index}"
            data = items[index - 1]
            given = cleaned(required(data, "fee_category", where))
            category = given if isinstance(given, str) else None
            if given is not None and category not in categories:
                raise ArchiveError(f"{where}: fee_category {shown(given)} is no fee category")
            entry.fee_paid_at = moment_field(data, "fee_paid_at", where)
            paid_to = username_field(required(data, "fee_paid_to", where), where)
            if paid_to is not None and entry.fee_paid_at is None:
                raise ArchiveError(f"{where}: a fee paid to someone has the moment it was paid")
            fees[registration_id] = PlannedEntryFee(category, paid_to)
            moment = moment_field(data, "registered_at", where)
            if moment is not None:
                registered_at[registration_id] = moment
        return fees, registered_at

    def _signups(self, players: dict[int, tuple[str, str | None, str]]) -> list[SignUp]:
        signups: list[SignUp] = []
        linked: set[int] = set()
        items = as_list(self._added_in(4, "signups", []), "signups")
        for index, item in enumerate(items, 1):
            where = f"online registration {index}"
            data = as_object(item, where)
            status = required(data, "status", where)
            if status not in SignUpStatus.values:
                raise ArchiveError(f"{where}: unknown status {shown(status)}")
            player = required(data, "player", where)
            if player is not None and (not is_id(player) or player not in players):
                raise ArchiveError(f"{where}: player {shown(player)} is not among the players")
            entry = required(data, "entry", where)
            if entry is not None and (not is_id(entry) or entry not in self.registrations):
                raise ArchiveError(f"{where}: {shown(entry)} is not an entry")
            if entry is not None and entry in linked:
                raise ArchiveError(f"{where}: entry {entry} comes from two online registrations")
            if (entry is not None) != (status == SignUpStatus.ACCEPTED):
                raise ArchiveError(f"{where}: an accepted registration, and only it, has its entry")
            queued_at = moment_field(data, "queued_at", where)
            if queued_at is None:
                raise ArchiveError(f"{where}: queued_at is missing")
            signup = SignUp(
                full_name=name_field(data, "name", where, max_length=120),
                club=name_field(data, "club", where, max_length=120),
                licence_number=text_field(data, "licence", where, max_length=20),
                contact=text_field(data, "contact", where, max_length=120),
                status=status,
                queued_at=queued_at,
                player_id=player,
                registration_id=entry,
            )
            created_at = moment_field(data, "created_at", where)
            if created_at is not None:  # otherwise left to bulk_create, which stamps "now"
                signup.created_at = created_at
            if not signup.full_name.strip():
                raise ArchiveError(f"{where}: the name is empty")
            clean_row(signup, where, exclude=("tournament", "player", "registration"))
            if entry is not None:
                linked.add(entry)
            signups.append(signup)
        return signups

    # -- rounds and tables

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
