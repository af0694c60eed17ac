"""The tournament archive: one JSON document with everything about a tournament, and its import.

Each table's sheet is in the engine's sheet format (DESIGN.md, "Contracts of the engine command
line") with the players' names and the rules of its own round (each round keeps the rule set it
was published with: `tournaments.rule_set`), so anyone can re-score it with `python -m engine
score` and get the confirmed totals written beside it. Beside the sheet, the archive keeps what
the sheet does not show but an organiser would miss after a restore: every version of every deal
(corrections and removed entries, with who, when and why), who confirmed each table, the
check-ins, the seating warnings and flags, the accounts' roles (organisers, chief referees, table
referees) and the tournament's audit log.

Not in the archive, on purpose: the tables' private entry links (whoever holds the file could
write with them; an import issues new ones), the devices' client keys, IP addresses (personal
data, and nothing to check a result with) and user accounts beyond their usernames.

`tournament_archive` is a read (a selector): it writes nothing, and its number of queries does
not grow with the tournament. `tournament_import` is its inverse (a service): it checks the whole
archive first, every sheet re-scored by the engine, and then writes it in one transaction.
"""

from __future__ import annotations

import copy
import datetime
import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import DatabaseError, models, transaction
from django.db.models import F, Value
from django.db.models.functions import Cast
from django.utils.dateparse import parse_date, parse_datetime

from engine import Galdins, Pass, PenaltyPule, Play, SheetError, score_sheet
from engine.contract import rules_to_json, sheet_from_json, sheet_to_json
from engine.deals import Entry as SheetEntry
from engine.names import latvian_sort_key
from engine.rules import TOTAL_POINTS, TRICKS_PER_DEAL, Game
from engine.standings import round_results
from scoring.models import TWELFTHS, DealResult, EntryKind, SeatResult, TableResult
from scoring.sheets import (
    current_results,
    result_fields,
    sheet_entry,
    table_sheet,
)
from tournaments.forms import MAX_DEALS_PER_ROUND, MAX_ROUND_MINUTES
from tournaments.models import (
    AuditEntry,
    CheckIn,
    Club,
    Entry,
    Player,
    Round,
    RoundStatus,
    Seat,
    Table,
    TableToken,
    Tournament,
)
from tournaments.rule_set import (
    RULE_SET_FIELDS,
    RuleSet,
    round_rule_set,
    rule_set_options,
    tournament_rule_set,
)
from tournaments.services import ServiceError

ARCHIVE_FORMAT = "zole-tournament-archive"
# 1: settings, players, entries, rounds, tables with the current sheet and the confirmed results.
# 2: also every deal version, confirmers, check-ins, seating warnings and flags, the accounts'
#    roles and the audit log.
# 3: also each round's rule set (the options it was published with) and round clock, and which
#    tables were confirmed short because time was called. The rounds of an older archive were
#    played with the tournament's options: a published one is given them when it is imported.
ARCHIVE_VERSION = 3
READABLE_VERSIONS = (1, 2, 3)
# Not settings: the row's id and creation time. (The roles, many-to-many relations to accounts,
# are exported by username beside the settings.)
NOT_SETTINGS = frozenset({"id", "created_at"})
# Audit entries whose detail names players by entry id (as the engine keys them).
DEAL_ACTIONS = frozenset(
    {
        AuditEntry.Action.DEAL_ENTERED,
        AuditEntry.Action.DEAL_CORRECTED,
        AuditEntry.Action.DEAL_REMOVED,
        AuditEntry.Action.PENALTY_GIVEN,
    }
)
IMPORT_CLIENT_KEY = "archive-{position}-{version}"  # DealResult.client_key of an imported row
OPEN_STATUSES = (RoundStatus.PUBLISHED, RoundStatus.IN_PLAY)
BATCH_SIZE = 1000


def sheet_names(seats: list[Seat], entries: dict[int, Entry]) -> dict[str, str]:
    """The players' names at one table, by entry id (as text). Namesakes at one table are told
    apart by their licence numbers, or by their entry ids when they have none."""
    names = {str(seat.entry_id): entries[seat.entry_id].player.full_name for seat in seats}
    repeated = {name for name, count in Counter(names.values()).items() if count > 1}
    for seat in seats:
        player = entries[seat.entry_id].player
        if player.full_name in repeated:
            label = player.licence_number or f"#{seat.entry_id}"
            names[str(seat.entry_id)] = f"{player.full_name} ({label})"
    return names


def _value(value: object) -> object:
    return value.isoformat() if hasattr(value, "isoformat") else value


def _place_points(twelfths: int) -> str:
    return str(Fraction(twelfths, TWELFTHS))  # exact: "4", "14/3"


# --- Export -------------------------------------------------------------------------------------


def user_relations(model: type[models.Model]) -> list[models.ManyToManyField]:
    """The model's many-to-many relations to user accounts: the roles it records (a
    tournament's organisers, chief referees and referees; a table's referees)."""
    user_model = get_user_model()
    return sorted(
        (field for field in model._meta.many_to_many if field.related_model is user_model),
        key=lambda field: field.name,
    )


def _roles_query(tournament: Tournament) -> models.QuerySet | None:
    """(relation, table id or None, username) of every role in the tournament, one query."""
    parts = []
    for model, scope in ((Tournament, "tournament"), (Table, "table")):
        for relation in user_relations(model):
            through = relation.remote_field.through.objects
            owner = relation.m2m_field_name()
            user = relation.m2m_reverse_field_name()
            if scope == "tournament":
                rows = through.filter(**{owner: tournament}).annotate(
                    role=Value(relation.name),
                    # Typed: PostgreSQL makes a bare NULL text, and text is no table id.
                    role_table=Cast(Value(None), output_field=models.BigIntegerField()),
                )
            else:
                rows = through.filter(**{f"{owner}__round__tournament": tournament}).annotate(
                    role=Value(relation.name), role_table=F(f"{owner}_id")
                )
            parts.append(rows.values_list("role", "role_table", f"{user}__username"))
    if not parts:
        return None
    return parts[0].union(*parts[1:], all=True)


def _version_json(result: DealResult) -> dict[str, Any]:
    """One stored version of one entry of a sheet, players by entry id."""
    return {
        "position": result.position,
        "version": result.version,
        "kind": result.kind,
        "game": result.game,
        "entry": result.player_id,
        "points": result.points,
        "tricks": result.tricks,
        "galdins": result.galdins,
        "reason": result.reason,
        "entered_at": _value(result.created_at),
        "entered_by": result.entered_by.username if result.entered_by else None,
        "via": "link" if result.entered_via_token_id is not None else "account",
    }


