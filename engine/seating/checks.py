"""The input and its checks: the players (`SeatingPlayer`), the history, fixed tables and the
options, each refused with a `SheetError` that names the field (and the round, table or
player)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.errors import SheetError, gettext_noop, shown
from engine.seating.sizes import checked_table_size

MODES = ("random", "swiss", "mix", "ranked")
# A plan of more rounds than any tournament has (organisers plan at most 30): beyond it, a
# mistyped or hostile number would search for hours instead of being refused.
MAX_PLAN_ROUNDS = 100


@dataclass(frozen=True, slots=True)
class SeatingPlayer:
    id: str
    club: str | None = None
    score: float = 0.0  # the standing used by swiss (higher is better)
    fixed_table: int | None = None  # 1-based table number this player must sit at (accessibility)
    name: str | None = None  # how flags and warnings name the player (the id when None)


def checked_history(history: object) -> tuple[tuple[tuple[str, ...], ...], ...]:
    """`history` as rounds of tables of player ids; `SheetError` naming the round and table."""
    if isinstance(history, str | bytes | Mapping) or not isinstance(history, Iterable):
        raise SheetError(f"history must be a list of rounds, got {shown(history)}", field="history")
    rounds = []
    for round_number, tables in enumerate(history, start=1):
        if isinstance(tables, str | bytes | Mapping) or not isinstance(tables, Iterable):
            raise SheetError(
                f"history: round {round_number} must be a list of tables, got {shown(tables)}",
                field="history",
            )
        seated: set[str] = set()
        checked = []
        for table_number, table in enumerate(tables, start=1):
            where = f"history: round {round_number}, table {table_number}"
            if isinstance(table, str | bytes | Mapping) or not isinstance(table, Iterable):
                raise SheetError(
                    f"{where} must be a list of player ids, got {shown(table)}", field="history"
                )
            ids = tuple(table)
            if not ids:
                raise SheetError(f"{where} is empty", field="history")
            for player in ids:
                if not isinstance(player, str) or not player:
                    raise SheetError(
                        f"{where}: a player id must be a non-empty text, got {shown(player)}",
                        field="history",
                    )
                if player in seated:
                    raise SheetError(
                        f"history: round {round_number} seats {shown(player)} twice",
                        field="history",
                    )
                seated.add(player)
            checked.append(ids)
        rounds.append(tuple(checked))
    return tuple(rounds)


def checked_players(players: object) -> list[SeatingPlayer]:
    if isinstance(players, str | bytes | Mapping) or not isinstance(players, Iterable):
        raise SheetError(
            f"players must be a list of players, got {shown(players)}", field="players"
        )
    checked = []
    seen: set[str] = set()
    for entry in players:
        player_id = getattr(entry, "id", None)
        if not isinstance(player_id, str) or not player_id:
            raise SheetError(
                f"players: an id must be a non-empty text, got {shown(player_id)}", field="players"
            )
        if player_id in seen:
            raise SheetError(f"players: {shown(player_id)} is listed twice", field="players")
        seen.add(player_id)
        club = getattr(entry, "club", None)
        if club is not None and not isinstance(club, str):
            raise SheetError(
                f"players: the club of {shown(player_id)} must be a text or null, "
                f"got {shown(club)}",
                field="players",
            )
        score = getattr(entry, "score", 0.0)
        if (
            isinstance(score, bool)
            or not isinstance(score, int | float)
            or not math.isfinite(score)
        ):
            raise SheetError(
                f"players: the score of {shown(player_id)} must be a number, got {shown(score)}",
                field="players",
            )
        fixed = getattr(entry, "fixed_table", None)
        if fixed is not None and (isinstance(fixed, bool) or not isinstance(fixed, int)):
            raise SheetError(
                f"players: the fixed_table of {shown(player_id)} must be a table number or "
                f"null, got {shown(fixed)}",
                field="players",
            )
        name = getattr(entry, "name", None)
        if name is not None and not isinstance(name, str):
            raise SheetError(
                f"players: the name of {shown(player_id)} must be a text or null, "
                f"got {shown(name)}",
                field="players",
            )
        checked.append(
            SeatingPlayer(id=player_id, club=club, score=float(score), fixed_table=fixed, name=name)
        )
    return checked


def check_fixed_tables(players: Sequence[SeatingPlayer], sizes: Sequence[int]) -> None:
    count = len(players)
    tables = len(sizes)
    fours = sizes.count(4)
    at_table: dict[int, list[str]] = {}
    for player in players:
        if player.fixed_table is None:
            continue
        if not 1 <= player.fixed_table <= tables:
            raise SheetError(
                gettext_noop(
                    "players: %(player)s has fixed_table %(fixed)s, but the tables are "
                    "numbered 1-%(tables)s"
                ),
                field="players",
                player=shown(player.id),
                fixed=player.fixed_table,
                tables=tables,
            )
        at_table.setdefault(player.fixed_table, []).append(player.id)
    full = []
    for number, ids in sorted(at_table.items()):
        if len(ids) > 4:
            raise SheetError(
                gettext_noop(
                    "players: too many players are fixed to table %(table)s (%(players)s): "
                    "a table seats at most 4"
                ),
                field="players",
                table=number,
                players=", ".join(ids),
            )
        if len(ids) == 4:
            full.append(number)
    if len(full) > fours:
        if fours == 0:
            raise SheetError(
                gettext_noop(
                    "players: table %(table)s has 4 fixed players, but the number of players "
                    "(%(count)s) gives tables of 3 only"
                ),
                field="players",
                table=full[0],
                count=count,
            )
        listed = ", ".join(str(number) for number in full)
        raise SheetError(
            gettext_noop(
                "players: tables %(tables)s each have 4 fixed players, but the number of "
                "players (%(count)s) gives only this many tables of 4: %(fours)s"
            ),
            field="players",
            tables=listed,
            count=count,
            fours=fours,
        )


def check_options(
    mode: object, seed: object, avoid_same_club: object, rounds: object, table_size: object
) -> None:
    if mode not in MODES:
        raise SheetError(f"mode must be one of {', '.join(MODES)}, got {shown(mode)}", field="mode")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SheetError(f"seed must be a whole number, got {shown(seed)}", field="seed")
    if not isinstance(avoid_same_club, bool):
        raise SheetError(
            f"avoid_same_club must be true or false, got {shown(avoid_same_club)}",
            field="avoid_same_club",
        )
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise SheetError(
            f"rounds must be a whole number of at least 1, got {shown(rounds)}", field="rounds"
        )
    if rounds > MAX_PLAN_ROUNDS:
        raise SheetError(
            f"rounds: at most {MAX_PLAN_ROUNDS} rounds are planned at once, got {shown(rounds)}",
            field="rounds",
        )
    checked_table_size(table_size)
    if rounds > 1 and mode != "mix":
        raise SheetError(
            f"rounds: only mode mix plans more than one round at once, got {rounds} rounds "
            f"for mode {mode}",
            field="rounds",
        )
