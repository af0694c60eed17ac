"""Mix: as few repeated table-mates as possible. A whole schedule is planned at once: a stored
design where one fits (`engine.seating.designs`), the odd tables of every round planned ahead,
whole rounds without a repeat found by backtracking for small fields, then one search over all
the planned rounds together."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Mapping, Sequence

from engine.seating.designs import stored_design
from engine.seating.new_rounds import Setting, turn_level
from engine.seating.planning import EXACT_NODES, plan_round
from engine.seating.schedule import Schedule
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
    schedule: Schedule,
    setting: Setting,
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


def _odd_groups(
    schedule: Schedule, odd_tables: int, rounds: int, rng: random.Random
) -> list[list[list[int]]]:
    """The odd tables of the next `rounds` rounds, planned ahead: in each round the players due
    a turn, grouped so that no two of them have met before (in history or at an earlier odd
    table) where that can be had."""
    odd = schedule.odd
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
        level = turn_level(turns, odd * odd_tables)
        best: tuple[int, list[list[int]]] | None = None
        for _attempt in range(24):
            order = [player for player in range(count) if turns[player] <= level]
            rng.shuffle(order)
            order.sort(key=turns.__getitem__)
            groups: list[list[int]] = [[] for _ in range(odd_tables)]
            left = []
            for player in order:
                fresh = [g for g in groups if len(g) < odd and not clashes(player, g)]
                if fresh:
                    min(fresh, key=len).append(player)
                elif turns[player] < level:
                    open_groups = [g for g in groups if len(g) < odd]
                    min(open_groups, key=lambda g: clashes(player, g)).append(player)
                else:
                    left.append(player)
                if all(len(g) == odd for g in groups):
                    break
            cost = 0
            for player in left:
                open_groups = [g for g in groups if len(g) < odd]
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


def _fresh_mates(
    candidates: Sequence[int], need: int, near: Mapping[int, set[int]]
) -> Iterator[list[int]]:
    """Every group of `need` candidates who are all `near` each other, one at a time, in the
    order of `candidates` (there are too many groups of 3 mates among 90 players to list them
    first)."""
    if need == 0:
        yield []
        return
    for at, first in enumerate(candidates):
        others = [player for player in candidates[at + 1 :] if player in near[first]]
        if len(others) >= need - 1:
            for more in _fresh_mates(others, need - 1, near):
                yield [first, *more]


def _fresh_factor(
    players: Sequence[int], size: int, fresh: Callable[[int, int], bool], rng: random.Random
) -> list[list[int]] | None:
    """Tables of `size` for `players` in which every pair is `fresh`, by backtracking (the player
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
            if mates < size - 1:
                return False
            if fewest < 0 or mates < fewest:
                chosen, fewest = player, mates
        candidates = sorted(near[chosen] & unseated)
        rng.shuffle(candidates)  # the tables are tried in random order
        for group in _fresh_mates(candidates, size - 1, near):
            table = [chosen, *group]
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


def _fresh_split(
    players: Sequence[int],
    size: int,
    groups: int,
    fresh: Callable[[int, int], bool],
    rng: random.Random,
) -> list[list[int]] | None:
    """`players` split into `groups` tables of `size` in which every pair is fresh, every split
    tried (they are the few players of the odd tables: at most 3 tables)."""
    if groups == 0:
        return []
    ordered = sorted(players)
    if groups == 1:
        fits = all(fresh(a, b) for at, a in enumerate(ordered) for b in ordered[at + 1 :])
        return [ordered] if fits else None
    head, rest = ordered[0], ordered[1:]
    firsts = [[head, *mates] for mates in itertools.combinations(rest, size - 1)]
    rng.shuffle(firsts)
    for first in firsts:
        if not all(fresh(a, b) for at, a in enumerate(first) for b in first[at + 1 :]):
            continue
        others = _fresh_split([p for p in rest if p not in first], size, groups - 1, fresh, rng)
        if others is not None:
            return [first, *others]
    return None


def _fresh_round(
    schedule: Schedule,
    odd_tables: Sequence[Sequence[int]],
    fresh: Callable[[int, int], bool],
    rng: random.Random,
) -> list[list[int]] | None:
    """A round without any repeat or club clash: the players of the given odd tables at odd
    tables (regrouped among themselves), everyone else at tables of the usual size, tables of 4
    first; None if none is found."""
    odd = schedule.odd
    at_odd = sorted(player for table in odd_tables for player in table)
    groups = _fresh_split(at_odd, odd, len(at_odd) // odd, fresh, rng)
    if groups is None:
        return None
    taken = set(at_odd)
    usual = _fresh_factor(
        [p for p in range(schedule.n) if p not in taken], schedule.usual, fresh, rng
    )
    if usual is None:
        return None
    return sorted(groups + usual, key=len, reverse=True)


def plan_mix(
    schedule: Schedule, setting: Setting, rounds: int, rng: random.Random, *, history: bool
) -> None:
    """A whole schedule: a stored design where one fits, then round by round with repairs, then
    one search over all the planned rounds together."""
    design = stored_design(schedule.n, setting.table_size)
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
    odd_tables = setting.sizes.count(setting.odd)
    planned: list[list[list[int]]] | None = None
    if left > 1 and odd_tables and not setting.fixed_at:
        planned = _odd_groups(schedule, odd_tables, left, rng)
        for groups in planned:
            schedule.reserve(groups)
        schedule.odd_locked = True
    exact = schedule.n <= EXACT_PLAYERS and not setting.fixed_at
    for offset in range(left):
        odd_groups = planned[offset] if planned is not None else None
        if odd_groups is not None:
            schedule.release(odd_groups)
        fresh = None
        if exact and (odd_groups is not None or not odd_tables):
            fresh = _fresh_round(schedule, odd_groups or [], schedule.fresh_pair(None), rng)
        if fresh is not None:
            schedule.add_round(fresh)
        else:
            plan_round(schedule, setting, rng, odd_groups)
    schedule.odd_locked = False
    if len(schedule.tables) - schedule.first_free > 1:
        if exact and schedule.usual == 3:
            # At tables of 4, where the search leaves repeats, whole rounds without one are
            # seldom found either: measured, no fewer repeats in twice the time.
            _refresh_rounds(schedule, rng)
        count = schedule.n
        # Below 24 players long schedules cannot avoid repeats: a short search spreads them.
        patience = 400 + 10 * count if count >= 24 else 100
        repair(schedule, rng, patience=patience, max_steps=20_000)


def _reseat(schedule: Schedule, redo: Sequence[int], rng: random.Random) -> bool:
    """Seat the rounds `redo` anew, one after the other, each without any repeat or club clash
    against every other round (the ones seated anew before it included), keeping who sits at
    odd tables. Changes nothing and answers False if one of them cannot be seated so."""
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
        odd_tables = [table for table in schedule.tables[round_index] if len(table) == schedule.odd]
        tables = _fresh_round(schedule, odd_tables, fresh, rng)
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


def _refresh_rounds(schedule: Schedule, rng: random.Random, attempts: int = 60) -> None:
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