def tournament_archive(tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as plain JSON data, in seven queries whatever its size."""
    entries = {
        entry.pk: entry
        for entry in tournament.entries.select_related("player__club").order_by("pk")
    }
    # Rounds with their check-ins, and tables with their seats: one outer join each.
    rounds: dict[int, dict[str, Any]] = {}
    for (
        round_id,
        number,
        status,
        mode,
        seed,
        warnings,
        generated,
        published,
        rule_set,
        clock_started,
        time_limit,
        time_called,
        entry_id,
    ) in tournament.rounds.order_by("number", "check_ins__entry_id").values_list(
        "pk",
        "number",
        "status",
        "seating_mode",
        "seed",
        "warnings",
        "generated_at",
        "published_at",
        "rule_set",
        "clock_started_at",
        "time_limit",
        "time_called_at",
        "check_ins__entry_id",
    ):
        round_ = rounds.setdefault(
            round_id,
            {
                "number": number,
                "status": status,
                "seating_mode": mode,
                "seed": seed,
                "warnings": warnings,
                "generated_at": _value(generated),
                "published_at": _value(published),
                # As stored: the options the round was published with (empty for a draft,
                # which follows the tournament's).
                "rule_set": rule_set,
                "clock_started_at": _value(clock_started),
                "time_limit": time_limit,
                "time_called_at": _value(time_called),
                "check_ins": [],
                "tables": [],
            },
        )
        if entry_id is not None:
            round_["check_ins"].append(entry_id)
    # Each round's sheets are written with the rules it is played with.
    rules_of = {
        round_id: round_rule_set(Round(tournament=tournament, rule_set=round_["rule_set"])).rules
        for round_id, round_ in rounds.items()
    }
    tables: dict[int, Table] = {}
    seats_of: dict[int, list[Seat]] = defaultdict(list)
    for table_id, round_id, number, first_dealer, flags, position, entry_id in (
        Table.objects.filter(round__tournament=tournament)
        .order_by("round__number", "number", "seats__position")
        .values_list(
            "pk",
            "round_id",
            "number",
            "first_dealer_position",
            "flags",
            "seats__position",
            "seats__entry_id",
        )
    ):
        tables.setdefault(
            table_id,
            Table(
                pk=table_id,
                round_id=round_id,
                number=number,
                first_dealer_position=first_dealer,
                flags=flags,
            ),
        )
        if entry_id is not None:
            seats_of[table_id].append(Seat(table_id=table_id, position=position, entry_id=entry_id))
    results_of: dict[int, list[DealResult]] = defaultdict(list)
    for result in (
        DealResult.objects.filter(table__round__tournament=tournament)
        .select_related("entered_by")
        .order_by("table_id", "position", "version")
    ):
        results_of[result.table_id].append(result)
    confirmations: dict[int, dict[str, Any]] = {}
    seat_results_of: dict[int, dict[int, tuple[int, int, int]]] = defaultdict(dict)
    for (
        table_id,
        confirmed_at,
        user,
        by_entry,
        time_called,
        entry_id,
        game_points,
        twelfths,
        place,
    ) in TableResult.objects.filter(table__round__tournament=tournament).values_list(
        "table_id",
        "confirmed_at",
        "confirmed_by__username",
        "confirmed_by_entry_id",
        "time_called",
        "seats__entry_id",
        "seats__game_points",
        "seats__place_points_twelfths",
        "seats__place",
    ):
        confirmations[table_id] = {
            "confirmed_at": _value(confirmed_at),
            "confirmed_by": user,
            "confirmed_by_entry": by_entry,
            "time_called": time_called,
        }
        if entry_id is not None:
            seat_results_of[table_id][entry_id] = (game_points, twelfths, place)
    audit = [
        {
            "action": action,
            "at": _value(at),
            "user": user,
            "table": {"round": round_number, "table": table_number}
            if table_number is not None
            else None,
            "detail": detail,
        }
        for action, at, user, round_number, table_number, detail in (
            tournament.audit_entries.order_by("at", "pk").values_list(
                "action", "at", "user__username", "table__round__number", "table__number", "detail"
            )
        )
    ]
    roles: dict[str, list[str]] = {relation.name: [] for relation in user_relations(Tournament)}
    table_roles: dict[int, dict[str, list[str]]] = defaultdict(dict)
    query = _roles_query(tournament)
    for relation, table_id, username in sorted(query if query is not None else (), key=str):
        if table_id is None:
            roles[relation].append(username)
        else:
            table_roles[table_id].setdefault(relation, []).append(username)

    for table in tables.values():
        seats = seats_of[table.pk]
        names = sheet_names(seats, entries)
        confirmation = confirmations.get(table.pk)
        confirmed = confirmation is not None
        results = results_of[table.pk]
        sheet = table_sheet(
            table, seats=seats, results=results, rules=rules_of[table.round_id], closed=confirmed
        )
        seat_results = seat_results_of.get(table.pk, {})
        rounds[table.round_id]["tables"].append(
            {
                "number": table.number,
                "players": [
                    {"entry": seat.entry_id, "name": names[str(seat.entry_id)]} for seat in seats
                ],
                "first_dealer": names[sheet.first_dealer or sheet.players[0]],
                "confirmed": confirmed,
                "confirmed_at": confirmation["confirmed_at"] if confirmation else None,
                "confirmed_by": confirmation["confirmed_by"] if confirmation else None,
                "confirmed_by_entry": confirmation["confirmed_by_entry"] if confirmation else None,
                # Confirmed with fewer deals than planned: the round's time was up.
                "time_called": confirmation["time_called"] if confirmation else False,
                "sheet": sheet_to_json(sheet, names),
                # The confirmed totals, by the sheet's names: what re-scoring the sheet gives.
                "totals": {
                    names[str(seat.entry_id)]: seat_results[seat.entry_id][0] for seat in seats
                }
                if confirmed
                else None,
                "results": [
                    {
                        "entry": seat.entry_id,
                        "game_points": seat_results[seat.entry_id][0],
                        "place_points": _place_points(seat_results[seat.entry_id][1]),
                        "place": seat_results[seat.entry_id][2],
                    }
                    for seat in seats
                ]
                if confirmed
                else None,
                "flags": table.flags,
                "roles": {
                    relation.name: table_roles[table.pk].get(relation.name, [])
                    for relation in user_relations(Table)
                },
                # Every stored version: the sheet above is the newest of each, removed ones out.
                "versions": [_version_json(result) for result in results],
            }
        )

    clubs = {
        entry.player.club.pk: entry.player.club
        for entry in entries.values()
        if entry.player.club is not None
    }
    players = {entry.player.pk: entry.player for entry in entries.values()}
    return {
        "format": ARCHIVE_FORMAT,
        "version": ARCHIVE_VERSION,
        "tournament": {
            field.name: _value(getattr(tournament, field.attname))
            for field in tournament._meta.concrete_fields
            if field.name not in NOT_SETTINGS
        },
        "roles": roles,
        # The rules the next round will be played with (each round has its own: rule_set).
        "rules": rules_to_json(tournament_rule_set(tournament).rules),
        "clubs": [
            {"id": club.pk, "name": club.name, "city": club.city}
            for club in sorted(clubs.values(), key=lambda club: latvian_sort_key(club.name))
        ],
        "players": [
            {
                "id": player.pk,
                "name": player.full_name,
                "club": player.club.name if player.club else None,
                "licence": player.licence_number or None,
            }
            for player in sorted(players.values(), key=lambda player: player.pk)
        ],
        "entries": [
            {
                "id": entry.pk,
                "player": entry.player_id,
                "name": entry.player.full_name,
                "team": entry.team,
                "first_round": entry.first_round,
                "withdrawn_after_round": entry.withdrawn_after_round,
                "fixed_table": entry.fixed_table,
            }
            for entry in entries.values()
        ],
        "rounds": list(rounds.values()),
        "audit": audit,
    }


# --- Import: reading and checking ---------------------------------------------------------------


class ArchiveError(ServiceError):
    """The archive cannot be imported; the message says where and why. Nothing was written."""


def read_archive(raw: bytes) -> dict[str, Any]:
    """The archive document of a file's bytes, or an `ArchiveError` saying what is wrong."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ArchiveError(
            f"the file is not UTF-8 text: byte {error.start} cannot be read"
        ) from None
    if not text.strip():
        raise ArchiveError("the file is empty")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        # A cut-off file fails at its last few characters (a value, a word or a number cut
        # short), or inside a string left open.
        truncated = error.pos >= len(text.rstrip()) - 10 or error.msg.startswith("Unterminated")
        hint = ": the file ends too early (is it complete?)" if truncated else ""
        raise ArchiveError(
            f"the file is not valid JSON: {error.msg} (line {error.lineno}, column "
            f"{error.colno}){hint}"
        ) from None
    except RecursionError:
        raise ArchiveError("the file is not an archive: its JSON is nested too deeply") from None
    except ValueError as error:  # e.g. a number of more than 4300 digits
        raise ArchiveError(f"the file is not an archive: {error}") from None
    if not isinstance(data, dict):
        raise ArchiveError("the file is not a tournament archive: it is not a JSON object")
    return data


