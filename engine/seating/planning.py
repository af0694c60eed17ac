"""One round planned: built for its mode (`_new_round`), then repaired by the search and, in
swiss, tightened; near the end of a turn at the odd tables, those tables planned ahead so that
the last players due do not have to meet again (`_due_odd_tables`)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Sequence

from engine.seating.new_rounds import Setting, drawn_round, turn_level
from engine.seating.schedule import Schedule
from engine.seating.search import balance_turns, improve, polish_spread, repair
from engine.seating.swiss import swiss_round

EXACT_NODES = 2000  # the backtracking searches for groups without a repeat give up after this
DUE_PLAN_PLAYERS = 28  # odd tables are planned ahead once this few players are still due
IMPROVE_PLAYERS = 24  # up to this many players, a round is searched on its whole cost
IMPROVE_PATIENCE = 150  # ... ending after this many steps without a better round
IMPROVE_STEPS = 800  # ... or after this many (a few hundred milliseconds at 24 players)


def _new_round(
    schedule: Schedule,
    setting: Setting,
    rng: random.Random,
    odd_tables: list[list[int]] | None = None,
) -> list[list[int]]:
    if setting.mode == "swiss":
        return swiss_round(schedule, setting, rng, odd_tables)
    return drawn_round(schedule, setting, rng, odd_tables)


def plan_round(
    schedule: Schedule,
    setting: Setting,
    rng: random.Random,
    odd_tables: list[list[int]] | None = None,
) -> None:
    """Add one round: built for its mode, then repaired (and, in swiss, tightened). Odd tables
    planned ahead for the end of a turn (`_due_odd_tables`) are kept only if they cost no more
    than a round built without them: keeping the rotation never costs a repeat or a club
    clash."""
    keep = schedule.first_free
    schedule.first_free = round_index = len(schedule.tables)
    planned = (
        _due_odd_tables(schedule, setting, rng)
        if odd_tables is None and setting.mode != "swiss"
        else None
    )
    if planned is None:
        schedule.add_round(_new_round(schedule, setting, rng, odd_tables))
        _repair_round(schedule, setting, rng)
    else:
        odd_now, later = planned
        schedule.reserve(later)
        schedule.odd_locked = True
        schedule.add_round(_new_round(schedule, setting, rng, odd_now))
        _repair_round(schedule, setting, rng)
        schedule.release(later)
        schedule.odd_locked = False
        schedule.refresh_all()
        if schedule.bad:
            kept, kept_cost = schedule.snapshot(), schedule.round_cost(round_index)
            schedule.replace_round(round_index, _new_round(schedule, setting, rng))
            _repair_round(schedule, setting, rng)
            if schedule.round_cost(round_index) >= kept_cost:
                schedule.restore(kept)
    schedule.first_free = keep


def _repair_round(schedule: Schedule, setting: Setting, rng: random.Random) -> None:
    """The search on the last round (the only free one). Up to IMPROVE_PLAYERS players, one
    tabu search on its whole cost. Above, as fast as a large field needs: repeats and club
    clashes repaired (in swiss by swaps near in the standings first), turns at the odd tables
    given back where the repair took more than it needed, then in swiss the spread tightened."""
    count = schedule.n
    if count <= IMPROVE_PLAYERS:
        improve(schedule, rng, patience=IMPROVE_PATIENCE, max_steps=IMPROVE_STEPS)
        if schedule.rank is not None:
            _number_by_rank(schedule, len(schedule.tables) - 1)
        return
    if setting.mode == "swiss":
        for window, patience in ((6, 60 + count // 4), (18, 60 + count // 4), (None, 150 + count)):
            repair(schedule, rng, window=window, patience=patience)
            if not schedule.bad:
                break
        balance_turns(schedule, rng)
        polish_spread(schedule, rng, window=6)
    else:
        repair(schedule, rng, patience=100 + count)
        balance_turns(schedule, rng)


def _number_by_rank(schedule: Schedule, round_index: int) -> None:
    """Swiss: the tables renumbered by their best player, the leaders at table 1 (among the
    tables of one size, which keep their numbers): the search moves whole tables about."""
    rank = schedule.rank
    assert rank is not None
    if any(schedule.fixed):
        return  # a fixed table keeps its number
    tables = [list(table) for table in schedule.tables[round_index]]
    for size in {len(table) for table in tables}:
        numbers = [number for number, table in enumerate(tables) if len(table) == size]
        ordered = sorted(
            (tables[number] for number in numbers), key=lambda t: min(map(rank.__getitem__, t))
        )
        for number, table in zip(numbers, ordered, strict=True):
            tables[number] = table
    schedule.replace_round(round_index, tables)


def _fresh_groups(
    players: Sequence[int],
    sizes: Sequence[int],
    fresh: Callable[[int, int], bool],
    rng: random.Random,
) -> list[list[int]] | None:
    """`players` put in groups of the given sizes (which add up to their number) such that no
    two in a group have met; None if that cannot be found (by backtracking, within a budget)."""
    groups: list[list[int]] = [[] for _ in sizes]
    unplaced = sorted(players)
    rng.shuffle(unplaced)
    nodes = 0

    def place(index: int) -> bool:
        nonlocal nodes
        if index == len(unplaced):
            return True
        nodes += 1
        if nodes > EXACT_NODES:
            return False
        player = unplaced[index]
        tried_empty: set[int] = set()
        for group, size in zip(groups, sizes, strict=True):
            if len(group) >= size or not all(fresh(player, other) for other in group):
                continue
            if not group:
                if size in tried_empty:
                    continue  # empty groups of one size are alike
                tried_empty.add(size)
            group.append(player)
            if place(index + 1):
                return True
            group.pop()
        return False

    return groups if place(0) else None


def _due_odd_tables(
    schedule: Schedule, setting: Setting, rng: random.Random
) -> tuple[list[list[int]], list[list[int]]] | None:
    """Near the end of a turn at the odd tables (everyone once), the last players due have to
    sit together at the odd tables of the next rounds. Plan those tables now, so that nobody in
    them has met (and the rounds before keep them apart): the odd tables of this round, and
    those of the next rounds to keep free of meetings. None when not near the end of a turn, with
    fixed tables, or when no such plan is found."""
    odd = setting.odd
    odd_tables = setting.sizes.count(odd)
    seats = odd * odd_tables
    if not odd_tables or setting.fixed_at:
        return None
    turns = schedule.turns_before(len(schedule.tables))
    fewest = min(turns)
    due = [player for player in range(schedule.n) if turns[player] == fewest]
    if len(due) > max(3 * seats, DUE_PLAN_PLAYERS):
        return None
    fresh = schedule.fresh_pair(None)
    rank = schedule.rank
    if len(due) >= seats:
        rest = len(due) - seats
        sizes = [odd] * (odd_tables * (1 + rest // seats))
        tail = rest % seats
        while tail:
            sizes.append(min(odd, tail))
            tail -= sizes[-1]
        groups = _fresh_groups(due, sizes, fresh, rng)
        if groups is None:
            return None
        full = [group for group in groups if len(group) == odd]
        if rank is not None:
            full.sort(key=lambda group: max(rank[p] for p in group) - min(rank[p] for p in group))
        choices = itertools.combinations(full, odd_tables)  # the first: full[:odd_tables]
        now = next((list(now) for now in choices if _clubs_fit(schedule, setting, now)), None)
        if now is None:
            return None
        return now, [group for group in groups if all(group is not chosen for chosen in now)]
    # Fewer due players than seats: all players below the turn level sit at the odd tables now,
    # with players at the level who have met none of them.
    level = turn_level(turns, seats)
    must = [player for player in range(schedule.n) if turns[player] < level]
    others = [player for player in range(schedule.n) if turns[player] == level]
    rng.shuffle(others)
    if rank is not None:
        middle = sum(rank[p] for p in must) / len(must)
        others.sort(key=lambda player: abs(rank[player] - middle))
    for _ in range(8):
        sizes = [odd] * odd_tables
        groups = _fresh_groups(must, sizes, fresh, rng)
        if groups is None:
            return None
        for group, size in zip(groups, sizes, strict=True):
            for player in others:
                if len(group) == size:
                    break
                taken = any(player in other for other in groups)
                if not taken and all(fresh(player, member) for member in group):
                    group.append(player)
        if all(len(group) == odd for group in groups) and _clubs_fit(schedule, setting, groups):
            return groups, []
    return None


def _clubs_fit(schedule: Schedule, setting: Setting, odd_tables: Sequence[Sequence[int]]) -> bool:
    """Whether, with these odd tables, the players left can sit club mates apart at the tables of
    the usual size: no club has more of them than there are such tables (or than it must, when
    the club outnumbers all tables)."""
    usual_tables = len(setting.sizes) - len(odd_tables)
    at_odd = {player for table in odd_tables for player in table}
    members = Counter(key for key in schedule.club if key >= 0)
    left = Counter(
        schedule.club[player]
        for player in range(schedule.n)
        if player not in at_odd and schedule.club[player] >= 0
    )
    return all(
        count <= max(usual_tables, members[key] - len(odd_tables)) for key, count in left.items()
    )
