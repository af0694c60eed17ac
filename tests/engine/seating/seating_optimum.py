"""The best seating of one round, found by exhaustive search: written apart from the engine, to
check it on small fields.

A seating is scored by what matters, most important first (`Score`):

1. club clashes: pairs of club mates at one table (when clubs are to be kept apart);
2. repeat cost: each pair at a table that has met m times before costs m², one more when they met
   in the round before too (a repeat in consecutive rounds costs more); with nobody meeting a
   third time this is the number of repeated pairs plus those repeated from the last round;
3. unfair turns at the odd tables (the tables of 4 among tables of 3, of 3 among tables of 4): the
   turns at an odd table that the players seated at one have already had, beyond the fewest that
   any choice of players for those seats would have had; 0 when nobody sits at an odd table while
   someone with fewer turns sits at a table of the usual size;
4. rank spread (swiss): over every table, top rank minus bottom rank minus (table size - 1).

Scores compare in that order (a tuple). `better_seating` enumerates the partitions of the field
into tables of the usual sizes (`sizes`), branch and bound: each step seats the unseated player
with the fewest unseated partners he can meet at no cost together with each possible group of
mates, and drops a branch as soon as a lower bound of its score is no better than the best found.
The bound adds to what is seated: the club clashes the clubs' unseated members must make over the
tables left, a repeat for every unseated player with fewer unseated partners at no cost than the
smallest table left needs, and the fewest turns the odd seats left can take.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple


class Score(NamedTuple):
    club_clashes: int
    repeat_cost: int
    unfair_turns: int
    rank_spread: int


@dataclass(frozen=True)
class Situation:
    """One round to seat: who plays, the rounds before (tables of ids; absent players ignored),
    the usual table size, the clubs to keep apart (empty: clubs do not matter) and, in swiss, each
    player's place in the standings (0 leads; None: no ranking)."""

    players: tuple[str, ...]
    history: tuple[tuple[tuple[str, ...], ...], ...]
    table_size: int
    clubs: Mapping[str, str | None]
    ranks: Mapping[str, int] | None = None

    @property
    def odd(self) -> int:
        return 4 if self.table_size == 3 else 3

    def sizes(self) -> list[int]:
        """Tables of 3 with N mod 3 tables of 4; tables of 4 with the fewest of 3 (README, "The
        engine's command line")."""
        count = len(self.players)
        if self.table_size == 3:
            fours = count % 3
            return [4] * fours + [3] * ((count - 4 * fours) // 3)
        threes = {0: 0, 1: 3, 2: 2, 3: 1}[count % 4]
        return [4] * ((count - 3 * threes) // 4) + [3] * threes

    def meetings(self) -> Counter[frozenset[str]]:
        met: Counter[frozenset[str]] = Counter()
        for tables in self.history:
            for table in tables:
                met.update(frozenset(pair) for pair in itertools.combinations(table, 2))
        return met

    def last_round_pairs(self) -> set[frozenset[str]]:
        if not self.history:
            return set()
        return {
            frozenset(pair)
            for table in self.history[-1]
            for pair in itertools.combinations(table, 2)
        }

    def turns(self) -> Counter[str]:
        """Turns at an odd table so far: a table of history counts on the side of the usual size
        it is on (more than 3 players: a table of 4)."""
        turns: Counter[str] = Counter()
        for tables in self.history:
            for table in tables:
                if (len(table) > 3) == (self.table_size == 3):
                    turns.update(table)
        return turns

    def fewest_odd_turns(self) -> int:
        """The fewest turns the players at the odd tables can have had between them."""
        turns = self.turns()
        seats = self.odd * self.sizes().count(self.odd)
        return sum(sorted(turns[player] for player in self.players)[:seats])


def score(situation: Situation, tables: Sequence[Sequence[str]]) -> Score:
    """The score of a seating of `situation` (`Score`)."""
    met = situation.meetings()
    last = situation.last_round_pairs()
    turns = situation.turns()
    clubs = situation.clubs
    ranks = situation.ranks
    clashes = repeat_cost = odd_turns = spread = 0
    for table in tables:
        for pair in itertools.combinations(table, 2):
            first, second = pair
            if clubs.get(first) is not None and clubs.get(first) == clubs.get(second):
                clashes += 1
            times = met[frozenset(pair)]
            if times:
                repeat_cost += times * times + (frozenset(pair) in last)
        if len(table) == situation.odd:
            odd_turns += sum(turns[player] for player in table)
        if ranks is not None:
            places = [ranks[player] for player in table]
            spread += max(places) - min(places) - (len(table) - 1)
    return Score(clashes, repeat_cost, odd_turns - situation.fewest_odd_turns(), spread)


def repeated_pairs(situation: Situation, tables: Sequence[Sequence[str]]) -> int:
    met = situation.meetings()
    return sum(
        1 for table in tables for pair in itertools.combinations(table, 2) if met[frozenset(pair)]
    )


def better_seating(
    situation: Situation, than: Score | None = None
) -> tuple[Score, list[list[str]]] | None:
    """The best seating of `situation` scoring strictly better than `than` (any seating when
    None), with its score; None if there is none. Exhaustive: None proves that `than` cannot be
    beaten."""
    return _Search(situation).run(than)


def best_seating(situation: Situation) -> tuple[Score, list[list[str]]]:
    found = better_seating(situation)
    assert found is not None
    return found


class _Search:
    def __init__(self, situation: Situation) -> None:
        self.situation = situation
        ids = list(situation.players)
        self.ids = ids
        count = len(ids)
        met = situation.meetings()
        last = situation.last_round_pairs()
        turns = situation.turns()
        club_names = [situation.clubs.get(player) for player in ids]
        self.club = [
            -1 if name is None else sorted({c for c in club_names if c is not None}).index(name)
            for name in club_names
        ]
        self.turns = [turns[player] for player in ids]
        self.rank = [situation.ranks[p] for p in ids] if situation.ranks is not None else None
        self.clash = [[0] * count for _ in range(count)]
        self.repeat = [[0] * count for _ in range(count)]
        self.fresh = [0] * count  # bit mask: the partners a player has not met
        self.free = [0] * count  # ... and who are no club mate of his either
        for first, second in itertools.combinations(range(count), 2):
            pair = frozenset((ids[first], ids[second]))
            clash = int(self.club[first] >= 0 and self.club[first] == self.club[second])
            times = met[pair]
            repeat = times * times + (pair in last) if times else 0
            for one, two in ((first, second), (second, first)):
                self.clash[one][two] = clash
                self.repeat[one][two] = repeat
                if not repeat:
                    self.fresh[one] |= 1 << two
                    if not clash:
                        self.free[one] |= 1 << two
        self.odd = situation.odd
        self.fewest = situation.fewest_odd_turns()
        sizes = situation.sizes()
        self.tables_of = {size: sizes.count(size) for size in (3, 4)}
        self.best: tuple[Score, list[list[int]]] | None = None
        self.bound: tuple[int, int, int, int] | None = None
        self.perfect = False  # a seating without any cost: nothing can beat it

    def run(self, than: Score | None) -> tuple[Score, list[list[str]]] | None:
        self.bound = tuple(than) if than is not None else None
        count = len(self.ids)
        self._seat((1 << count) - 1, dict(self.tables_of), (0, 0, 0, 0), [])
        if self.best is None:
            return None
        found, tables = self.best
        return found, [[self.ids[player] for player in table] for table in tables]

    def _hopeless(
        self, unseated: int, left: dict[int, int], cost: tuple[int, int, int, int]
    ) -> bool:
        """Whether no completion of this branch can beat the bound: its score's lower bound,
        worked out one component at a time (a later one matters only while the earlier ones tie
        with the bound)."""
        if self.bound is None:
            return False
        players = [p for p in range(len(self.ids)) if unseated >> p & 1]
        for component, bound in enumerate(self.bound):
            low = cost[component] + self._more(component, players, unseated, left)
            if component == 2:
                low -= self.fewest
            if low != bound:
                return low > bound
        return True  # it can at best tie

    def _more(self, component: int, players: list[int], unseated: int, left: dict[int, int]) -> int:
        """At least how much the unseated players add to a component of the score."""
        need = 2 if left[3] else 3  # mates each unseated player has at the least
        if component == 0:  # each club's members spread as evenly as can be over the tables left
            tables = left[3] + left[4]
            clashes = 0
            for size in Counter(self.club[p] for p in players if self.club[p] >= 0).values():
                even, extra = divmod(size, tables)
                clashes += extra * (even + 1) * even // 2
                clashes += (tables - extra) * even * (even - 1) // 2
            return clashes
        if component == 1:  # each player with his cheapest mates, each pair counted twice
            total = 0
            for p in players:
                if (self.fresh[p] & unseated).bit_count() < need:
                    costs = sorted(self.repeat[p][q] for q in players if q != p)
                    total += sum(costs[:need])
            return (total + 1) // 2
        if component == 2:  # the fewest turns among the players left for the odd seats left
            seats = self.odd * left[self.odd]
            return sum(sorted(self.turns[p] for p in players)[:seats])
        if self.rank is None:
            return 0
        # Spread: the players left cut into runs of the standings, the best way round for the
        # sizes left (nothing seats them closer).
        ranks = sorted(self.rank[p] for p in players)
        best: dict[tuple[int, int], int] = {(0, 0): 0}
        for threes in range(left[3] + 1):
            for fours in range(left[4] + 1):
                if (threes, fours) == (0, 0):
                    continue
                at = 3 * threes + 4 * fours
                options = []
                if threes:
                    options.append(best[threes - 1, fours] + ranks[at - 1] - ranks[at - 3] - 2)
                if fours:
                    options.append(best[threes, fours - 1] + ranks[at - 1] - ranks[at - 4] - 3)
                best[threes, fours] = min(options)
        return best[left[3], left[4]]

    def _beaten(self, score: tuple[int, int, int, int]) -> bool:
        return self.bound is not None and score >= self.bound

    def _seat(
        self,
        unseated: int,
        left: dict[int, int],
        cost: tuple[int, int, int, int],
        tables: list[list[int]],
    ) -> None:
        if not unseated:
            final = Score(cost[0], cost[1], cost[2] - self.fewest, cost[3])
            if not self._beaten(tuple(final)):
                self.best = (final, [list(table) for table in tables])
                self.bound = tuple(final)
                self.perfect = self.bound == (0, 0, 0, 0)
            return
        if self._hopeless(unseated, left, cost):
            return
        players = [p for p in range(len(self.ids)) if unseated >> p & 1]
        anchor = min(players, key=lambda p: ((self.free[p] & unseated).bit_count(), p))
        others = [p for p in players if p != anchor]
        clash, repeat, rank = self.clash[anchor], self.repeat[anchor], self.rank
        if rank is not None:
            others.sort(key=lambda p: (clash[p], repeat[p], abs(rank[p] - rank[anchor])))
        else:
            others.sort(key=lambda p: (clash[p], repeat[p]))
        for size in (3, 4):
            if not left[size]:
                continue
            left[size] -= 1
            for mates in itertools.combinations(others, size - 1):
                table = (anchor, *mates)
                added = self._table_cost(table)
                step = tuple(a + b for a, b in zip(cost, added, strict=True))
                if self._beaten((step[0], step[1], step[2] - self.fewest, step[3])):
                    continue
                tables.append(list(table))
                rest = unseated
                for player in table:
                    rest &= ~(1 << player)
                self._seat(rest, left, step, tables)
                tables.pop()
                if self.perfect:
                    break
            left[size] += 1
            if self.perfect:
                return

    def _table_cost(self, table: Sequence[int]) -> tuple[int, int, int, int]:
        clashes = repeats = 0
        for first, second in itertools.combinations(table, 2):
            clashes += self.clash[first][second]
            repeats += self.repeat[first][second]
        odd_turns = sum(self.turns[p] for p in table) if len(table) == self.odd else 0
        spread = 0
        if self.rank is not None:
            places = [self.rank[p] for p in table]
            spread = max(places) - min(places) - (len(table) - 1)
        return clashes, repeats, odd_turns, spread
