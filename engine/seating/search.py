"""The tabu search on a `_Schedule`: swaps that remove repeats and club clashes (`repair`) and,
in swiss, swaps that tighten the rank spread (`polish_spread`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from engine.seating.schedule import CLUB_COST, REPEAT_COST, _Schedule

FULL_SCAN_PLAYERS = 160  # above this, a move is first looked for among a sample of players
SAMPLE_SIZE = 96
MOVER_TABLES = 4  # a step of the search moves a player of at most this many tables in conflict
TENURE_LOW = 2  # a swap stays tabu for a random number of steps between these
TENURE_HIGH = 15


def _candidates(
    schedule: _Schedule, round_index: int, player: int, rng: random.Random, window: int | None
) -> Iterable[int]:
    if window is not None and schedule.by_rank is not None:
        assert schedule.rank is not None
        position = schedule.rank[player]
        return schedule.by_rank[max(0, position - window) : position + window + 1]
    if schedule.n <= FULL_SCAN_PLAYERS:
        return range(schedule.n)
    return rng.sample(range(schedule.n), SAMPLE_SIZE)


def _best_move(
    schedule: _Schedule,
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

    def join(player: int, table: list[int], leaving: int, shift: int) -> int:
        """The cost of `player` at `table` without `leaving` (shift -1: he sits there)."""
        cost = 0
        row = player * n
        for other in table:
            if other in (leaving, player):
                continue
            met = meet[row + other] + shift
            if met:
                cost += REPEAT_COST * met * met
                if before is not None and before[player] >= 0 and before[player] == before[other]:
                    cost += REPEAT_COST
                if after is not None and after[player] >= 0 and after[player] == after[other]:
                    cost += REPEAT_COST
            if clubs and club[player] >= 0 and club[player] == club[other]:
                cost += CLUB_COST
        return cost

    leave: dict[int, int] = {}
    best: tuple[int, int, int, int | None] | None = None
    ties = 0
    for first in movers:
        home = where[first]
        table_a = tables[home]
        if first not in leave:
            leave[first] = join(first, table_a, -1, -1)
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
            other_round = None
            if len(table_a) != len(table_b) and not schedule.fair_swap(round_index, first, second):
                if not several:
                    continue
                other_round = schedule.exchange_round(round_index, first, second)
                if other_round is None:
                    continue
                delta = schedule.exchange_delta(round_index, first, second, other_round)
            else:
                if second not in leave:
                    leave[second] = join(second, table_b, -1, -1)
                delta = (
                    join(second, table_a, first, 0)
                    + join(first, table_b, second, 0)
                    - leave[first]
                    - leave[second]
                )
                if rank is not None:
                    delta += _spread_change(schedule, table_a, table_b, first, second)
            if not allowed(first, second, delta):
                continue
            if best is None or delta < best[0]:
                best, ties = (delta, first, second, other_round), 1
            elif delta == best[0]:
                ties += 1
                if rng.randrange(ties) == 0:
                    best = (delta, first, second, other_round)
    return best


def _spread_change(
    schedule: _Schedule, table_a: list[int], table_b: list[int], first: int, second: int
) -> int:
    rank = schedule.rank
    assert rank is not None
    ranks_a = [rank[second] if player == first else rank[player] for player in table_a]
    ranks_b = [rank[first] if player == second else rank[player] for player in table_b]
    new = max(ranks_a) - min(ranks_a) + max(ranks_b) - min(ranks_b)
    old_a = [rank[player] for player in table_a]
    old_b = [rank[player] for player in table_b]
    return new - (max(old_a) - min(old_a) + max(old_b) - min(old_b))


def _movers(schedule: _Schedule, round_index: int, rng: random.Random) -> list[int]:
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
    schedule: _Schedule,
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


def polish_spread(schedule: _Schedule, rng: random.Random, *, window: int, passes: int = 8) -> None:
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
