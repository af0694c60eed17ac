"""The tabu search on a `Schedule`: swaps that remove repeats and club clashes (`repair`) and,
in swiss, swaps that tighten the rank spread (`polish_spread`)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable

from engine.seating.schedule import CLUB_COST, REPEAT_COST, TURN_COST, Schedule

FULL_SCAN_PLAYERS = 160  # above this, a move is first looked for among a sample of players
SAMPLE_SIZE = 96
MOVER_TABLES = 4  # a step of the search moves a player of at most this many tables in conflict
TENURE_LOW = 2  # a swap stays tabu for a random number of steps between these
TENURE_HIGH = 15


def _candidates(
    schedule: Schedule, round_index: int, player: int, rng: random.Random, window: int | None
) -> Iterable[int]:
    if window is not None and schedule.by_rank is not None:
        assert schedule.rank is not None
        position = schedule.rank[player]
        return schedule.by_rank[max(0, position - window) : position + window + 1]
    if schedule.n <= FULL_SCAN_PLAYERS:
        return range(schedule.n)
    return rng.sample(range(schedule.n), SAMPLE_SIZE)


def _best_move(
    schedule: Schedule,
    round_index: int,
    movers: Iterable[int],
    rng: random.Random,
    window: int | None,
    allowed: Callable[[int, int, int], bool],
    candidates: Iterable[int] | None = None,
) -> tuple[int, int, int, int | None] | None:
    """The best swap of a mover with a player at another table (ties broken at random):
    (cost change, mover, other player, the other round of a turn exchange or None)."""
    where = schedule.table_of[round_index]
    tables = schedule.tables[round_index]
    fixed = schedule.fixed
    meet, n, club = schedule.meet, schedule.n, schedule.club
    clubs = schedule.has_clubs
    before = schedule.table_of[round_index - 1] if round_index > 0 else None
    after = schedule.table_of[round_index + 1] if round_index + 1 < len(schedule.table_of) else None
    several = len(schedule.tables) - schedule.first_free > 1
    rank = schedule.rank
    odd = schedule.odd
    odd_after = schedule.odd_after
    rounds = len(schedule.tables)

    def cost_with(player: int, other: int, met: int) -> int:
        """The cost of `player` and `other` at one table, having met `met` times elsewhere."""
        cost = 0
        if met:
            cost = REPEAT_COST * met * met
            if before is not None and before[player] >= 0 and before[player] == before[other]:
                cost += REPEAT_COST
            if after is not None and after[player] >= 0 and after[player] == after[other]:
                cost += REPEAT_COST
        if clubs and club[player] >= 0 and club[player] == club[other]:
            cost += CLUB_COST
        return cost

    def leave_cost(player: int) -> int:
        """The cost of `player` at his own table."""
        row = player * n
        return sum(
            cost_with(player, other, meet[row + other] - 1)
            for other in tables[where[player]]
            if other != player
        )

    leave: dict[int, int] = {}
    best: tuple[int, int, int, int | None] | None = None
    ties = 0
    for first in movers:
        home = where[first]
        table_a = tables[home]
        first_odd = len(table_a) == odd
        if first not in leave:
            leave[first] = leave_cost(first)
        row_first = first * n
        # The cost of `first` joining each other table whole; without the player he swaps with,
        # less the cost of the two together.
        join_first: dict[int, int] = {}
        mates_a = [other for other in table_a if other != first]
        if rank is not None:
            ranks_a = [rank[other] for other in mates_a]
            low_a, high_a = min(ranks_a), max(ranks_a)
            rank_first = rank[first]
            old_a = max(high_a, rank_first) - min(low_a, rank_first)
        pool = (
            candidates
            if candidates is not None
            else _candidates(schedule, round_index, first, rng, window)
        )
        for second in pool:
            there = where[second]
            if fixed[second] or there == home or there < 0:
                continue
            table_b = tables[there]
            crossing = first_odd != (len(table_b) == odd)  # a turn at an odd table changes hands
            if crossing and schedule.odd_locked:
                continue
            if second not in leave:
                leave[second] = leave_cost(second)
            if there not in join_first:
                join_first[there] = sum(
                    cost_with(first, other, meet[row_first + other]) for other in table_b
                )
            row_second = second * n
            delta = (
                join_first[there]
                - cost_with(first, second, meet[row_first + second])
                + sum(cost_with(second, other, meet[row_second + other]) for other in mates_a)
                - leave[first]
                - leave[second]
            )
            if rank is not None:  # the change in rank spread, computed inline: the hot loop
                rank_second = rank[second]
                ranks_b = [rank[other] for other in table_b if other != second]
                low_b, high_b = min(ranks_b), max(ranks_b)
                delta += (
                    max(high_a, rank_second)
                    - min(low_a, rank_second)
                    + max(high_b, rank_first)
                    - min(low_b, rank_first)
                    - old_a
                    - (max(high_b, rank_second) - min(low_b, rank_second))
                )
            other_round = None
            if crossing:
                leaving, joining = (first, second) if first_odd else (second, first)
                turns = 0
                for later in range(round_index, rounds):
                    counts = odd_after[later]
                    turns += counts[joining] - counts[leaving] + 1
                turns *= TURN_COST
                if turns > 0 and several:
                    # Or they exchange turns with a round where they sit the other way round.
                    other_round = schedule.exchange_round(round_index, first, second)
                    if other_round is not None:
                        exchange = schedule.exchange_delta(round_index, first, second, other_round)
                        if exchange < delta + turns:
                            delta = exchange
                        else:
                            other_round = None
                if other_round is None:
                    delta += turns
            if best is not None and delta > best[0]:
                continue
            if not allowed(first, second, delta):
                continue
            if best is None or delta < best[0]:
                best, ties = (delta, first, second, other_round), 1
            else:
                ties += 1
                if rng.randrange(ties) == 0:
                    best = (delta, first, second, other_round)
    return best


def _movers(schedule: Schedule, round_index: int, rng: random.Random) -> list[int]:
    """The movable players of a round who are in a repeat or a club clash there (at a few of
    its tables in conflict, drawn at random, when there are many)."""
    meet, n = schedule.meet, schedule.n
    movers = []
    numbers = [number for bad_round, number in sorted(schedule.bad) if bad_round == round_index]
    if len(numbers) > MOVER_TABLES:
        numbers = rng.sample(numbers, MOVER_TABLES)
    for number in numbers:
        table = schedule.tables[round_index][number]
        for player in table:
            if schedule.fixed[player]:
                continue
            for other in table:
                if other != player and schedule.pair_cost(
                    round_index, player, other, meet[player * n + other] - 1
                ):
                    movers.append(player)
                    break
    return movers


def repair(
    schedule: Schedule,
    rng: random.Random,
    *,
    window: int | None = None,
    patience: int = 200,
    max_steps: int = 20_000,
) -> None:
    """Tabu search on the repeats and club clashes of the free rounds: each step takes a
    round in conflict and makes the best swap of one of its players in conflict with another
    player of that round (even a worse one, to get out of a local minimum; the swapped
    players stay put for a few steps). Ends without conflict, after `patience` steps without a
    better schedule, or after `max_steps`; the best schedule seen is kept."""
    schedule.refresh_all()
    current = best = 0
    best_snapshot: list[list[list[int]]] | None = None
    at_best = True
    since_best = 0
    tabu: dict[tuple[int, int, int], int] = {}
    tenure_top = min(TENURE_HIGH, 3 + schedule.n // 4)
    if schedule.has_clubs and schedule.settled():
        return
    for step in range(max_steps):
        if not schedule.bad or since_best > patience:
            break
        round_index = rng.choice(sorted({bad_round for bad_round, _ in schedule.bad}))
        movers = _movers(schedule, round_index, rng)

        def allowed(
            first: int,
            second: int,
            delta: int,
            step: int = step,
            round_index: int = round_index,
            current: int = current,
            best: int = best,
        ) -> bool:
            if current + delta < best:
                return True  # aspiration: a new best is always allowed
            pair = (first, second) if first < second else (second, first)
            return tabu.get((round_index, *pair), -1) < step

        move = _best_move(schedule, round_index, movers, rng, window, allowed)
        if (move is None or move[0] >= 0) and window is None and schedule.n > FULL_SCAN_PLAYERS:
            move = (
                _best_move(schedule, round_index, movers, rng, None, allowed, range(schedule.n))
                or move
            )
        since_best += 1
        if move is None:
            continue
        delta, first, second, other_round = move
        if at_best and delta > 0:
            best_snapshot = schedule.snapshot()
        schedule.swap(round_index, first, second)
        tenure = rng.randint(TENURE_LOW, tenure_top)
        pair = (first, second) if first < second else (second, first)
        if other_round is not None:
            schedule.swap(other_round, first, second)
            tabu[(other_round, *pair)] = step + tenure
        current += delta
        tabu[(round_index, *pair)] = step + tenure
        if current < best:
            best, since_best = current, 0
            at_best, best_snapshot = True, None
            if schedule.has_clubs and schedule.settled():
                break
        else:
            at_best = current == best
    if not at_best and best_snapshot is not None:
        schedule.restore(best_snapshot)


def polish_spread(schedule: Schedule, rng: random.Random, *, window: int, passes: int = 8) -> None:
    """Swiss: swap the top or bottom player of a spread-out table with a nearby player while
    that lowers the cost (never at the price of a repeat or a club clash)."""
    for _ in range(passes):
        improved = False
        for round_index in range(schedule.first_free, len(schedule.tables)):
            for table in schedule.tables[round_index]:
                if schedule.spread(table) <= 0:
                    continue
                assert schedule.rank is not None
                ends = {
                    min(table, key=schedule.rank.__getitem__),
                    max(table, key=schedule.rank.__getitem__),
                }
                movers = [player for player in sorted(ends) if not schedule.fixed[player]]
                move = _best_move(
                    schedule, round_index, movers, rng, window, lambda _a, _b, delta: delta < 0
                )
                if move is not None:
                    schedule.swap(round_index, move[1], move[2])
                    improved = True
        if not improved:
            break


def balance_turns(schedule: Schedule, rng: random.Random) -> None:
    """Give turns at an odd table back to players who have had fewer, by swaps that lower the
    cost (never at the price of a repeat or a club clash): the repair may have given more turns
    away than avoiding its repeats needed. Until no swap helps: one pass moves one player per
    round, and a round can hold as many unfair turns as its odd tables have seats (a fixed
    number of passes left some); each swap lowers the cost, so this ends."""
    while True:
        improved = False
        for round_index in range(schedule.first_free, len(schedule.tables)):
            movers = schedule.unfair_turns(round_index)
            if not movers:
                continue
            move = _best_move(
                schedule, round_index, movers, rng, None, lambda _a, _b, delta: delta < 0
            )
            if move is not None:
                _delta, first, second, other_round = move
                schedule.swap(round_index, first, second)
                if other_round is not None:
                    schedule.swap(other_round, first, second)
                improved = True
        if not improved:
            break


def _costly_tables(schedule: Schedule, round_index: int) -> list[int]:
    """The tables of a round that add to its cost: a repeat or a club clash, a player with more
    turns at an odd table than one at a table of the usual size, or (swiss) rank spread."""
    unfair = set(schedule.unfair_turns(round_index))
    rank = schedule.rank
    return [
        number
        for number, table in enumerate(schedule.tables[round_index])
        if (round_index, number) in schedule.bad
        or any(player in unfair for player in table)
        or (rank is not None and schedule.spread(table) > 0)
    ]


def improve(
    schedule: Schedule, rng: random.Random, *, patience: int, max_steps: int = 5_000
) -> None:
    """Tabu search on the whole cost of the last round (repeats, club clashes, unfair turns at
    the odd tables, rank spread): each step takes a table that adds to the cost and makes the
    best swap of one of its players with any player at another table, even a worse one (the
    swapped pair then stays put for a few steps). Ends when nothing adds to the cost, after
    `patience` steps without a better round, or after `max_steps`; the best round seen is kept.
    One swap at a time gets stuck where the repair and the polish end: here a round improves
    through worse ones."""
    round_index = len(schedule.tables) - 1
    schedule.refresh_all()
    current = best = 0
    best_snapshot: list[list[list[int]]] | None = None
    at_best = True
    since_best = 0
    tabu: dict[tuple[int, int], int] = {}
    tenure_top = min(TENURE_HIGH, 3 + schedule.n // 4)
    for step in range(max_steps):
        costly = _costly_tables(schedule, round_index)
        if not costly or since_best > patience:
            break
        table = schedule.tables[round_index][rng.choice(costly)]
        movers = [player for player in table if not schedule.fixed[player]]

        def allowed(
            first: int,
            second: int,
            delta: int,
            step: int = step,
            current: int = current,
            best: int = best,
        ) -> bool:
            if current + delta < best:
                return True  # aspiration: a new best is always allowed
            pair = (first, second) if first < second else (second, first)
            return tabu.get(pair, -1) < step

        move = _best_move(schedule, round_index, movers, rng, None, allowed, range(schedule.n))
        since_best += 1
        if move is None:
            continue
        delta, first, second, _other_round = move
        if at_best and delta > 0:
            best_snapshot = schedule.snapshot()
        schedule.swap(round_index, first, second)
        pair = (first, second) if first < second else (second, first)
        tabu[pair] = step + rng.randint(TENURE_LOW, tenure_top)
        current += delta
        if current < best:
            best, since_best = current, 0
            at_best, best_snapshot = True, None
        else:
            at_best = current == best
    if not at_best and best_snapshot is not None:
        schedule.restore(best_snapshot)
    while _resplit_pairs(schedule, round_index):
        pass
    _descend(schedule, round_index, rng)


def _group_cost(schedule: Schedule, round_index: int, group: tuple[int, ...], size: int) -> int:
    """The cost `group` would have as one table of the last round (`round_cost`'s terms)."""
    where, meet, n = schedule.table_of[round_index], schedule.meet, schedule.n
    cost = 0
    for at, first in enumerate(group):
        for second in group[at + 1 :]:
            met = meet[first * n + second] - (where[first] == where[second])
            cost += schedule.pair_cost(round_index, first, second, met)
    if size == schedule.odd:
        before = schedule.turns_before(round_index)
        cost += TURN_COST * sum(before[player] for player in group)
    if schedule.rank is not None:
        cost += schedule.spread(list(group))
    return cost


def _resplit_pairs(schedule: Schedule, round_index: int) -> bool:
    """Each two tables of the last round seated anew, their players split the best way between
    them (a move no run of single swaps through worse rounds need find: in swiss, two tables
    that should exchange two players each). Whether the round got better."""
    tables = schedule.tables[round_index]
    fixed = schedule.fixed
    improved = False
    for one, two in itertools.combinations(range(len(tables)), 2):
        first, second = tables[one], tables[two]
        if any(fixed[player] for player in (*first, *second)):
            continue
        now = _group_cost(schedule, round_index, tuple(first), len(first)) + _group_cost(
            schedule, round_index, tuple(second), len(second)
        )
        players = (*first, *second)
        best: tuple[int, tuple[int, ...]] | None = None
        for group in itertools.combinations(players[1:], len(first) - 1):
            chosen = (players[0], *group)
            rest = tuple(player for player in players if player not in chosen)
            cost = _group_cost(schedule, round_index, chosen, len(first)) + _group_cost(
                schedule, round_index, rest, len(second)
            )
            if cost < now and (best is None or cost < best[0]):
                best = (cost, chosen)
        if len(first) != len(second):  # the first player may go to the other table
            for group in itertools.combinations(players[1:], len(second) - 1):
                chosen = (players[0], *group)
                rest = tuple(player for player in players if player not in chosen)
                cost = _group_cost(schedule, round_index, rest, len(first)) + _group_cost(
                    schedule, round_index, chosen, len(second)
                )
                if cost < now and (best is None or cost < best[0]):
                    best = (cost, rest)
        if best is not None:
            chosen = best[1]
            rest = tuple(player for player in players if player not in chosen)
            seated = [list(table) for table in tables]
            seated[one], seated[two] = list(chosen), list(rest)
            schedule.replace_round(round_index, seated)
            tables = schedule.tables[round_index]
            improved = True
    return improved


def _descend(schedule: Schedule, round_index: int, rng: random.Random) -> None:
    """Swaps that lower the cost of the round while there are any: the tabu search may end (out
    of patience) right where one swap would still improve it."""
    for _ in range(schedule.n * 4):
        move = None
        for number in _costly_tables(schedule, round_index):
            movers = [
                player
                for player in schedule.tables[round_index][number]
                if not schedule.fixed[player]
            ]
            move = _best_move(
                schedule,
                round_index,
                movers,
                rng,
                None,
                lambda _a, _b, delta: delta < 0,
                range(schedule.n),
            )
            if move is not None:
                break
        if move is None:
            return
        schedule.swap(round_index, move[1], move[2])
