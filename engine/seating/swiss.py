"""Swiss: the standings cut into consecutive tables, the odd tables (of 4 among tables of 3, of 3
among tables of 4) where the players due a turn sit next to each other in the ranking."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.seating.new_rounds import Setting, fixed_tables_by_rank, sizes_by_number, turn_level
from engine.seating.schedule import Schedule


def _aligned_windows(
    ranked: Sequence[int],
    due: Sequence[bool],
    count: int,
    rng: random.Random,
    *,
    size: int,
    usual: int,
) -> list[int]:
    """`count` runs of `size` players next to each other in the ranking, all `due`, placed so that
    the players between them fill whole tables of the `usual` size (the k-th run starts at a
    position ≡ k × size mod usual). Runs of 4 (among tables of 3) are placed at random; runs of 3
    (among tables of 4) as low in the ranking as they can: the tables of 3 last where the turns
    allow it, as in mode ranked."""
    starts = [
        position
        for position in range(len(ranked) - size + 1)
        if all(due[ranked[position + offset]] for offset in range(size))
    ]

    def pick(run: int, lowest: int) -> list[int] | None:
        if run == count:
            return []
        options = [
            start for start in starts if start >= lowest and start % usual == run * size % usual
        ]
        if size > usual:
            rng.shuffle(options)
        else:
            options.reverse()
        for start in options[:8]:
            rest = pick(run + 1, start + size)
            if rest is not None:
                return [start, *rest]
        return None

    picked = pick(0, 0) if count else None
    if not picked:
        return []
    return [ranked[start + offset] for start in picked for offset in range(size)]


def _tight_groups(
    candidates: list[int], need: int, rank: Sequence[int], rng: random.Random, *, size: int
) -> list[int]:
    """`need` candidates (ranked order), taken `size` at a time with the least rank span."""
    pool = list(candidates)
    chosen: list[int] = []
    while need >= size and len(pool) >= size:
        spans = [(rank[pool[i + size - 1]] - rank[pool[i]], i) for i in range(len(pool) - size + 1)]
        least = min(span for span, _ in spans)
        start = rng.choice([i for span, i in spans if span == least])
        chosen += pool[start : start + size]
        del pool[start : start + size]
        need -= size
    return chosen + pool[:need]


def swiss_round(
    schedule: Schedule,
    setting: Setting,
    rng: random.Random,
    odd_tables: list[list[int]] | None = None,
) -> list[list[int]]:
    """The ranking cut into consecutive tables: the players due a turn at an odd table who sit
    next to each other in the ranking make the odd tables (or the given odd tables); fixed
    players sit at their table with the players nearest to them in the ranking; the other tables
    are numbered from the top."""
    assert schedule.rank is not None and schedule.by_rank is not None
    rank = schedule.rank
    odd, usual = setting.odd, setting.table_size
    if odd_tables is not None and not setting.fixed_at:
        taken = {player for group in odd_tables for player in group}
        rest = [player for player in schedule.by_rank if player not in taken]
        cut = [sorted(group, key=rank.__getitem__) for group in odd_tables]
        cut += [rest[i : i + usual] for i in range(0, len(rest), usual)]
        return sorted(cut, key=lambda group: rank[group[0]])
    turns = schedule.turns_before(len(schedule.tables))
    fixed_at = setting.fixed_at
    size_of = sizes_by_number(setting, turns)
    fixed_odd = [number for number in fixed_at if size_of[number] == odd]
    free_numbers = [number for number in range(len(size_of)) if number not in fixed_at]
    ranked = [player for player in schedule.by_rank if not schedule.fixed[player]]
    label_seats = sum(odd - len(fixed_at[number]) for number in fixed_odd)
    odd_seats = odd * sum(size_of[number] == odd for number in free_numbers) + label_seats
    level = turn_level([turns[player] for player in ranked], odd_seats)
    must = [player for player in ranked if turns[player] < level]
    due = [turns[player] == level for player in range(schedule.n)]
    need = odd_seats - len(must)
    chosen: list[int] = []
    if need > 0:
        may = [player for player in ranked if due[player]]
        if not must and not label_seats:
            chosen = _aligned_windows(ranked, due, need // odd, rng, size=odd, usual=usual)
        if not chosen:
            anchors = [rank[player] for player in must]
            anchors += [rank[player] for number in fixed_odd for player in fixed_at[number]]
            if anchors:
                may.sort(key=lambda player: min(abs(rank[player] - at) for at in anchors))
                chosen = may[:need]
            else:
                chosen = _tight_groups(may, need, rank, rng, size=odd)
    pool_odd = sorted(must + chosen, key=rank.__getitem__)
    taken = set(pool_odd)
    pool_usual = [player for player in ranked if player not in taken]
    tables = fixed_tables_by_rank(
        setting,
        size_of,
        lambda number: pool_odd if size_of[number] == odd else pool_usual,
        rank,
    )
    groups = [pool_odd[i : i + odd] for i in range(0, len(pool_odd), odd)]
    groups += [pool_usual[i : i + usual] for i in range(0, len(pool_usual), usual)]
    groups.sort(key=lambda group: rank[group[0]])
    for number, group in zip(free_numbers, groups, strict=True):
        tables[number] = group
    return tables
