"""Building a round anew: what every round of a plan shares (`Setting`), who is due a turn at an
odd table, the random draw (modes random and mix) and the federation's ranked cut (mode ranked)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.seating.schedule import Schedule
from engine.seating.sizes import odd_size


@dataclass(frozen=True, slots=True)
class Setting:
    """What every round of a plan shares."""

    mode: str
    sizes: tuple[int, ...]  # table sizes, 4s first, when no fixed table says otherwise
    fixed_at: dict[int, list[int]]  # table index -> the players fixed to it
    table_size: int = 3  # the usual size; the odd tables (the other size) are taken in turns

    @property
    def odd(self) -> int:
        return odd_size(self.table_size)


def turn_level(values: Sequence[int], seats: int) -> int:
    """The turn count L such that fewer than `seats` values are below it and at least `seats`
    are at most it: players below L must sit at an odd table, players above L must not."""
    ordered = sorted(values)
    if not ordered:
        return 0
    return ordered[seats - 1] if seats > 0 else ordered[0] - 1


def _odd_labels(setting: Setting, turns: Sequence[int]) -> set[int]:
    """The fixed tables to be odd tables: those with more fixed players than the usual size
    seats (4 among tables of 3), then those whose fixed players are due a turn at an odd table,
    while odd tables remain (never one with more fixed players than the odd size seats)."""
    odd = setting.odd
    odd_tables = setting.sizes.count(odd)
    level = turn_level(turns, odd * odd_tables)
    labels = {
        number for number, fixed in setting.fixed_at.items() if len(fixed) > setting.table_size
    }
    wishes = []
    for number, fixed in sorted(setting.fixed_at.items()):
        if number not in labels and len(fixed) <= odd:
            wish = sum((turns[player] < level) - (turns[player] > level) for player in fixed)
            wishes.append((-wish, number))
    wishes.sort()
    labels.update(number for wish, number in wishes[: odd_tables - len(labels)] if wish < 0)
    # When fixed tables leave too few other tables for the odd tables, some fixed ones take them.
    free_tables = len(setting.sizes) - len(setting.fixed_at)
    for _, number in wishes:
        if len(labels) >= odd_tables - free_tables:
            break
        labels.add(number)
    return labels


def sizes_by_number(setting: Setting, turns: Sequence[int]) -> list[int]:
    """The size of each table: a fixed table is odd as `_odd_labels` says; the other tables take
    the sizes left in the order of `table_sizes` (tables of 4 first)."""
    labels = _odd_labels(setting, turns)
    size_of = [0] * len(setting.sizes)
    left = list(setting.sizes)
    for number in setting.fixed_at:
        size_of[number] = setting.odd if number in labels else setting.table_size
        left.remove(size_of[number])
    free_numbers = [number for number in range(len(size_of)) if number not in setting.fixed_at]
    for number, size in zip(free_numbers, sorted(left, reverse=True), strict=True):
        size_of[number] = size
    return size_of


def fixed_tables_by_rank(
    setting: Setting,
    size_of: Sequence[int],
    pool_for: Callable[[int], list[int]],
    rank: Sequence[int],
) -> list[list[int]]:
    """The round's tables with only the fixed ones filled: each with its fixed players and, from
    `pool_for(its number)`, the players nearest to them in the standings (the better of two as
    near), who leave that pool. Tables whose fixed players stand higher choose first."""
    fixed_at = setting.fixed_at
    tables: list[list[int]] = [[] for _ in size_of]

    def centre(number: int) -> float:
        return sum(rank[player] for player in fixed_at[number]) / len(fixed_at[number])

    for number in sorted(fixed_at, key=centre):
        pool = pool_for(number)
        middle = centre(number)
        picks = sorted(pool, key=lambda player: (abs(rank[player] - middle), rank[player]))
        picks = picks[: size_of[number] - len(fixed_at[number])]
        for player in picks:
            pool.remove(player)
        tables[number] = list(fixed_at[number]) + picks
    return tables


def _deal(
    order: Sequence[int], open_seats: Sequence[tuple[int, int]], club: Sequence[int]
) -> list[tuple[int, int]]:
    """Players dealt to tables seat row by seat row (every table's first free seat, then every
    table's second, ...), club mates one after another: any club with no more members than tables
    lands at different tables. Returns (player, table) pairs."""
    groups: dict[int, list[int]] = {}
    loners = []
    for player in order:
        if club[player] >= 0:
            groups.setdefault(club[player], []).append(player)
        else:
            loners.append(player)
    clubs = sorted(groups, key=lambda key: -len(groups[key]))
    dealt = [player for key in clubs for player in groups[key]] + loners
    by_room = sorted(open_seats, key=lambda seats: -seats[1])
    sequence = [number for row in range(4) for number, room in by_room if room > row]
    return list(zip(dealt, sequence, strict=True))


def drawn_round(
    schedule: Schedule,
    setting: Setting,
    rng: random.Random,
    odd_tables: list[list[int]] | None = None,
) -> list[list[int]]:
    """A random round (modes random and mix): tables of 4 first where fixed tables allow, the
    players due a turn at an odd table seated there (or the given odd tables), club mates dealt
    apart."""
    turns = schedule.turns_before(len(schedule.tables))
    fixed_at = setting.fixed_at
    odd = setting.odd
    size_of = sizes_by_number(setting, turns)
    tables = [list(fixed_at.get(number, ())) for number in range(len(size_of))]
    if odd_tables is not None and not fixed_at:
        seated = {player for table in odd_tables for player in table}
        rest = [player for player in range(schedule.n) if player not in seated]
        rng.shuffle(rest)
        odd_numbers = [number for number, size in enumerate(size_of) if size == odd]
        open_usual = [(number, size) for number, size in enumerate(size_of) if size != odd]
        for number, table in zip(odd_numbers, odd_tables, strict=True):
            tables[number] = list(table)
        for player, number in _deal(rest, open_usual, schedule.club):
            tables[number].append(player)
        return tables
    room = [size_of[number] - len(tables[number]) for number in range(len(tables))]
    open_odd = [(number, room[number]) for number in range(len(tables)) if size_of[number] == odd]
    open_usual = [(number, room[number]) for number in range(len(tables)) if size_of[number] != odd]
    odd_seats = sum(seats for _, seats in open_odd)
    free = [player for player in range(schedule.n) if not schedule.fixed[player]]
    rng.shuffle(free)
    free_turns = {turns[player] for player in free}
    if len(free_turns) <= 1:
        dealt = _deal(free, open_odd + open_usual, schedule.club)
    else:
        free.sort(key=turns.__getitem__)  # stable: random within a turn count
        dealt = _deal(free[:odd_seats], open_odd, schedule.club)
        dealt += _deal(free[odd_seats:], open_usual, schedule.club)
    for player, number in dealt:
        tables[number].append(player)
    return tables


def _ranked_sizes(setting: Setting) -> list[int]:
    """Mode ranked: the sizes in table-number order as `table_sizes` lists them (tables of 4
    first, so among tables of 4 the tables of 3 are the last), except that a table with 4 fixed
    players is a table of 4."""
    full = {number for number, fixed in setting.fixed_at.items() if len(fixed) == 4}
    left = list(setting.sizes)
    for _ in full:
        left.remove(4)
    others = iter(sorted(left, reverse=True))
    return [4 if number in full else next(others) for number in range(len(setting.sizes))]


def ranked_round(schedule: Schedule, setting: Setting) -> list[list[int]]:
    """Mode ranked, the federation's rule: the standings cut into consecutive tables in
    table-number order, the best at table 1. A player with a fixed table sits there with the
    players nearest to him in the standings (as in swiss: he plays his equals wherever his table
    is); everyone else keeps the order of the standings over the other tables."""
    assert schedule.rank is not None and schedule.by_rank is not None
    size_of = _ranked_sizes(setting)
    pool = [player for player in schedule.by_rank if not schedule.fixed[player]]
    tables = fixed_tables_by_rank(setting, size_of, lambda _number: pool, schedule.rank)
    at = 0
    for number, size in enumerate(size_of):
        if number not in setting.fixed_at:
            tables[number] = pool[at : at + size]
            at += size
    return tables
