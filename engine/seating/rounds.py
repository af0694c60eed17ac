"""Building a round anew: what every round of a plan shares (`_Setting`), who is due a turn at a
table of 4, and the random draw (modes random and mix)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.seating.schedule import _Schedule


@dataclass(frozen=True, slots=True)
class _Setting:
    """What every round of a plan shares."""

    mode: str
    sizes: tuple[int, ...]  # table sizes, 4s first, when no fixed table says otherwise
    fixed_at: dict[int, list[int]]  # table index -> the players fixed to it


def _level(values: Sequence[int], seats: int) -> int:
    """The turn count L such that fewer than `seats` values are below it and at least `seats`
    are at most it: players below L must sit at a table of 4, players above L must not."""
    ordered = sorted(values)
    if not ordered:
        return 0
    return ordered[seats - 1] if seats > 0 else ordered[0] - 1


def _four_labels(setting: _Setting, turns: Sequence[int]) -> set[int]:
    """The fixed tables to be tables of 4: those with 4 fixed players, then those whose fixed
    players are due a turn at a table of 4, while tables of 4 remain."""
    fours = setting.sizes.count(4)
    level = _level(turns, 4 * fours)
    labels = {number for number, fixed in setting.fixed_at.items() if len(fixed) == 4}
    wishes = []
    for number, fixed in sorted(setting.fixed_at.items()):
        if number not in labels:
            wish = sum((turns[player] < level) - (turns[player] > level) for player in fixed)
            wishes.append((-wish, number))
    wishes.sort()
    labels.update(number for wish, number in wishes[: fours - len(labels)] if wish < 0)
    # When fixed tables leave too few other tables for the tables of 4, some fixed ones grow.
    free_tables = len(setting.sizes) - len(setting.fixed_at)
    for _, number in wishes:
        if len(labels) >= fours - free_tables:
            break
        labels.add(number)
    return labels


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


def _drawn_round(
    schedule: _Schedule,
    setting: _Setting,
    rng: random.Random,
    fours: list[list[int]] | None = None,
) -> list[list[int]]:
    """A random round (modes random and mix): tables of 4 first where fixed tables allow, the
    players due a turn at a table of 4 seated there (or the given tables of 4), club mates dealt
    apart."""
    turns = schedule.turns_before(len(schedule.tables))
    fixed_at = setting.fixed_at
    four_labels = _four_labels(setting, turns)
    free_numbers = [number for number in range(len(setting.sizes)) if number not in fixed_at]
    free_fours = setting.sizes.count(4) - len(four_labels)
    size_of = {number: 4 if number in four_labels else 3 for number in fixed_at}
    for position, number in enumerate(free_numbers):
        size_of[number] = 4 if position < free_fours else 3
    tables = [list(fixed_at.get(number, ())) for number in range(len(setting.sizes))]
    if fours is not None and not fixed_at:
        seated = {player for table in fours for player in table}
        rest = [player for player in range(schedule.n) if player not in seated]
        rng.shuffle(rest)
        open3 = [(number, 3) for number in range(len(tables)) if size_of[number] == 3]
        for number, table in enumerate(fours):
            tables[number] = list(table)
        for player, number in _deal(rest, open3, schedule.club):
            tables[number].append(player)
        return tables
    room = [size_of[number] - len(tables[number]) for number in range(len(tables))]
    open4 = [(number, room[number]) for number in range(len(tables)) if size_of[number] == 4]
    open3 = [(number, room[number]) for number in range(len(tables)) if size_of[number] == 3]
    seats4 = sum(seats for _, seats in open4)
    free = [player for player in range(schedule.n) if not schedule.fixed[player]]
    rng.shuffle(free)
    free_turns = {turns[player] for player in free}
    if len(free_turns) <= 1:
        dealt = _deal(free, open4 + open3, schedule.club)
    else:
        free.sort(key=turns.__getitem__)  # stable: random within a turn count
        dealt = _deal(free[:seats4], open4, schedule.club)
        dealt += _deal(free[seats4:], open3, schedule.club)
    for player, number in dealt:
        tables[number].append(player)
    return tables
