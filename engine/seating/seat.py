"""Seating the players: `seat_players` checks the input, plans the round(s) for the mode, and
assembles the plan with seat orders, flags and warnings."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.seating.checks import (
    SeatingPlayer,
    check_fixed_tables,
    check_options,
    checked_history,
    checked_players,
)
from engine.seating.flags import (
    FIXED_TABLE,
    REPEAT_MEETING,
    SAME_CLUB,
    TableFlag,
    club_key,
    odd_table_turns,
    ordinal,
    plural,
    table_flags,
)
from engine.seating.mix import plan_mix
from engine.seating.new_rounds import Setting, ranked_round
from engine.seating.planning import plan_round
from engine.seating.schedule import Schedule
from engine.seating.sizes import table_sizes


@dataclass(frozen=True, slots=True)
class SeatedTable:
    number: int  # 1-based
    players: tuple[str, ...]  # in seat order
    flags: tuple[TableFlag, ...]


@dataclass(frozen=True, slots=True)
class SeatingPlan:
    rounds: tuple[tuple[SeatedTable, ...], ...]  # each round's tables in table-number order
    # every repeat and club clash it could not avoid, fixed tables not kept, unfair odd tables
    warnings: tuple[str, ...]
    seed: int


def _plan(
    schedule: Schedule, setting: Setting, rounds: int, rng: random.Random, *, history: bool
) -> None:
    if setting.mode == "mix":
        plan_mix(schedule, setting, rounds, rng, history=history)
    elif setting.mode == "ranked":
        schedule.add_round(ranked_round(schedule, setting))  # the rule, repeats and all
    else:
        plan_round(schedule, setting, rng)


def seat_players(
    players: Iterable[SeatingPlayer],
    *,
    mode: str = "random",
    seed: int = 0,
    avoid_same_club: bool = False,
    rounds: int = 1,
    history: Iterable[Iterable[Iterable[str]]] = (),
    table_size: int = 3,
) -> SeatingPlan:
    """Seat `players` for the next round (or, in mode mix, the next `rounds` rounds), given the
    earlier rounds in `history` (each a sequence of tables of player ids; players no longer
    present are ignored), at tables of `table_size` (3 or 4) with the fewest tables of the other
    size (`table_sizes`). The same input and seed always give the same plan."""
    check_options(mode, seed, avoid_same_club, rounds, table_size)
    ordered = sorted(checked_players(players), key=lambda player: player.id)
    sizes = table_sizes(len(ordered), table_size)
    check_fixed_tables(ordered, sizes)
    past = checked_history(history)
    # The same seed round after round must not draw the same round again: the round counts too.
    rng = random.Random(f"{seed}/{len(past)}")
    count = len(ordered)
    index = {player.id: position for position, player in enumerate(ordered)}

    club_keys: dict[str, int] = {}
    club = [-1] * count
    if avoid_same_club:
        for position, player in enumerate(ordered):
            key = club_key(player.club)
            if key is not None:
                club[position] = club_keys.setdefault(key, len(club_keys))
    rank = None
    if mode in ("swiss", "ranked"):
        order = list(range(count))
        rng.shuffle(order)  # equal scores: the seed decides
        order.sort(key=lambda position: -ordered[position].score)
        rank = [0] * count
        for place, position in enumerate(order):
            rank[position] = place
    fixed_at: dict[int, list[int]] = {}
    for position, player in enumerate(ordered):
        if player.fixed_table is not None:
            fixed_at.setdefault(player.fixed_table - 1, []).append(position)

    base_meet = [0] * (count * count)
    for tables in past:
        for table in tables:
            present = [index[player] for player in table if player in index]
            for at, first in enumerate(present):
                for second in present[at + 1 :]:
                    base_meet[first * count + second] += 1
                    base_meet[second * count + first] += 1
    odd_turns = odd_table_turns(past, table_size)
    turns = [odd_turns.get(player.id, 0) for player in ordered]
    schedule = Schedule(
        count,
        club=club,
        rank=rank,
        fixed=[player.fixed_table is not None for player in ordered],
        base_meet=base_meet,
        turns=turns,
        table_size=table_size,
    )
    if past:
        schedule.add_history_round(
            [[index[player] for player in table if player in index] for table in past[-1]]
        )
    setting = Setting(mode=mode, sizes=sizes, fixed_at=fixed_at, table_size=table_size)
    _plan(schedule, setting, rounds, rng, history=bool(past))
    return _assemble(schedule, setting, ordered, past, avoid_same_club, rng, seed)


def _assemble(
    schedule: Schedule,
    setting: Setting,
    ordered: Sequence[SeatingPlayer],
    past: Sequence[Sequence[Sequence[str]]],
    avoid_same_club: bool,
    rng: random.Random,
    seed: int,
) -> SeatingPlan:
    """The plan with seat orders (drawn), flags and warnings. Mode ranked seats by the rule
    alone: it warns of no unfair turn at an odd table."""
    odd = setting.odd
    count = len(ordered)
    ids = [player.id for player in ordered]
    index = {player_id: position for position, player_id in enumerate(ids)}
    clubs = {player.id: player.club for player in ordered}
    fixed_tables = {player.id: player.fixed_table for player in ordered}
    names = {player.id: player.name or player.id for player in ordered}
    met = list(schedule.base_meet)
    turns = list(schedule.turns)
    last = schedule.table_of[0] if schedule.history_rounds else [-1] * count
    planned_rounds = []
    warnings = []
    for offset, tables in enumerate(schedule.tables[schedule.history_rounds :]):
        round_number = len(past) + offset + 1
        seated = []

        def met_last_round(first: str, second: str, last: list[int] = last) -> bool:
            return last[index[first]] >= 0 and last[index[first]] == last[index[second]]

        for number, table in enumerate(tables, start=1):
            seats = list(table)
            rng.shuffle(seats)
            players = tuple(ids[player] for player in seats)
            flags = table_flags(
                players,
                number=number,
                times_met=lambda first, second: met[index[first] * count + index[second]],
                met_last_round=met_last_round,
                clubs=clubs,
                fixed_tables=fixed_tables,
                avoid_same_club=avoid_same_club,
                odd_turns={ids[player]: turns[player] for player in seats},
                table_size=setting.table_size,
                names=names,
            )
            seated.append(SeatedTable(number=number, players=players, flags=flags))
            warnings += [
                f"round {round_number}, table {number}: {flag.detail}"
                for flag in flags
                if flag.code in (REPEAT_MEETING, SAME_CLUB)
                or (flag.code == FIXED_TABLE and "must" in flag.detail)
            ]
        if setting.mode != "ranked":
            warnings += _unfair_odd_tables(
                tables,
                turns,
                ids,
                round_number,
                odd,
                labels=[names[player_id] for player_id in ids],
            )
        planned_rounds.append(tuple(seated))
        for table in tables:
            for at, first in enumerate(table):
                for second in table[at + 1 :]:
                    met[first * count + second] += 1
                    met[second * count + first] += 1
            if len(table) == odd:
                for player in table:
                    turns[player] += 1
        last = [-1] * count
        for number, table in enumerate(tables):
            for player in table:
                last[player] = number
    return SeatingPlan(rounds=tuple(planned_rounds), warnings=tuple(warnings), seed=seed)


def _unfair_odd_tables(
    tables: Sequence[Sequence[int]],
    turns: Sequence[int],
    ids: Sequence[str],
    round_number: int,
    odd: int,
    *,
    labels: Sequence[str],
) -> list[str]:
    """A warning for each player at an odd table (of `odd` players) while someone with fewer
    turns sits at a table of the usual size (forced by fixed tables, or the price of avoiding a
    repeat or a club clash)."""
    at_usual = [player for table in tables if len(table) != odd for player in table]
    if not at_usual:
        return []
    fewest = min(at_usual, key=lambda player: (turns[player], ids[player]))
    return [
        f"round {round_number}: {labels[player]} sits at a table of {odd} for the "
        f"{ordinal(turns[player] + 1)} time while {labels[fewest]} has sat at one "
        f"{plural(turns[fewest], 'time')}"
        for table in tables
        if len(table) == odd
        for player in table
        if turns[player] > turns[fewest]
    ]
