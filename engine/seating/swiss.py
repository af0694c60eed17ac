"""Swiss: the standings cut into consecutive tables, the tables of 4 where the players due a turn
sit next to each other in the ranking."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.seating.rounds import _four_labels, _level, _Setting
from engine.seating.schedule import _Schedule


def _aligned_windows(
    ranked: Sequence[int], due: Sequence[bool], count: int, rng: random.Random
) -> list[int]:
    """`count` runs of 4 players next to each other in the ranking, all `due`, placed so that the
    players between them fill whole tables of 3 (the k-th run starts at a position ≡ k mod 3)."""
    starts = [
        position
        for position in range(len(ranked) - 3)
        if all(due[ranked[position + offset]] for offset in range(4))
    ]

    def pick(run: int, lowest: int) -> list[int] | None:
        if run == count:
            return []
        options = [start for start in starts if start >= lowest and start % 3 == run % 3]
        rng.shuffle(options)
        for start in options[:8]:
            rest = pick(run + 1, start + 4)
            if rest is not None:
                return [start, *rest]
        return None

    picked = pick(0, 0) if count else None
    if not picked:
        return []
    return [ranked[start + offset] for start in picked for offset in range(4)]


def _tight_groups(
    candidates: list[int], need: int, rank: Sequence[int], rng: random.Random
) -> list[int]:
    """`need` candidates (ranked order), taken four at a time with the least rank span."""
    pool = list(candidates)
    chosen: list[int] = []
    while need >= 4 and len(pool) >= 4:
        spans = [(rank[pool[i + 3]] - rank[pool[i]], i) for i in range(len(pool) - 3)]
        least = min(span for span, _ in spans)
        start = rng.choice([i for span, i in spans if span == least])
        chosen += pool[start : start + 4]
        del pool[start : start + 4]
        need -= 4
    return chosen + pool[:need]


def _swiss_round(
    schedule: _Schedule,
    setting: _Setting,
    rng: random.Random,
    fours: list[list[int]] | None = None,
) -> list[list[int]]:
    """The ranking cut into consecutive tables: the players due a turn at a table of 4 who sit
    next to each other in the ranking make the tables of 4 (or the given tables of 4); fixed
    players sit at their table with the players nearest to them in the ranking; the other tables
    are numbered from the top."""
    assert schedule.rank is not None and schedule.by_rank is not None
    rank = schedule.rank
    if fours is not None and not setting.fixed_at:
        taken = {player for group in fours for player in group}
        rest = [player for player in schedule.by_rank if player not in taken]
        cut = [sorted(group, key=rank.__getitem__) for group in fours]
        cut += [rest[i : i + 3] for i in range(0, len(rest), 3)]
        return sorted(cut, key=lambda group: rank[group[0]])
    turns = schedule.turns_before(len(schedule.tables))
    fixed_at = setting.fixed_at
    four_labels = _four_labels(setting, turns)
    free_numbers = [number for number in range(len(setting.sizes)) if number not in fixed_at]
    free_fours = setting.sizes.count(4) - len(four_labels)
    ranked = [player for player in schedule.by_rank if not schedule.fixed[player]]
    label_seats4 = sum(4 - len(fixed_at[number]) for number in four_labels)
    seats4 = 4 * free_fours + label_seats4
    level = _level([turns[player] for player in ranked], seats4)
    must = [player for player in ranked if turns[player] < level]
    due = [turns[player] == level for player in range(schedule.n)]
    need = seats4 - len(must)
    chosen: list[int] = []
    if need > 0:
        may = [player for player in ranked if due[player]]
        if not must and not label_seats4:
            chosen = _aligned_windows(ranked, due, need // 4, rng)
        if not chosen:
            anchors = [rank[player] for player in must]
            anchors += [rank[player] for number in four_labels for player in fixed_at[number]]
            if anchors:
                may.sort(key=lambda player: min(abs(rank[player] - at) for at in anchors))
                chosen = may[:need]
            else:
                chosen = _tight_groups(may, need, rank, rng)
    pool4 = sorted(must + chosen, key=rank.__getitem__)
    taken = set(pool4)
    pool3 = [player for player in ranked if player not in taken]
    tables: list[list[int]] = [[] for _ in setting.sizes]

    def centre(number: int) -> float:
        return sum(rank[player] for player in fixed_at[number]) / len(fixed_at[number])

    for number in sorted(fixed_at, key=centre):
        size = 4 if number in four_labels else 3
        pool = pool4 if size == 4 else pool3
        middle = centre(number)
        picks = sorted(pool, key=lambda player: (abs(rank[player] - middle), rank[player]))
        picks = picks[: size - len(fixed_at[number])]
        for player in picks:
            pool.remove(player)
        tables[number] = list(fixed_at[number]) + picks
    groups = [pool4[i : i + 4] for i in range(0, len(pool4), 4)]
    groups += [pool3[i : i + 3] for i in range(0, len(pool3), 3)]
    groups.sort(key=lambda group: rank[group[0]])
    for number, group in zip(free_numbers, groups, strict=True):
        tables[number] = group
    return tables
