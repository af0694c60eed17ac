"""The archive read: `read_archive` parses the file; the small checks every field goes through
(each refusal an `ArchiveError` that names the place in the archive); the players' keys renamed."""

from __future__ import annotations

import copy
import datetime
import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal, TypeGuard, overload

from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.dateparse import parse_datetime

from archive.format import DEAL_ACTIONS
from engine import Galdins, Pass, PenaltyPule, Play
from engine.deals import SheetLine
from engine.names import clean_name, mixed_word
from tournaments.bounds import MAX_DEALS_PER_ROUND, MAX_ROUND_MINUTES
from tournaments.models import AuditRecord
from tournaments.services import ServiceError


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


def shown(value: object) -> str:
    """A value for a message, cut short: an archive can hold anything."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (RecursionError, ValueError):
        return type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."


def is_id(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def required(data: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in data:
        raise ArchiveError(f"{where}: {key} is missing")
    return data[key]


def as_object(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ArchiveError(f"{where} must be a JSON object, got {shown(value)}")
    return value


def as_list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise ArchiveError(f"{where} must be a list, got {shown(value)}")
    return value


def text_field(data: Mapping[str, Any], key: str, where: str, *, max_length: int) -> str:
    value = required(data, key, where)
    if not isinstance(value, str):
        raise ArchiveError(f"{where}: {key} must be a text, got {shown(value)}")
    if len(value) > max_length:
        raise ArchiveError(f"{where}: {key} is longer than {max_length} characters")
    return value


def cleaned(value: object) -> object:
    """A text as names are stored (`clean_name`: nothing invisible, one space between words)."""
    return clean_name(value) if isinstance(value, str) else value


def name_field(data: Mapping[str, Any], key: str, where: str, *, max_length: int) -> str:
    """A name, a club or a team as every door takes it: cleaned, a word of two alphabets (a
    look-alike letter of another one) refused."""
    value = clean_name(text_field(data, key, where, max_length=max_length))
    if (mixed := mixed_word(value)) is not None:
        alphabets = " and ".join(mixed.alphabets)
        raise ArchiveError(f"{where}: {key}: the word “{mixed.word}” mixes {alphabets} letters")
    return value


@overload
def whole_field(
    data: Mapping[str, Any],
    key: str,
    where: str,
    *,
    low: int,
    high: int,
    null: Literal[False] = False,
) -> int: ...


@overload
def whole_field(
    data: Mapping[str, Any], key: str, where: str, *, low: int, high: int, null: bool
) -> int | None: ...


def whole_field(
    data: Mapping[str, Any], key: str, where: str, *, low: int, high: int, null: bool = False
) -> int | None:
    value = required(data, key, where)
    if value is None and null:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArchiveError(f"{where}: {key} must be a whole number, got {shown(value)}")
    if not low <= value <= high:
        raise ArchiveError(f"{where}: {key} must be {low}-{high}, got {shown(value)}")
    return value


def moment_field(data: Mapping[str, Any], key: str, where: str) -> datetime.datetime | None:
    value = required(data, key, where)
    if value is None:
        return None
    try:
        moment = parse_datetime(value) if isinstance(value, str) else None
    except ValueError:  # well formed, but no such day or time (2026-02-30)
        moment = None
    if moment is None:
        raise ArchiveError(f"{where}: {key} must be a date and time, got {shown(value)}")
    # The export writes every moment with its offset; the database keeps moments in UTC.
    if moment.utcoffset() is None:
        raise ArchiveError(
            f"{where}: {key} must be a date and time with its UTC offset, got {shown(value)}"
        )
    try:
        moment.astimezone(datetime.UTC)
    except OverflowError:
        raise ArchiveError(
            f"{where}: {key} must be a date and time from year 1 to 9999 in UTC, got {shown(value)}"
        ) from None
    return moment


def check_bounds(
    where: str,
    *,
    deals_per_round: int | None = None,
    round_time_limit: int | None = None,
    **deal_counts: int | None,
) -> None:
    """The bounds the settings form keeps (the model's columns hold more). `deal_counts`: the
    deals at a table size (deals_at_three=...), bound as the deals per round are."""
    for name, deals in {"deals_per_round": deals_per_round, **deal_counts}.items():
        if deals is not None and not 1 <= deals <= MAX_DEALS_PER_ROUND:
            raise ArchiveError(f"{where}: {name} must be 1-{MAX_DEALS_PER_ROUND}, got {deals}")
    if round_time_limit is not None and not 1 <= round_time_limit <= MAX_ROUND_MINUTES:
        raise ArchiveError(
            f"{where}: round_time_limit must be 1-{MAX_ROUND_MINUTES} minutes, got "
            f"{round_time_limit}"
        )


def clean_row(instance: models.Model, where: str, *, exclude: Iterable[str] = ()) -> None:
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


def check_text(value: object, where: str) -> None:
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
            check_text(key, where)
            check_text(item, f"{where}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            check_text(item, f"{where}[{index}]")


def remap_scores(scores: object, key_of: Callable[[str], str]) -> object:
    """{entry id: number} with the entry ids mapped; anything else as it is."""
    if not isinstance(scores, dict):
        return scores
    return {key_of(str(key)): value for key, value in scores.items()}


def remap_galdins(galdins: object, key_of: Callable[[str], str]) -> object:
    """A stored galdiņš: tricks and points by entry id, and the entry id of who drew the card."""
    if not isinstance(galdins, dict):
        return galdins
    return {
        part: key_of(str(value)) if part == "draw_loser" else remap_scores(value, key_of)
        for part, value in galdins.items()
    }


def remap_detail(action: str, detail: dict[str, Any], key_of: Callable[[str], str]) -> dict:
    """An audit record's detail with the entry ids it names mapped (see the services' `audit`
    calls: a deal's before/after, a confirmed table's totals, an unlocked table's before, a
    player's own check-in)."""
    detail = copy.deepcopy(detail)
    if action in DEAL_ACTIONS:
        for side in ("before", "after"):
            deal = detail.get(side)
            if not isinstance(deal, dict):
                continue
            if deal.get("player_id") is not None:
                deal["player_id"] = int(key_of(str(deal["player_id"])))
            if "galdins" in deal:
                deal["galdins"] = remap_galdins(deal["galdins"], key_of)
    elif action == AuditRecord.Action.TABLE_CONFIRMED:
        detail["totals"] = remap_scores(detail.get("totals"), key_of)
    elif action == AuditRecord.Action.TABLE_UNLOCKED:
        detail["before"] = remap_scores(detail.get("before"), key_of)
    elif action == AuditRecord.Action.SELF_CHECK_IN and detail.get("registration") is not None:
        detail["registration"] = int(key_of(str(detail["registration"])))
    return detail


def remap_mix_plan(plan: dict[str, Any], key_of: Callable[[str], str]) -> dict[str, Any]:
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


def username_field(value: object, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value or len(value) > USERNAME_MAX_LENGTH:
        raise ArchiveError(f"{where}: not a username: {shown(value)}")
    try:
        UnicodeUsernameValidator()(value)
    except ValidationError:
        raise ArchiveError(f"{where}: not a username: {shown(value)}") from None
    return value


def renamed_entry(entry: SheetLine, key: Callable[[str], str]) -> SheetLine:
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
