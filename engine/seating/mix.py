"""Mix: as few repeated table-mates as possible. A whole schedule is planned at once: a stored
design where one fits (`engine.seating.designs`), the tables of 4 of every round planned ahead,
whole rounds without a repeat found by backtracking for small fields, then one search over all
the planned rounds together."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence

from engine.seating.designs import stored_design
from engine.seating.planning import EXACT_NODES, _plan_round
from engine.seating.rounds import _level, _Setting
from engine.seating.schedule import _Schedule
from engine.seating.search import repair

EXACT_PLAYERS = 90  # up to this many players, mix also looks for whole rounds without a repeat


def _club_clashes(rounds: Sequence[Sequence[Sequence[int]]], club: Sequence[int]) -> int:
    clashes = 0
    for tables in rounds:
        for table in tables:
            for index, first in enumerate(table):
                if club[first] >= 0:
                    clashes += sum(club[first] == club[second] for second in table[index + 1 :])
    return clashes


def _design_rounds(
    design: Sequence[Sequence[Sequence[int]]],
    schedule: _Schedule,
    setting: _Setting,
    rng: random.Random,
) -> tuple[list[list[list[int]]], bool]:
    """The design's rounds with its points given to the players (shuffled by the seed, then
    relabelled to keep club mates apart where possible); a fixed player's table is numbered as
    fixed. Returns the rounds and whether they are free of club clashes."""
    club = schedule.club
    count = schedule.n
    best_labels: list[int] = []
    best_cost = -1
    tries = 6 if any(key >= 0 for key in club) else 1
    for _ in range(tries):
        labels = list(range(count))  # point -> player
        rng.shuffle(labels)

        def rounds_of(labels: list[int]) -> list[list[list[int]]]:
            return [[[labels[point] for point in block] for block in blocks] for blocks in design]

        cost = _club_clashes(rounds_of(labels), club)
        improved = cost > 0
        while improved:
            improved = False
            for first in range(count):
                for second in range(first + 1, count):
                    if club[labels[first]] == club[labels[second]]:
                        continue
                    labels[first], labels[second] = labels[second], labels[first]
                    trial = _club_clashes(rounds_of(labels), club)
                    if trial < cost:
                        cost, improved = trial, True
                    else:
                        labels[first], labels[second] = labels[second], labels[first]
        if best_cost < 0 or cost < best_cost:
            best_cost, best_labels = cost, labels
        if best_cost == 0:
            break
    rounds = [[[best_labels[point] for point in block] for block in blocks] for blocks in design]
    for number, fixed in setting.fixed_at.items():
        (player,) = fixed  # designs are used with one fixed player at most
        for tables in rounds:
            home = next(index for index, table in enumerate(tables) if player in table)
            tables[home], tables[number] = tables[number], tables[home]
    return rounds, best_cost == 0


def _four_groups(
    schedule: _Schedule, fours: int, rounds: int, rng: random.Random
) -> list[list[list[int]]]:
    """The tables of 4 of the next `rounds` rounds, planned ahead: in each round the players due
    a turn, grouped so that no two of them have met before (in history or at an earlier table of
    4) where that can be had."""
    count = schedule.n
    meet = schedule.meet
    turns = list(schedule.turns_before(len(schedule.tables)))
    used: set[int] = set()

    def clashes(player: int, group: list[int]) -> int:
        return sum(
            meet[player * count + other] > 0 or player * count + other in used for other in group
        )

    planned = []
    for _ in range(rounds):
        level = _level(turns, 4 * fours)
        best: tuple[int, list[list[int]]] | None = None
        for _attempt in range(24):
            order = [player for player in range(count) if turns[player] <= level]
            rng.shuffle(order)
            order.sort(key=turns.__getitem__)
            groups: list[list[int]] = [[] for _ in range(fours)]
            left = []
            for player in order:
                fresh = [g for g in groups if len(g) < 4 and not clashes(player, g)]
                if fresh:
                    min(fresh, key=len).append(player)
                elif turns[player] < level:
                    open_groups = [g for g in groups if len(g) < 4]
                    min(open_groups, key=lambda g: clashes(player, g)).append(player)
                else:
                    left.append(player)
                if all(len(g) == 4 for g in groups):
                    break
            cost = 0
            for player in left:
                open_groups = [g for g in groups if len(g) < 4]
                if not open_groups:
                    break
                group = min(open_groups, key=lambda g: clashes(player, g))
                cost += clashes(player, group)
                group.append(player)
            cost += sum(
                clashes(player, group[:at]) for group in groups for at, player in enumerate(group)
            )
            if best is None or cost < best[0]:
                best = (cost, groups)
            if cost == 0:
                break
        assert best is not None
        groups = best[1]
        planned.append(groups)
        for group in groups:
            for player in group:
                turns[player] += 1
                used.update(player * count + other for other in group if other != player)
    return planned


def _triangle_factor(
    players: Sequence[int], fresh: Callable[[int, int], bool], rng: random.Random
) -> list[list[int]] | None:
    """Tables of 3 for `players` in which every pair is `fresh`, by backtracking (the player
    with the fewest possible table-mates first); None if none is found within EXACT_NODES."""
    ordered = sorted(players)
    near = {p: {q for q in ordered if q != p and fresh(p, q)} for p in ordered}
    unseated = set(ordered)
    tables: list[list[int]] = []
    nodes = 0

    def search() -> bool:
        nonlocal nodes
        if not unseated:
            return True
        nodes += 1
        if nodes > EXACT_NODES:
            return False
        chosen, fewest = -1, -1
        for player in sorted(unseated):
            mates = len(near[player] & unseated)
            if mates < 2:
                return False
            if fewest < 0 or mates < fewest:
                chosen, fewest = player, mates
        mates = sorted(near[chosen] & unseated)
        options = [
            (first, second)
            for at, first in enumerate(mates)
            for second in mates[at + 1 :]
            if second in near[first]
        ]
        rng.shuffle(options)
        for first, second in options:
            table = [chosen, first, second]
            unseated.difference_update(table)
            tables.append(table)
            if search():
                return True
            tables.pop()
            unseated.update(table)
            if nodes > EXACT_NODES:
                return False
        return False

    return tables if search() else None


def _fresh_fours(
    players: Sequence[int], groups: int, fresh: Callable[[int, int], bool], rng: random.Random
) -> list[list[int]] | None:
    """`players` split into `groups` tables of 4 (at most 2) in which every pair is fresh."""
    if groups == 0:
        return []
    ordered = sorted(players)
    if groups == 1:
        candidates = [ordered]
    else:
        head, rest = ordered[0], ordered[1:]
        candidates = []
        for mates in itertools.combinations(rest, 3):
            first = [head, *mates]
            candidates.append(first + [p for p in rest if p not in mates])
        rng.shuffle(candidates)
    for candidate in candidates:
        split = [candidate[i : i + 4] for i in range(0, len(candidate), 4)]
        if all(
            fresh(a, b) for table in split for at, a in enumerate(table) for b in table[at + 1 :]
        ):
            return split
    return None


def _fresh_round(
    schedule: _Schedule,
    fours: Sequence[Sequence[int]],
    fresh: Callable[[int, int], bool],
    rng: random.Random,
) -> list[list[int]] | None:
    """A round without any repeat or club clash: the players of the given tables of 4 at tables
    of 4 (regrouped among themselves), everyone else at tables of 3; None if none is found."""
    at_four = sorted(player for table in fours for player in table)
    groups = _fresh_fours(at_four, len(at_four) // 4, fresh, rng)
    if groups is None:
        return None
    taken = set(at_four)
    threes = _triangle_factor([p for p in range(schedule.n) if p not in taken], fresh, rng)
    if threes is None:
        return None
    return groups + threes


def _plan_mix(
    schedule: _Schedule, setting: _Setting, rounds: int, rng: random.Random, *, history: bool
) -> None:
    """A whole schedule: a stored design where one fits, then round by round with repairs, then
    one search over all the planned rounds together."""
    design = stored_design(schedule.n)
    if (
        design is not None
        and rounds > 1
        and not history
        and all(len(fixed) == 1 for fixed in setting.fixed_at.values())
        and len(setting.fixed_at) <= 1
    ):
        design_rounds, clean = _design_rounds(design[:rounds], schedule, setting, rng)
        for tables in design_rounds:
            schedule.add_round(tables)
        if clean:
            schedule.first_free = len(schedule.tables)
    left = rounds - (len(schedule.tables) - schedule.history_rounds)
    fours = setting.sizes.count(4)
    planned: list[list[list[int]]] | None = None
    if left > 1 and fours and not setting.fixed_at:
        planned = _four_groups(schedule, fours, left, rng)
        for groups in planned:
            schedule.reserve(groups)
        schedule.fours_locked = True
    exact = schedule.n <= EXACT_PLAYERS and not setting.fixed_at
    for offset in range(left):
        groups = planned[offset] if planned is not None else None
        if groups is not None:
            schedule.release(groups)
        tables = None
        if exact and (groups is not None or not fours):
            tables = _fresh_round(schedule, groups or [], schedule.fresh_pair(None), rng)
        if tables is not None:
            schedule.add_round(tables)
        else:
            _plan_round(schedule, setting, rng, groups)
    schedule.fours_locked = False
    if len(schedule.tables) - schedule.first_free > 1:
        if exact:
            _refresh_rounds(schedule, rng)
        count = schedule.n
        # Below 24 players long schedules cannot avoid repeats: a short search spreads them.
        patience = 400 + 10 * count if count >= 24 else 100
        repair(schedule, rng, patience=patience, max_steps=20_000)


def _reseat(schedule: _Schedule, redo: Sequence[int], rng: random.Random) -> bool:
    """Seat the rounds `redo` anew, one after the other, each without any repeat or club clash
    against every other round (the ones seated anew before it included), keeping who sits at
    tables of 4. Changes nothing and answers False if one of them cannot be seated so."""
    count, club = schedule.n, schedule.club
    meet = list(schedule.meet)
    for round_index in redo:
        for table in schedule.tables[round_index]:
            for at, first in enumerate(table):
                for second in table[at + 1 :]:
                    meet[first * count + second] -= 1
                    meet[second * count + first] -= 1

    def fresh(first: int, second: int) -> bool:
        return not meet[first * count + second] and (club[first] < 0 or club[first] != club[second])

    seated = {}
    for round_index in redo:
        fours = [table for table in schedule.tables[round_index] if len(table) == 4]
        tables = _fresh_round(schedule, fours, fresh, rng)
        if tables is None:
            return False
        seated[round_index] = tables
        for table in tables:
            for at, first in enumerate(table):
                for second in table[at + 1 :]:
                    meet[first * count + second] += 1
                    meet[second * count + first] += 1
    for round_index, tables in seated.items():
        schedule.tables[round_index] = tables
    schedule.rebuild()
    schedule.refresh_all()
    return True


def _refresh_rounds(schedule: _Schedule, rng: random.Random, attempts: int = 60) -> None:
    """Large steps for small fields: seat anew, without any repeat, a round in conflict; or the
    two rounds in which a repeated pair meets; or those two and one more. When none of that
    works, seat a round without conflict anew (another of its many seatings), which changes who
    has met whom."""
    schedule.refresh_all()
    free = range(schedule.first_free, len(schedule.tables))
    for _ in range(attempts):
        troubled = sorted({round_index for round_index, _ in schedule.bad})
        if not troubled:
            return
        rng.shuffle(troubled)
        if any(_reseat(schedule, [round_index], rng) for round_index in troubled[:3]):
            continue
        round_index, number = rng.choice(sorted(schedule.bad))
        table = schedule.tables[round_index][number]
        first, second = rng.sample(table, 2)
        meetings = [
            other
            for other in free
            if schedule.table_of[other][first] == schedule.table_of[other][second]
        ]
        if len(meetings) < 2:
            meetings = [round_index, rng.choice(troubled)]
        pair = rng.sample(meetings, 2)
        if _reseat(schedule, pair, rng):
            continue
        third = rng.choice([other for other in free if other not in pair] or pair[:1])
        if third not in pair and _reseat(schedule, [*pair, third], rng):
            continue
        calm = [other for other in free if other not in troubled]
        if calm:
            _reseat(schedule, [rng.choice(calm)], rng)
