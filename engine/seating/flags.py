"""Flags and explanations: why a table is as it is (repeated meetings, club mates, fixed tables,
turns at an odd table: a table of 4 among tables of 3, or of 3 among tables of 4), and how often
each pair has met."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.errors import gettext_noop
from engine.seating.checks import checked_history
from engine.seating.sizes import checked_table_size, is_odd_table, odd_size

REPEAT_MEETING = "repeat_meeting"
SAME_CLUB = "same_club"
FIXED_TABLE = "fixed_table"
FOUR_TABLE = "four_table"  # a table of 4 when tables are of 3
THREE_TABLE = "three_table"  # a table of 3 when tables are of 4


@dataclass(frozen=True, slots=True)
class TableFlag:
    """Why a table is as it is: code is "repeat_meeting", "same_club", "fixed_table",
    "four_table" or "three_table"; detail is the English text shown to the organiser (and printed
    by the command line). `template` and `params` give it for translation (`engine.errors`):
    detail is ``template % params``, where a param may also be a list of parts, each a dict with
    its own "template" and "params", shown joined by "; ". Flags compare by code and detail."""

    code: str
    detail: str
    template: str = field(default="", compare=False)
    params: dict[str, Any] = field(default_factory=dict, compare=False)

    @classmethod
    def of(cls, code: str, template: str, **params: Any) -> TableFlag:
        return cls(code, flag_detail(template, params), template, params)


def flag_detail(template: str, params: Mapping[str, Any]) -> str:
    """The English text of a flag's template and params (parts joined by "; ")."""
    return template % {
        key: "; ".join(flag_detail(part["template"], part["params"]) for part in value)
        if isinstance(value, list)
        else value
        for key, value in params.items()
    }


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, ... 21st."""
    if number % 100 in (11, 12, 13):
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th') }"


def meeting_counts(history: Iterable[Iterable[Iterable[str]]]) -> dict[frozenset[str], int]:
    """How often each pair of players has sat at one table in `history` (rounds of tables)."""
    counts: dict[frozenset[str], int] = {}
    for tables in checked_history(history):
        for table in tables:
            for index, first in enumerate(table):
                for second in table[index + 1 :]:
                    pair = frozenset((first, second))
                    counts[pair] = counts.get(pair, 0) + 1
    return counts


def odd_table_turns(history: Sequence[Sequence[Sequence[str]]], table_size: int) -> dict[str, int]:
    """How often each player has sat at an odd table in `history` (`sizes.is_odd_table`)."""
    turns: dict[str, int] = {}
    for tables in history:
        for table in tables:
            if is_odd_table(len(table), table_size):
                for player in table:
                    turns[player] = turns.get(player, 0) + 1
    return turns


def club_key(club: str | None) -> str | None:
    """Clubs compare as people read them: "Rīga", " rīga" and "RĪGA" are one club."""
    if club is None:
        return None
    key = unicodedata.normalize("NFC", club.strip().casefold())
    return key or None


# The flag of an odd table, by the usual table size.
ODD_TABLE_FLAGS = {
    3: (FOUR_TABLE, gettext_noop("table of 4: %(turns)s")),
    4: (THREE_TABLE, gettext_noop("table of 3: %(turns)s")),
}


def table_flags(
    players: Sequence[str],
    *,
    number: int,
    times_met: Callable[[str, str], int],
    met_last_round: Callable[[str, str], bool],
    clubs: Mapping[str, str | None],
    fixed_tables: Mapping[str, int | None],
    avoid_same_club: bool,
    odd_turns: Mapping[str, int],
    table_size: int,
    names: Mapping[str, str] | None = None,
) -> tuple[TableFlag, ...]:
    def name(player: str) -> str:
        return names.get(player, player) if names else player

    flags = []
    for index, first in enumerate(players):
        for second in players[index + 1 :]:
            met = times_met(first, second)
            if met:
                template = (
                    gettext_noop(
                        "%(first)s and %(second)s meet again (meeting %(count)s; they met in "
                        "the previous round too)"
                    )
                    if met_last_round(first, second)
                    else gettext_noop("%(first)s and %(second)s meet again (meeting %(count)s)")
                )
                flags.append(
                    TableFlag.of(
                        REPEAT_MEETING,
                        template,
                        first=name(first),
                        second=name(second),
                        count=met + 1,
                    )
                )
    if avoid_same_club:
        members: dict[str, list[str]] = {}
        club_names: dict[str, str] = {}
        for player in players:
            key = club_key(clubs.get(player))
            if key is not None:
                members.setdefault(key, []).append(player)
                club_names.setdefault(key, str(clubs[player]).strip())
        for key, mates in members.items():
            if len(mates) > 1:
                flags.append(
                    TableFlag.of(
                        SAME_CLUB,
                        gettext_noop("same club: %(club)s (%(players)s)"),
                        club=club_names[key],
                        players=", ".join(name(mate) for mate in mates),
                    )
                )
    for player in players:
        fixed = fixed_tables.get(player)
        if fixed is None:
            continue
        if fixed == number:
            flag = TableFlag.of(
                FIXED_TABLE,
                gettext_noop("%(player)s sits at table %(table)s as fixed"),
                player=name(player),
                table=number,
            )
        else:
            flag = TableFlag.of(
                FIXED_TABLE,
                gettext_noop("%(player)s must sit at table %(fixed)s, not at table %(table)s"),
                player=name(player),
                fixed=fixed,
                table=number,
            )
        flags.append(flag)
    if len(players) == odd_size(table_size):
        by_turn: dict[int, list[str]] = {}
        for player in players:
            by_turn.setdefault(odd_turns.get(player, 0) + 1, []).append(name(player))
        turns = [
            {
                "template": gettext_noop("turn %(turn)s for %(players)s"),
                "params": {"turn": turn, "players": ", ".join(by_turn[turn])},
            }
            for turn in sorted(by_turn)
        ]
        code, template = ODD_TABLE_FLAGS[table_size]
        flags.append(TableFlag.of(code, template, turns=turns))
    return tuple(flags)


def explain_table(
    players_at_table: Iterable[str],
    *,
    number: int,
    history: Iterable[Iterable[Iterable[str]]],
    clubs: Mapping[str, str | None],
    fixed_tables: Mapping[str, int | None],
    avoid_same_club: bool,
    names: Mapping[str, str] | None = None,
    table_size: int = 3,
) -> tuple[TableFlag, ...]:
    """The flags of one table (seat order kept): every repeated meeting counted over `history`
    (the rounds before this one), club mates together when `avoid_same_club`, fixed tables (kept
    or broken), and at an odd table (of 4 when `table_size` is 3, of 3 when it is 4) each
    player's turn at one."""
    table_size = checked_table_size(table_size)
    players = tuple(players_at_table)
    checked = checked_history(history)
    counts = meeting_counts(checked)
    last_round = {
        frozenset((first, second))
        for table in (checked[-1] if checked else ())
        for index, first in enumerate(table)
        for second in table[index + 1 :]
    }
    return table_flags(
        players,
        number=number,
        times_met=lambda first, second: counts.get(frozenset((first, second)), 0),
        met_last_round=lambda first, second: frozenset((first, second)) in last_round,
        clubs=clubs,
        fixed_tables=fixed_tables,
        avoid_same_club=avoid_same_club,
        odd_turns=odd_table_turns(checked, table_size),
        table_size=table_size,
        names=names,
    )
