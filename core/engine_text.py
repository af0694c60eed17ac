"""The engine's messages in the reader's language.

The engine (pure Python, no Django) raises `SheetError` and writes seating flags in English, each
with a *template* (marked with `engine.errors.gettext_noop`, so makemessages extracts it) and its
*params* (see `engine.errors`). Pages show them here: ``gettext(template) % params`` in the active
language. What is stored stays English (`Table.flags[*]["detail"]`, `Round.warnings`, audit
entries); it is translated when shown. A flag stored before templates existed shows its detail.

Field names are never params (each field has its own template in the engine), so there is nothing
else to translate; params that name a player (`engine.errors.PLAYER_PARAMS`) can show the player's
name instead of the registration id the engine was given (`names`).

`display_name_key` sorts names for display in the active language (`engine.names.name_sort_key`).
The official order of tied standings stays Latvian (`engine.standings`): a rank must not depend on
who looks at it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import get_language, gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from engine import PenaltyPule
from engine.errors import PLAYER_PARAMS, SheetError
from engine.names import NameKey, name_sort_key

# The game of an entry in words, by the engine's game (DealResult.game) or entry kind.
GAME_WORDS: dict[str, Promise] = {
    "lielais": _("lielais"),
    "zole": _("zole"),
    "maza_zole": _("mazā zole"),
    "pass": _("everyone passed"),
    "galdins": _("galdiņš"),
    "penalty": _("penalty pule"),
}

# The flags that make a table worth a second look, besides a fixed table not honoured (the same
# rule as the warnings stored on the round when its seating is generated).
WARNING_CODES = frozenset({"repeat_meeting", "same_club"})


def _translated(template: str, params: Mapping[str, Any]) -> str:
    """`template` in the active language with `params` (a list param: parts joined by "; ")."""
    values = {
        key: "; ".join(_translated(part["template"], part["params"]) for part in value)
        if isinstance(value, list)
        else value
        for key, value in params.items()
    }
    try:
        return gettext(template) % values
    except (KeyError, TypeError, ValueError):
        # A translation with a placeholder the params do not give: the English text still says it.
        return template % values


def _player_name(value: object, names: Mapping[str, str]) -> object:
    """The name of a player given by id: as typed (17) or as shown in JSON ("17")."""
    if isinstance(value, str):
        if value in names:
            return names[value]
        try:
            typed = json.loads(value)
        except ValueError:
            return value
        if isinstance(typed, str) and typed in names:
            return names[typed]
    return value


def error_text(
    error: SheetError,
    *,
    names: Mapping[str, str] | None = None,
    entries: Sequence[object] | None = None,
) -> str:
    """The error as the reader should see it: translated, with the deal it is at.

    `names` maps the player ids the engine was given (registration ids) to the names to show.
    `entries`: the sheet's entries the engine scored. The engine places an error at an entry
    (every entry counts, penalty pules too, as the command line numbers them); given the
    entries, the error is placed as the referee's sheet numbers them: a deal by its deal
    number, a penalty pule by the deal it follows."""
    params = dict(error.params)
    if names:
        for key in PLAYER_PARAMS & params.keys():
            params[key] = _player_name(params[key], names)
    message = _translated(error.template, params) if params else gettext(error.template)
    if error.deal is None:
        return message
    if entries is None or not 1 <= error.deal <= len(entries):
        return _translated(
            gettext_noop("deal %(deal)s: %(message)s"), {"deal": error.deal, "message": message}
        )
    deals_before = sum(1 for entry in entries[: error.deal - 1] if not _is_penalty(entry))
    if not _is_penalty(entries[error.deal - 1]):
        return _translated(
            gettext_noop("deal %(deal)s: %(message)s"),
            {"deal": deals_before + 1, "message": message},
        )
    if deals_before == 0:
        return _translated(
            gettext_noop("penalty pule before the first deal: %(message)s"), {"message": message}
        )
    return _translated(
        gettext_noop("penalty pule after deal %(deal)s: %(message)s"),
        {"deal": deals_before, "message": message},
    )


def _is_penalty(entry: object) -> bool:
    return isinstance(entry, PenaltyPule)


def flag_text(flag: Mapping[str, Any]) -> str:
    """A table's flag as stored ({"code", "detail", "template", "params"}), translated."""
    template = flag.get("template")
    if not template:
        return str(flag.get("detail", ""))
    return _translated(template, flag.get("params") or {})


def flag_dict(flag: Any) -> dict[str, Any]:
    """An `engine.seating.TableFlag` as `Table.flags` stores it."""
    return {
        "code": flag.code,
        "detail": flag.detail,
        "template": flag.template,
        "params": dict(flag.params),
    }


def is_warning(flag: Mapping[str, Any]) -> bool:
    """A repeat meeting, a club clash, or a fixed table not honoured."""
    code = flag.get("code")
    return code in WARNING_CODES or (
        code == "fixed_table" and not str(flag.get("detail", "")).endswith("as fixed")
    )


def table_warning_text(number: int, flag: Mapping[str, Any]) -> str:
    """One warning line, "table 3: ...", translated."""
    return _translated(
        gettext_noop("table %(number)s: %(detail)s"), {"number": number, "detail": flag_text(flag)}
    )


def warning_texts(tables: Iterable[Any]) -> list[str]:
    """The round's warnings from its tables' flags, translated, for the organiser's round page.

    `tables` are `tournaments.models.Table` rows or views with `number` (or `table.number`) and
    `flags`. `Round.warnings` keeps the English lines of the generated seating for the archive;
    the page builds them again from the flags, so they also follow a swap."""
    texts = []
    for table in tables:
        number = getattr(table, "number", None)
        if number is None:
            number = table.table.number
        texts += [table_warning_text(number, flag) for flag in table.flags if is_warning(flag)]
    return texts


# Names and clubs recur on every page and in every request: their keys are kept, per language.
_cached_name_sort_key = lru_cache(maxsize=32768)(name_sort_key)


def display_name_key(text: str | None) -> NameKey:
    """Sort key of a name (player, club, team) for a list shown in the active language.

    Only for what is sorted per request, or cached per language: a key of one language does not
    order the names of another."""
    return _cached_name_sort_key(text or "", get_language())