def _shown(value: object) -> str:
    """A value for a message, cut short: an archive can hold anything."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (RecursionError, ValueError):
        return type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."


def _is_id(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _get(data: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in data:
        raise ArchiveError(f"{where}: {key} is missing")
    return data[key]


def _object(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ArchiveError(f"{where} must be a JSON object, got {_shown(value)}")
    return value


def _list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise ArchiveError(f"{where} must be a list, got {_shown(value)}")
    return value


def _text(data: Mapping[str, Any], key: str, where: str, *, max_length: int) -> str:
    value = _get(data, key, where)
    if not isinstance(value, str):
        raise ArchiveError(f"{where}: {key} must be a text, got {_shown(value)}")
    if len(value) > max_length:
        raise ArchiveError(f"{where}: {key} is longer than {max_length} characters")
    return value


def _whole(
    data: Mapping[str, Any], key: str, where: str, *, low: int, high: int, null: bool = False
) -> int | None:
    value = _get(data, key, where)
    if value is None and null:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArchiveError(f"{where}: {key} must be a whole number, got {_shown(value)}")
    if not low <= value <= high:
        raise ArchiveError(f"{where}: {key} must be {low}-{high}, got {_shown(value)}")
    return value


def _moment(data: Mapping[str, Any], key: str, where: str) -> datetime.datetime | None:
    value = _get(data, key, where)
    if value is None:
        return None
    try:
        moment = parse_datetime(value) if isinstance(value, str) else None
    except ValueError:  # well formed, but no such day or time (2026-02-30)
        moment = None
    if moment is None:
        raise ArchiveError(f"{where}: {key} must be a date and time, got {_shown(value)}")
    # The export writes every moment with its offset; the database keeps moments in UTC.
    if moment.utcoffset() is None:
        raise ArchiveError(
            f"{where}: {key} must be a date and time with its UTC offset, got {_shown(value)}"
        )
    try:
        moment.astimezone(datetime.UTC)
    except OverflowError:
        raise ArchiveError(
            f"{where}: {key} must be a date and time from year 1 to 9999 in UTC, "
            f"got {_shown(value)}"
        ) from None
    return moment


def _check_bounds(
    where: str, *, deals_per_round: int | None = None, round_time_limit: int | None = None
) -> None:
    """The bounds the settings form keeps (the model's columns hold more)."""
    if deals_per_round is not None and not 1 <= deals_per_round <= MAX_DEALS_PER_ROUND:
        raise ArchiveError(
            f"{where}: deals_per_round must be 1-{MAX_DEALS_PER_ROUND}, got {deals_per_round}"
        )
    if round_time_limit is not None and not 1 <= round_time_limit <= MAX_ROUND_MINUTES:
        raise ArchiveError(
            f"{where}: round_time_limit must be 1-{MAX_ROUND_MINUTES} minutes, got "
            f"{round_time_limit}"
        )


def _clean(instance: models.Model, where: str, *, exclude: Iterable[str] = ()) -> None:
    """The model's own field checks (lengths, choices, ranges), as a message with the place."""
    try:
        instance.full_clean(
            exclude=list(exclude), validate_unique=False, validate_constraints=False
        )
    except ValidationError as error:
        problems = "; ".join(
            f"{name}: {' '.join(messages)}" for name, messages in error.message_dict.items()
        )
        raise ArchiveError(f"{where}: {problems}") from None


SMALL = 32767  # PositiveSmallIntegerField on every database
USERNAME_MAX_LENGTH = 150


def _check_text(value: object, where: str) -> None:
    """Text every database stores: no NUL character, no lone surrogate (from a \\ud800 escape)."""
    if isinstance(value, str):
        if "\x00" in value:
            raise ArchiveError(f"{where}: the text contains a NUL character")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ArchiveError(
                f"{where}: the text is not valid Unicode (a lone surrogate)"
            ) from None
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key, where)
            _check_text(item, f"{where}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_text(item, f"{where}[{index}]")


def _remap_scores(scores: object, key_of: Callable[[str], str]) -> object:
    """{entry id: number} with the entry ids mapped; anything else as it is."""
    if not isinstance(scores, dict):
        return scores
    return {key_of(str(key)): value for key, value in scores.items()}


def _remap_galdins(galdins: object, key_of: Callable[[str], str]) -> object:
    """A stored galdiņš: tricks and points by entry id, and the entry id of who drew the card."""
    if not isinstance(galdins, dict):
        return galdins
    return {
        part: key_of(str(value)) if part == "draw_loser" else _remap_scores(value, key_of)
        for part, value in galdins.items()
    }


def _remap_detail(action: str, detail: dict[str, Any], key_of: Callable[[str], str]) -> dict:
    """An audit entry's detail with the entry ids it names mapped (see the services' `audit`
    calls: a deal's before/after, a confirmed table's totals, an unlocked table's before)."""
    detail = copy.deepcopy(detail)
    if action in DEAL_ACTIONS:
        for side in ("before", "after"):
            deal = detail.get(side)
            if not isinstance(deal, dict):
                continue
            if deal.get("player_id") is not None:
                deal["player_id"] = int(key_of(str(deal["player_id"])))
            if "galdins" in deal:
                deal["galdins"] = _remap_galdins(deal["galdins"], key_of)
    elif action == AuditEntry.Action.TABLE_CONFIRMED:
        detail["totals"] = _remap_scores(detail.get("totals"), key_of)
    elif action == AuditEntry.Action.TABLE_UNLOCKED:
        detail["before"] = _remap_scores(detail.get("before"), key_of)
    return detail


def _remap_mix_plan(plan: dict[str, Any], key_of: Callable[[str], str]) -> dict[str, Any]:
    """The stored mixing plan with its entry ids mapped; its player list sorted again, as the
    seating service compares it (engine.seating sorts ids as text)."""
    if not plan:
        return {}
    return {
        **plan,
        "players": sorted(key_of(player) for player in plan["players"]),
        "rounds": [
            [[key_of(player) for player in table] for table in round_] for round_ in plan["rounds"]
        ],
    }


@dataclass
class _Confirmation:
    confirmed_at: datetime.datetime | None
    confirmed_by: str | None
    confirmed_by_entry: int | None  # the archive's entry id
    results: list[Any]  # engine RoundResults, players by the archive's entry id (text)


@dataclass
class _Table:
    number: int
    first_dealer_position: int
    flags: list[Any]
    seats: list[int]  # the archive's entry ids in seat order
    versions: list[DealResult]  # unsaved; players by the archive's entry ids
    entered_by: list[str | None]  # per version
    via_link: list[bool]  # per version
    entered_at: list[datetime.datetime | None]  # per version
    confirmation: _Confirmation | None
    roles: dict[str, list[str]] = field(default_factory=dict)  # relation: usernames
    time_called: bool = False  # confirmed with fewer deals than planned


@dataclass
class _Round:
    number: int
    status: str
    seating_mode: str
    seed: int | None
    warnings: list[Any]
    generated_at: datetime.datetime | None
    published_at: datetime.datetime | None
    check_ins: list[int]
    stored_rule_set: dict[str, Any]  # Round.rule_set as it is written: empty for a draft
    rule_set: RuleSet  # what its tables are checked against
    clock_started_at: datetime.datetime | None = None
    time_limit: int | None = None
    time_called_at: datetime.datetime | None = None
    tables: list[_Table] = field(default_factory=list)


@dataclass
class _AuditRow:
    action: str
    at: datetime.datetime | None
    user: str | None
    table: tuple[int, int] | None  # (round number, table number)
    detail: dict[str, Any]


@dataclass
class _Plan:
    """A checked archive, ready to be written: rows refer to each other by the archive's ids."""

    tournament: Tournament  # unsaved; mix_plan still by the archive's entry ids
    roles: dict[str, list[str]]  # relation: usernames
    clubs: dict[str, str]  # name: city
    players: dict[int, tuple[str, str | None, str]]  # id: (name, club name, licence or "")
    entries: dict[int, Entry]  # unsaved, player_id the archive's player id
    rounds: list[_Round]
    audit: list[_AuditRow]

    @property
    def usernames(self) -> set[str]:
        names = {name for holders in self.roles.values() for name in holders}
        names.update(row.user for row in self.audit if row.user)
        for round_ in self.rounds:
            for table in round_.tables:
                names.update(name for holders in table.roles.values() for name in holders)
                names.update(name for name in table.entered_by if name)
                if table.confirmation is not None and table.confirmation.confirmed_by:
                    names.add(table.confirmation.confirmed_by)
        return names


def _username(value: object, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value or len(value) > USERNAME_MAX_LENGTH:
        raise ArchiveError(f"{where}: not a username: {_shown(value)}")
    try:
        UnicodeUsernameValidator()(value)
    except ValidationError:
        raise ArchiveError(f"{where}: not a username: {_shown(value)}") from None
    return value


class _Checker:
    """Reads and checks a whole archive without writing anything (the first half of the
    import); `plan()` gives what to write, or raises an `ArchiveError` naming the place."""

    def __init__(self, archive: object, *, slug: str | None) -> None:
        self.archive = _object(archive, "the archive")
        self.slug = slug

    def plan(self) -> _Plan:
        archive = self.archive
        if archive.get("format") != ARCHIVE_FORMAT:
            raise ArchiveError(
                f'not a tournament archive: format must be "{ARCHIVE_FORMAT}", got '
                f"{_shown(archive.get('format'))}"
            )
        self.version = archive.get("version")
        if not _is_id(self.version) or self.version not in READABLE_VERSIONS:
            readable = ", ".join(map(str, READABLE_VERSIONS))
            raise ArchiveError(
                f"archive version {_shown(self.version)} cannot be read here (only {readable})"
            )
        # One quick look at the whole text; the walk that names the place only when needed.
        try:
            clean = b"\\u0000" not in json.dumps(archive, ensure_ascii=False).encode()
        except UnicodeEncodeError:
            clean = False
        if not clean:
            _check_text(archive, "archive")
        tournament = self._tournament(
            _object(_get(archive, "tournament", "the archive"), "tournament")
        )
        self.tournament = tournament
        if _get(archive, "rules", "the archive") != rules_to_json(
            tournament_rule_set(tournament).rules
        ):
            raise ArchiveError("rules: they disagree with the tournament's settings")
        clubs = self._clubs()
        players = self._players(clubs)
        self.entries = self._entries(players)
        rounds = [
            self._round(_object(item, f"round {index}"), index)
            for index, item in enumerate(_list(_get(archive, "rounds", "the archive"), "rounds"), 1)
        ]
        numbers = [round_.number for round_ in rounds]
        if len(set(numbers)) != len(numbers):
            raise ArchiveError("rounds: a round number is used twice")
        self.tables = {
            (round_.number, table.number): table for round_ in rounds for table in round_.tables
        }
        roles = self._roles(self._added_in(2, "roles", {}), Tournament, "roles")
        audit = [
            self._audit(_object(item, f"audit entry {index}"), f"audit entry {index}")
            for index, item in enumerate(_list(self._added_in(2, "audit", []), "audit"), 1)
        ]
        self._check_mix_plan(tournament.mix_plan)
        return _Plan(tournament, roles, clubs, players, self.entries, rounds, audit)

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
        return _get(data, key, where)

    @staticmethod
    def _roles(value: object, model: type[models.Model], where: str) -> dict[str, list[str]]:
        """{relation: usernames} of the model's relations to accounts (see `user_relations`)."""
        known = {relation.name for relation in user_relations(model)}
        roles: dict[str, list[str]] = {}
        for relation, holders in _object(value, where).items():
            if relation not in known:
                raise ArchiveError(f"{where}: {_shown(relation)} is no role that can be stored")
            names = [_username(name, f"{where}: {relation}") for name in _list(holders, where)]
            if None in names or len(set(names)) != len(names):
                raise ArchiveError(f"{where}: {relation} must name different accounts")
            roles[relation] = names
        return roles

    def _entry_key(self, key: str) -> str:
        """An entry id of the archive (as text), checked: the mapping of the check pass."""
        if not (isinstance(key, str) and key.isascii() and key.isdigit() and len(key) < 19):
            raise KeyError(key)
        if int(key) not in self.entries:
            raise KeyError(key)
        return key

    def _check_mix_plan(self, plan: dict[str, Any]) -> None:
        """The stored mixing plan (see tournaments.services._mix_round) names entries: checked
        now, mapped when they are written."""
        if not plan:
            return
        problem = "tournament: mix_plan is not a mixing plan of these entries"
        # A plan made before tables of 4 could be chosen has no table_size (tables of 3).
        if set(plan) - {"table_size"} != {"from_round", "seed", "players", "rounds"}:
            raise ArchiveError(problem)
        if not (_is_id(plan["from_round"]) and _is_id(plan["seed"])):
            raise ArchiveError(problem)
        if plan.get("table_size", 3) not in (3, 4):
            raise ArchiveError(problem)
        if not isinstance(plan["players"], list) or not isinstance(plan["rounds"], list):
            raise ArchiveError(problem)
        for round_ in plan["rounds"]:
            if not isinstance(round_, list) or not all(isinstance(table, list) for table in round_):
                raise ArchiveError(problem)
        try:
            _remap_mix_plan(plan, self._entry_key)
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
                raise ArchiveError(f"tournament: unknown setting {_shown(name)}") from None
            if not model_field.concrete or model_field.is_relation:
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
        _clean(tournament, "tournament")
        if Tournament.objects.filter(slug=tournament.slug).exists():
            raise ArchiveError(
                f'a tournament with the slug "{tournament.slug}" already exists: nothing '
                "imported (import it under another slug with --slug NEW_SLUG)"
            )
        _check_bounds(
            "tournament",
            deals_per_round=tournament.deals_per_round,
            round_time_limit=tournament.round_time_limit,
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
                raise ArchiveError(f"{where} must be a text, got {_shown(value)}")
        elif kind == "BooleanField":
            if not isinstance(value, bool):
                raise ArchiveError(f"{where} must be true or false, got {_shown(value)}")
        elif kind.endswith("IntegerField"):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ArchiveError(f"{where} must be a whole number, got {_shown(value)}")
        elif kind == "DateField":
            try:
                date = parse_date(value) if isinstance(value, str) else None
            except ValueError:  # well formed, but no such day (2026-02-30)
                date = None
            if date is None:
                raise ArchiveError(f"{where} must be a date (YYYY-MM-DD), got {_shown(value)}")
            return date
        return value

    def _clubs(self) -> dict[str, str]:
        clubs: dict[str, str] = {}
        for index, item in enumerate(_list(_get(self.archive, "clubs", "the archive"), "clubs"), 1):
            where = f"club {index}"
            club = _object(item, where)
            name = _text(club, "name", where, max_length=120)
            city = _text(club, "city", where, max_length=120)
            if not name.strip():
                raise ArchiveError(f"{where}: the name is empty")
            if name in clubs:
                raise ArchiveError(f"{where}: club {_shown(name)} is listed twice")
            clubs[name] = city
        return clubs

    def _players(self, clubs: dict[str, str]) -> dict[int, tuple[str, str | None, str]]:
        players: dict[int, tuple[str, str | None, str]] = {}
        licences: set[str] = set()
        items = _list(_get(self.archive, "players", "the archive"), "players")
        for index, item in enumerate(items, 1):
            where = f"player {index}"
            data = _object(item, where)
            player_id = _whole(data, "id", where, low=1, high=2**63 - 1)
            name = _text(data, "name", where, max_length=120)
            if not name.strip():
                raise ArchiveError(f"{where}: the name is empty")
            club = _get(data, "club", where)
            if club is not None and (not isinstance(club, str) or club not in clubs):
                raise ArchiveError(f"{where}: club {_shown(club)} is not among the clubs")
            licence = _get(data, "licence", where) or ""
            if not isinstance(licence, str) or len(licence) > 20:
                raise ArchiveError(f"{where}: licence must be a text of at most 20 characters")
            if licence and licence in licences:
                raise ArchiveError(f"{where}: licence {licence} belongs to two players")
            if player_id in players:
                raise ArchiveError(f"{where}: player id {player_id} is used twice")
            _clean(Player(full_name=name, licence_number=licence), where, exclude=("club",))
            licences.add(licence)
            players[player_id] = (name, club, licence)
        return players

    def _entries(self, players: dict[int, tuple[str, str | None, str]]) -> dict[int, Entry]:
        entries: dict[int, Entry] = {}
        seen_players: set[int] = set()
        items = _list(_get(self.archive, "entries", "the archive"), "entries")
        for index, item in enumerate(items, 1):
            where = f"entry {index}"
            data = _object(item, where)
            entry_id = _whole(data, "id", where, low=1, high=2**63 - 1)
            player_id = _get(data, "player", where)
            if not _is_id(player_id) or player_id not in players:
                raise ArchiveError(f"{where}: player {_shown(player_id)} is not among the players")
            if player_id in seen_players:
                raise ArchiveError(f"{where}: player {player_id} is entered twice")
            if _get(data, "name", where) != players[player_id][0]:
                raise ArchiveError(f"{where}: the name is not the player's name")
            if entry_id in entries:
                raise ArchiveError(f"{where}: entry id {entry_id} is used twice")
            entry = Entry(
                player_id=player_id,
                team=_text(data, "team", where, max_length=80),
                first_round=_whole(data, "first_round", where, low=0, high=SMALL),
                withdrawn_after_round=_whole(
                    data, "withdrawn_after_round", where, low=0, high=SMALL, null=True
                ),
                fixed_table=_whole(data, "fixed_table", where, low=0, high=SMALL, null=True),
            )
            _clean(entry, where, exclude=("tournament", "player"))
            seen_players.add(player_id)
            entries[entry_id] = entry
        return entries

    # -- rounds and tables

    def _round(self, data: dict[str, Any], index: int) -> _Round:
        number = _whole(data, "number", f"round {index}", low=1, high=SMALL)
        where = f"round {number}"
        status = _text(data, "status", where, max_length=10)
        stored = self._round_rule_set(
            _object(self._added_in(3, "rule_set", {}, data, where), f"{where}: rule_set"),
            status,
            where,
        )
        try:
            rule_set = round_rule_set(Round(tournament=self.tournament, rule_set=stored))
        except SheetError as error:
            raise ArchiveError(f"{where}: rule_set: {error}") from None
        round_ = _Round(
            number=number,
            status=status,
            seating_mode=_text(data, "seating_mode", where, max_length=8),
            seed=_whole(data, "seed", where, low=0, high=2**31 - 1, null=True),
            warnings=_list(self._added_in(2, "warnings", [], data, where), f"{where}: warnings"),
            generated_at=_moment(data, "generated_at", where) if self.version > 1 else None,
            published_at=_moment(data, "published_at", where) if self.version > 1 else None,
            check_ins=self._entry_ids(
                self._added_in(2, "check_ins", [], data, where), f"{where}: check_ins"
            ),
            stored_rule_set=stored,
            rule_set=rule_set,
        )
        if self.version >= 3:
            round_.clock_started_at = _moment(data, "clock_started_at", where)
            round_.time_limit = _whole(
                data, "time_limit", where, low=1, high=MAX_ROUND_MINUTES, null=True
            )
            round_.time_called_at = _moment(data, "time_called_at", where)
            if (round_.clock_started_at is None) != (round_.time_limit is None) or (
                round_.time_called_at is not None and round_.clock_started_at is None
            ):
                raise ArchiveError(
                    f"{where}: a round clock needs its start and its limit, and time is called "
                    "only on a started clock"
                )
        _clean(
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
        seated: set[int] = set()
        for table_index, item in enumerate(
            _list(_get(data, "tables", where), f"{where}: tables"), 1
        ):
            table = self._table(_object(item, f"{where}, table {table_index}"), round_, table_index)
            if seated & set(table.seats):
                raise ArchiveError(f"{where}, table {table.number}: a player has two seats")
            seated.update(table.seats)
            round_.tables.append(table)
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
                raise ArchiveError(f"{where}: unknown option {_shown(name)}")
            model_field = Tournament._meta.get_field(name)
            value = self._setting(model_field, value, where)
            try:
                model_field.clean(value, None)
            except ValidationError as error:
                raise ArchiveError(f"{where}: {name}: {' '.join(error.messages)}") from None
            checked[name] = value
        _check_bounds(where, deals_per_round=checked.get("deals_per_round"))
        if status == RoundStatus.DRAFT:
            return checked
        return {**rule_set_options(self.tournament), **checked}

    def _entry_ids(self, value: object, where: str) -> list[int]:
        ids = _list(value, where)
        for entry_id in ids:
            if not _is_id(entry_id) or entry_id not in self.entries:
                raise ArchiveError(f"{where}: {_shown(entry_id)} is not an entry")
        if len(set(ids)) != len(ids):
            raise ArchiveError(f"{where}: an entry is listed twice")
        return ids

    def _table(self, data: dict[str, Any], round_: _Round, index: int) -> _Table:
        number = _whole(data, "number", f"round {round_.number}, table {index}", low=1, high=SMALL)
        where = f"round {round_.number}, table {number}"
        names: dict[str, int] = {}  # the sheet's name: the archive's entry id
        for seat_index, item in enumerate(_list(_get(data, "players", where), f"{where}: players")):
            seat = _object(item, f"{where}: player {seat_index + 1}")
            entry_id = _get(seat, "entry", where)
            if not _is_id(entry_id) or entry_id not in self.entries:
                raise ArchiveError(f"{where}: {_shown(entry_id)} is not an entry")
            name = _text(seat, "name", where, max_length=200)
            if name in names or entry_id in names.values():
                raise ArchiveError(f"{where}: {_shown(name)} is seated twice")
            names[name] = entry_id
        try:
            sheet = sheet_from_json(_get(data, "sheet", where))
            scored = score_sheet(sheet)
        except SheetError as error:
            raise ArchiveError(f"{where}: the sheet does not score: {error}") from None
        if list(sheet.players) != list(names):
            raise ArchiveError(f"{where}: the sheet's players are not the table's players")
        first_dealer = sheet.first_dealer or sheet.players[0]
        if _get(data, "first_dealer", where) != first_dealer:
            raise ArchiveError(f"{where}: first_dealer is not the sheet's first dealer")
        # Compared as the contract writes rules: what the sheet is scored with.
        if rules_to_json(sheet.rules) != rules_to_json(round_.rule_set.rules):
            raise ArchiveError(
                f"{where}: the sheet's rules are not the rules round {round_.number} is played with"
            )
        confirmed = _get(data, "confirmed", where)
        if not isinstance(confirmed, bool) or sheet.closed != confirmed:
            raise ArchiveError(f"{where}: a confirmed table's sheet is closed, an open one's not")
        time_called = self._added_in(3, "time_called", False, data, where)
        if not isinstance(time_called, bool):
            raise ArchiveError(f"{where}: time_called must be true or false")
        if time_called and not confirmed:
            raise ArchiveError(f"{where}: only a confirmed table has time_called")
        if time_called and round_.clock_started_at is None:
            raise ArchiveError(f"{where}: time_called, but the round had no clock")

        def key(name: str) -> str:
            return str(names[name])

        entries = [_renamed(entry, key) for entry in sheet.entries]
        deals_per_round = round_.rule_set.deals_per_round
        if scored.deals_played > deals_per_round:
            raise ArchiveError(
                f"{where}: {scored.deals_played} deals, more than the {deals_per_round} of "
                f"round {round_.number}"
            )
        if entries and round_.status not in (*OPEN_STATUSES, RoundStatus.CLOSED):
            raise ArchiveError(f"{where}: round {round_.number} is a draft, but has deals")
        if round_.status == RoundStatus.CLOSED and not confirmed:
            raise ArchiveError(f"{where}: round {round_.number} is closed, the table not confirmed")
        table = _Table(
            number=number,
            first_dealer_position=sheet.players.index(first_dealer) + 1,
            flags=_list(self._added_in(2, "flags", [], data, where), f"{where}: flags"),
            roles=self._roles(
                self._added_in(2, "roles", {}, data, where), Table, f"{where}: roles"
            ),
            seats=list(names.values()),
            versions=[],
            entered_by=[],
            via_link=[],
            entered_at=[],
            confirmation=None,
            time_called=time_called,
        )
        self._versions(data, table, entries, where)
        # The first entry puts a published round in play: a published round has no deal
        # versions (regenerating its seating deletes its tables, which deals would keep).
        if table.versions and round_.status == RoundStatus.PUBLISHED:
            raise ArchiveError(
                f"{where}: round {round_.number} is published, but has deals (the first entry "
                "puts a round in play)"
            )
        if confirmed:
            table.confirmation = self._confirmation(data, table, scored.totals, key, round_, where)
            # Time called: the deals played, at least one; otherwise every deal of the round.
            if scored.deals_played != deals_per_round and not (
                time_called and scored.deals_played >= 1
            ):
                raise ArchiveError(
                    f"{where}: confirmed with {scored.deals_played} of {deals_per_round} deals"
                    + ("" if time_called else " and time not called")
                )
        elif _get(data, "totals", where) is not None or _get(data, "results", where) is not None:
            raise ArchiveError(f"{where}: an unconfirmed table has totals")
        return table

    def _versions(
        self, data: dict[str, Any], table: _Table, entries: list[SheetEntry], where: str
    ) -> None:
        """Every stored version of the sheet's entries; the newest of each must be the sheet."""
        seated = {str(entry_id) for entry_id in table.seats}
        if self.version == 1:  # only the sheet: each entry as its first version
            for position, entry in enumerate(entries, 1):
                table.versions.append(
                    DealResult(position=position, version=1, **result_fields(entry))
                )
                table.entered_by.append(None)
                table.via_link.append(False)
                table.entered_at.append(None)
            return
        items = _list(_get(data, "versions", where), f"{where}: versions")
        last_version: dict[int, int] = {}
        for item in items:
            version = self._version(_object(item, f"{where}: a version"), seated, where)
            if version.version != last_version.get(version.position, 0) + 1:
                raise ArchiveError(
                    f"{where}: entry {version.position} version {version.version} is out of order"
                )
            last_version[version.position] = version.version
            table.versions.append(version)
            table.entered_by.append(_username(item.get("entered_by"), where))
            via = item.get("via")
            if via not in ("link", "account"):
                raise ArchiveError(f'{where}: via must be "link" or "account", got {_shown(via)}')
            table.via_link.append(via == "link")
            table.entered_at.append(_moment(item, "entered_at", where))
        current = [sheet_entry(result) for result in current_results(table.versions)]
        if current != entries:
            raise ArchiveError(f"{where}: the newest deal versions are not the sheet")

    def _version(self, data: dict[str, Any], seated: set[str], where: str) -> DealResult:
        position = _whole(data, "position", where, low=1, high=SMALL)
        where = f"{where}, entry {position}"
        kind = _get(data, "kind", where)
        if kind not in EntryKind.values:
            raise ArchiveError(f"{where}: unknown kind {_shown(kind)}")
        player = _get(data, "entry", where)
        if player is not None and (not _is_id(player) or str(player) not in seated):
            raise ArchiveError(f"{where}: {_shown(player)} is not seated at the table")
        if (player is None) != (kind not in (EntryKind.PLAY, EntryKind.PENALTY)):
            raise ArchiveError(
                f"{where}: a {kind} entry {'has no' if player is None else 'has a'} player"
            )
        game = _text(data, "game", where, max_length=10)
        if (kind == EntryKind.PLAY) != bool(game) or (
            game and game not in (Game.LIELAIS, Game.ZOLE, Game.MAZA_ZOLE)
        ):
            raise ArchiveError(f"{where}: game {_shown(game)} does not fit a {kind} entry")
        result = DealResult(
            position=position,
            version=_whole(data, "version", where, low=1, high=SMALL),
            kind=kind,
            game=game,
            player_id=player,
            points=_whole(data, "points", where, low=0, high=TOTAL_POINTS, null=True),
            tricks=_whole(data, "tricks", where, low=0, high=TRICKS_PER_DEAL, null=True),
            galdins=_get(data, "galdins", where),
            reason=_text(data, "reason", where, max_length=200),
        )
        if kind == EntryKind.GALDINS:
            self._check_galdins(result.galdins, seated, where)
        elif result.galdins is not None:
            raise ArchiveError(f"{where}: only a galdiņš has galdins")
        if kind == EntryKind.PLAY and result.tricks is None:
            raise ArchiveError(f"{where}: tricks is missing")
        return result

    @staticmethod
    def _check_galdins(galdins: object, seated: set[str], where: str) -> None:
        if not isinstance(galdins, dict) or set(galdins) - {"draw_loser"} != {"tricks", "points"}:
            raise ArchiveError(f"{where}: galdins must have tricks and points")
        if "draw_loser" in galdins and galdins["draw_loser"] not in seated:
            raise ArchiveError(f"{where}: galdins draw_loser must be a player at the table")
        for part, high in (("tricks", TRICKS_PER_DEAL), ("points", TOTAL_POINTS)):
            scores = galdins[part]
            if not isinstance(scores, dict) or not set(scores) <= seated:
                raise ArchiveError(f"{where}: galdins {part} must be by players at the table")
            for value in scores.values():
                if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
                    raise ArchiveError(f"{where}: galdins {part} must be 0-{high}")

    def _confirmation(
        self,
        data: dict[str, Any],
        table: _Table,
        totals: dict[str, int],
        key: Callable[[str], str],
        round_: _Round,
        where: str,
    ) -> _Confirmation:
        stored = _get(data, "totals", where)
        if stored != totals:
            raise ArchiveError(
                f"{where}: the sheet re-scores to {_shown(totals)}, but the archive's totals "
                f"are {_shown(stored)}"
            )
        by_entry = {key(name): points for name, points in totals.items()}
        engine_results = round_results(round_.number, by_entry, round_.rule_set.place_scheme)
        expected = {
            int(row.player): (row.game_points, row.place_points, row.place)
            for row in engine_results
        }
        results = _list(_get(data, "results", where), f"{where}: results")
        given: dict[int, tuple[Any, Any, Any]] = {}
        for item in results:
            row = _object(item, f"{where}: a result")
            place_points = _get(row, "place_points", where)
            try:
                fraction = Fraction(place_points) if isinstance(place_points, str) else None
            except (ValueError, ZeroDivisionError):
                fraction = None
            entry_id = _get(row, "entry", where)
            if not _is_id(entry_id):
                raise ArchiveError(f"{where}: a result's entry is {_shown(entry_id)}")
            given[entry_id] = (
                _get(row, "game_points", where),
                fraction,
                _get(row, "place", where),
            )
        if given != expected:
            raise ArchiveError(f"{where}: the results are not the engine's results of the totals")
        by_entry_id = _get(data, "confirmed_by_entry", where) if self.version > 1 else None
        if by_entry_id is not None and (not _is_id(by_entry_id) or by_entry_id not in table.seats):
            raise ArchiveError(f"{where}: confirmed_by_entry is not a player at the table")
        return _Confirmation(
            confirmed_at=_moment(data, "confirmed_at", where),
            confirmed_by=_username(data.get("confirmed_by"), where),
            confirmed_by_entry=by_entry_id,
            results=engine_results,
        )

    def _audit(self, data: dict[str, Any], where: str) -> _AuditRow:
        action = _text(data, "action", where, max_length=40)
        place = _get(data, "table", where)
        table: tuple[int, int] | None = None
        if place is not None:
            place = _object(place, f"{where}: table")
            table = (_get(place, "round", where), _get(place, "table", where))
            if not (_is_id(table[0]) and _is_id(table[1])) or table not in self.tables:
                raise ArchiveError(f"{where}: round {table[0]} has no table {table[1]}")
        detail = _object(_get(data, "detail", where), f"{where}: detail")
        try:
            _remap_detail(action, detail, self._entry_key)
        except (KeyError, ValueError):
            raise ArchiveError(f"{where}: the detail names a player who is not entered") from None
        return _AuditRow(
            action=action,
            at=_moment(data, "at", where),
            user=_username(data.get("user"), where),
            table=table,
            detail=detail,
        )


def _renamed(entry: SheetEntry, key: Callable[[str], str]) -> SheetEntry:
    """An engine entry with its players renamed (the sheet's names to entry ids)."""
    if isinstance(entry, PenaltyPule):
        return PenaltyPule(key(entry.player))
    if isinstance(entry, Galdins):
        return Galdins(
            tricks={key(name): value for name, value in entry.tricks.items()},
            points={key(name): value for name, value in entry.points.items()},
        )
    if isinstance(entry, Pass):
        return Pass()
    return Play(entry.game, key(entry.declarer), tricks=entry.tricks, points=entry.points)


# --- Import: writing ----------------------------------------------------------------------------


def _accounts(names: set[str], on_account_created: Callable[[str], None] | None) -> dict[str, Any]:
    """The user accounts by username; a name with no account here gets an inactive one without
    a password, so who did what is kept (an administrator activates it if it is needed)."""
    user_model = get_user_model()
    accounts = {user.username: user for user in user_model.objects.filter(username__in=names)}
    for name in sorted(names - set(accounts)):
        user = user_model(username=name, is_active=False)
        user.set_unusable_password()
        user.save()
        accounts[name] = user
        if on_account_created is not None:
            on_account_created(name)
    return accounts


def _with_timestamps(rows: list[models.Model], field_name: str, moments: list[Any]) -> None:
    """Set an auto_now_add field to the archive's moments (bulk_create stamps "now")."""
    changed = [row for row, moment in zip(rows, moments, strict=True) if moment is not None]
    for row, moment in zip(rows, moments, strict=True):
        if moment is not None:
            setattr(row, field_name, moment)
    if changed:
        type(changed[0]).objects.bulk_update(changed, [field_name], batch_size=BATCH_SIZE)


def _write(plan: _Plan, on_account_created: Callable[[str], None] | None) -> Tournament:
    accounts = _accounts(plan.usernames, on_account_created)
    tournament = plan.tournament
    mix_plan = tournament.mix_plan
    tournament.mix_plan = {}
    tournament.save()
    for relation, holders in plan.roles.items():
        getattr(tournament, relation).set([accounts[name] for name in holders])

    clubs = {
        name: Club.objects.get_or_create(name=name, defaults={"city": city})[0]
        for name, city in plan.clubs.items()
    }
    licences = [licence for _name, _club, licence in plan.players.values() if licence]
    known = {
        player.licence_number: player
        for player in Player.objects.filter(licence_number__in=licences)
    }
    new_players = {
        player_id: Player(
            full_name=name, club=clubs.get(club) if club else None, licence_number=licence
        )
        for player_id, (name, club, licence) in plan.players.items()
        if licence not in known
    }
    Player.objects.bulk_create(new_players.values(), batch_size=BATCH_SIZE)
    player_of = {
        player_id: new_players[player_id] if player_id in new_players else known[licence]
        for player_id, (_name, _club, licence) in plan.players.items()
    }

    for entry in plan.entries.values():
        entry.tournament = tournament
        entry.player = player_of[entry.player_id]
    Entry.objects.bulk_create(plan.entries.values(), batch_size=BATCH_SIZE)
    entry_of = plan.entries  # the archive's entry id: the entry, now saved

    def key_of(old: str) -> str:
        return str(entry_of[int(old)].pk)

    if mix_plan:
        tournament.mix_plan = _remap_mix_plan(mix_plan, key_of)
        tournament.save(update_fields=["mix_plan"])

    rounds = Round.objects.bulk_create(
        Round(
            tournament=tournament,
            number=round_.number,
            status=round_.status,
            seating_mode=round_.seating_mode,
            seed=round_.seed,
            warnings=round_.warnings,
            generated_at=round_.generated_at,
            published_at=round_.published_at,
            rule_set=round_.stored_rule_set,
            clock_started_at=round_.clock_started_at,
            time_limit=round_.time_limit,
            time_called_at=round_.time_called_at,
        )
        for round_ in plan.rounds
    )
    CheckIn.objects.bulk_create(
        (
            CheckIn(round=saved, entry=entry_of[entry_id])
            for saved, round_ in zip(rounds, plan.rounds, strict=True)
            for entry_id in round_.check_ins
        ),
        batch_size=BATCH_SIZE,
    )
    placed = [
        (saved, round_, table)
        for saved, round_ in zip(rounds, plan.rounds, strict=True)
        for table in round_.tables
    ]
    tables = Table.objects.bulk_create(
        (
            Table(
                round=saved,
                number=table.number,
                first_dealer_position=table.first_dealer_position,
                flags=table.flags,
            )
            for saved, _round, table in placed
        ),
        batch_size=BATCH_SIZE,
    )
    Seat.objects.bulk_create(
        (
            Seat(table=saved, position=position, entry=entry_of[entry_id])
            for saved, (_round_row, _round, table) in zip(tables, placed, strict=True)
            for position, entry_id in enumerate(table.seats, 1)
        ),
        batch_size=BATCH_SIZE,
    )
    for relation in user_relations(Table):
        through = relation.remote_field.through
        through.objects.bulk_create(
            (
                through(
                    **{
                        f"{relation.m2m_field_name()}_id": saved.pk,
                        f"{relation.m2m_reverse_field_name()}_id": accounts[name].pk,
                    }
                )
                for saved, (_round_row, _round, table) in zip(tables, placed, strict=True)
                for name in table.roles.get(relation.name, ())
            ),
            batch_size=BATCH_SIZE,
        )
    # Every table of a public seating has an entry link: new ones, the old ones stay behind.
    tokens = {
        token.table_id: token
        for token in TableToken.objects.bulk_create(
            (
                TableToken(table=saved, round_id=saved.round_id)
                for saved, (_round_row, round_, _table) in zip(tables, placed, strict=True)
                if round_.status != RoundStatus.DRAFT
            ),
            batch_size=BATCH_SIZE,
        )
    }

    results: list[DealResult] = []
    moments: list[datetime.datetime | None] = []
    for saved, (_round_row, _round, table) in zip(tables, placed, strict=True):
        for result, by, via_link, moment in zip(
            table.versions, table.entered_by, table.via_link, table.entered_at, strict=True
        ):
            result.table = saved
            if result.player_id is not None:
                result.player_id = entry_of[int(result.player_id)].pk
            if result.galdins is not None:
                result.galdins = _remap_galdins(result.galdins, key_of)
            result.client_key = IMPORT_CLIENT_KEY.format(
                position=result.position, version=result.version
            )
            result.entered_by = accounts[by] if by else None
            result.entered_via_token = tokens.get(saved.pk) if via_link else None
            results.append(result)
            moments.append(moment)
    DealResult.objects.bulk_create(results, batch_size=BATCH_SIZE)
    _with_timestamps(results, "created_at", moments)

    confirmed = [
        (saved, round_, table)
        for saved, (_round_row, round_, table) in zip(tables, placed, strict=True)
        if table.confirmation is not None
    ]
    table_results = TableResult.objects.bulk_create(
        (
            TableResult(
                table=saved,
                confirmed_by=accounts[table.confirmation.confirmed_by]
                if table.confirmation.confirmed_by
                else None,
                confirmed_by_entry=entry_of[table.confirmation.confirmed_by_entry]
                if table.confirmation.confirmed_by_entry is not None
                else None,
                last_position=len(current_results(table.versions)),
                last_version_id=max((result.pk for result in table.versions), default=0),
                time_called=table.time_called,
            )
            for saved, _round, table in confirmed
        ),
        batch_size=BATCH_SIZE,
    )
    _with_timestamps(
        table_results,
        "confirmed_at",
        [table.confirmation.confirmed_at for _saved, _round, table in confirmed],
    )
    SeatResult.objects.bulk_create(
        (
            SeatResult(
                table_result=table_result,
                entry=entry_of[int(row.player)],
                round_number=round_.number,
                game_points=row.game_points,
                place_points_twelfths=int(row.place_points * TWELFTHS),
                place=row.place,
            )
            for table_result, (_saved, round_, table) in zip(table_results, confirmed, strict=True)
            for row in table.confirmation.results
        ),
        batch_size=BATCH_SIZE,
    )

    table_of = {
        (round_.number, table.number): saved
        for saved, (_round_row, round_, table) in zip(tables, placed, strict=True)
    }
    audit = AuditEntry.objects.bulk_create(
        (
            AuditEntry(
                tournament=tournament,
                table=table_of[row.table] if row.table is not None else None,
                action=row.action,
                user=accounts[row.user] if row.user else None,
                detail=_remap_detail(row.action, row.detail, key_of),
            )
            for row in plan.audit
        ),
        batch_size=BATCH_SIZE,
    )
    _with_timestamps(audit, "at", [row.at for row in plan.audit])
    # The import itself is logged too (now): the links printed before on the score sheets'
    # QR codes are not in the archive, so the sheets of the rounds in play must be reprinted.
    AuditEntry.objects.create(
        tournament=tournament,
        action=AuditEntry.Action.TOURNAMENT_IMPORTED,
        detail={"history_entries": len(plan.audit), "new_table_links": len(tokens)},
    )
    return tournament


def tournament_import(
    archive: dict[str, Any],
    *,
    slug: str | None = None,
    on_account_created: Callable[[str], None] | None = None,
) -> Tournament:
    """Write the tournament of an archive (`tournament_archive`'s document), under `slug` if
    given: its clubs (found by name, or created), players (found by licence number when they
    have one, or created), settings, entries, rounds, check-ins, tables and seats, every deal
    version, confirmations and results, chief referees and audit log.

    The whole archive is checked first, every sheet re-scored by the engine and compared with
    the confirmed totals and results written beside it; then everything is written in one
    transaction. Any problem raises `ArchiveError` and nothing is written."""
    try:
        plan = _Checker(archive, slug=slug).plan()
    except RecursionError:
        raise ArchiveError("not a tournament archive: its JSON is nested too deeply") from None
    try:
        with transaction.atomic():
            return _write(plan, on_account_created)
    except DatabaseError as error:
        # A slug taken meanwhile, or a licence number of another player: all rolled back.
        raise ArchiveError(f"nothing imported: the database refused a row ({error})") from None
