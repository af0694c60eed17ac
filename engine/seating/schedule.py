"""The search core: the working state of a schedule (rounds of tables of player indices, meeting
counts, turns at the odd tables), its costs and its swaps. The tabu search that drives it is in
`engine.seating.search`."""

from __future__ import annotations

from collections.abc import Callable

from engine.seating.sizes import odd_size

# The costs rank what matters: a club clash outweighs any number of repeats, a repeat any unfair
# turn at an odd table, an unfair turn any rank of spread (swiss: a rank costs 1).
CLUB_COST = 10_000_000_000_000  # two club mates at one table
REPEAT_COST = 10_000_000  # a pair meeting for the (m+1)-th time costs m² of these
TURN_COST = 10_000  # a turn at an odd table for a player who has had one more than another


class Schedule:
    """The working state: rounds of tables of player indices, with the meeting counts over
    history and every round held, and the cumulative turns at an odd table after each round (the
    tables of `odd` players: 4 among tables of the `usual` 3, 3 among tables of 4).

    Rounds before `first_free` are not changed by the search (the last history round, kept for
    the cost of meeting in consecutive rounds, and stored design rounds)."""

    def __init__(
        self,
        count: int,
        *,
        club: list[int],
        rank: list[int] | None,
        fixed: list[bool],
        base_meet: list[int],
        turns: list[int],
        table_size: int,
    ) -> None:
        self.n = count
        self.club = club  # club index per player, -1 without one or when clubs do not matter
        self.has_clubs = any(key >= 0 for key in club)
        self.rank = rank  # swiss: 0 for the top of the standings
        self.by_rank = sorted(range(count), key=rank.__getitem__) if rank is not None else None
        self.fixed = fixed
        self.base_meet = base_meet  # meetings in history, flat n × n
        self.meet = list(base_meet)  # ... and in every round held here but the history round
        self.turns = turns  # odd-table turns over history
        self.usual = table_size
        self.odd = odd_size(table_size)
        self.tables: list[list[list[int]]] = []
        self.table_of: list[list[int]] = []
        self.odd_after: list[list[int]] = []
        self.history_rounds = 0  # 1 when the last history round leads the rounds
        self.first_free = 0
        self.reserved: list[list[int]] = []  # odd tables planned for rounds not yet added
        self.odd_locked = False  # while later rounds' odd tables are planned: no turn moves
        self.bad: set[tuple[int, int]] = set()

    # rounds

    def turns_before(self, round_index: int) -> list[int]:
        return self.odd_after[round_index - 1] if round_index > 0 else self.turns

    def add_history_round(self, tables: list[list[int]]) -> None:
        self.tables.append(tables)
        self.table_of.append(self._table_of(tables))
        self.odd_after.append(self.turns)
        self.history_rounds = self.first_free = 1

    def add_round(self, tables: list[list[int]]) -> None:
        after = list(self.turns_before(len(self.tables)))
        for table in tables:
            self._count_meetings(table, 1)
            if len(table) == self.odd:
                for player in table:
                    after[player] += 1
        self.tables.append(tables)
        self.table_of.append(self._table_of(tables))
        self.odd_after.append(after)

    def _table_of(self, tables: list[list[int]]) -> list[int]:
        where = [-1] * self.n
        for number, table in enumerate(tables):
            for player in table:
                where[player] = number
        return where

    def reserve(self, tables: list[list[int]]) -> None:
        """Count the meetings of tables planned for a later round, so that the rounds before
        avoid them."""
        for table in tables:
            self.reserved.append(table)
            self._count_meetings(table, 1)

    def release(self, tables: list[list[int]]) -> None:
        for table in tables:
            self.reserved.remove(table)
            self._count_meetings(table, -1)

    def _count_meetings(self, table: list[int], step: int) -> None:
        meet, n = self.meet, self.n
        for index, first in enumerate(table):
            for second in table[index + 1 :]:
                meet[first * n + second] += step
                meet[second * n + first] += step

    def rebuild(self) -> None:
        """Meeting counts and odd-table turns from scratch (after restoring a snapshot)."""
        self.meet = list(self.base_meet)
        for round_index in range(self.history_rounds, len(self.tables)):
            for table in self.tables[round_index]:
                self._count_meetings(table, 1)
        for table in self.reserved:
            self._count_meetings(table, 1)
        for round_index in range(self.history_rounds, len(self.tables)):
            after = list(self.turns_before(round_index))
            for table in self.tables[round_index]:
                if len(table) == self.odd:
                    for player in table:
                        after[player] += 1
            self.odd_after[round_index] = after
            self.table_of[round_index] = self._table_of(self.tables[round_index])

    def replace_round(self, round_index: int, tables: list[list[int]]) -> None:
        self.tables[round_index] = tables
        self.rebuild()
        self.refresh_all()

    def fresh_pair(self, round_index: int | None) -> Callable[[int, int], bool]:
        """Whether two players may share a table in this round (None: a round not yet held)
        without meeting twice, nor as club mates."""
        meet, n, club = self.meet, self.n, self.club
        where = self.table_of[round_index] if round_index is not None else None

        def fresh(first: int, second: int) -> bool:
            met = meet[first * n + second]
            if where is not None and where[first] == where[second]:
                met -= 1
            return not met and (club[first] < 0 or club[first] != club[second])

        return fresh

    # costs

    def pair_cost(self, round_index: int, first: int, second: int, met: int) -> int:
        """The cost of `first` and `second` at one table in this round, having met `met` times in
        the other rounds (history included)."""
        cost = 0
        if met:
            cost = REPEAT_COST * met * met
            if round_index > 0:
                where = self.table_of[round_index - 1]
                if where[first] >= 0 and where[first] == where[second]:
                    cost += REPEAT_COST
            if round_index + 1 < len(self.table_of):
                where = self.table_of[round_index + 1]
                if where[first] >= 0 and where[first] == where[second]:
                    cost += REPEAT_COST
        club = self.club[first]
        if club >= 0 and club == self.club[second]:
            cost += CLUB_COST
        return cost

    def table_conflict(self, round_index: int, number: int) -> int:
        """The repeat and club cost of one table (spread apart)."""
        table = self.tables[round_index][number]
        meet, n = self.meet, self.n
        cost = 0
        for index, first in enumerate(table):
            for second in table[index + 1 :]:
                cost += self.pair_cost(round_index, first, second, meet[first * n + second] - 1)
        return cost

    def spread(self, table: list[int]) -> int:
        """Extra rank spread: top rank minus bottom rank, minus (table size - 1)."""
        rank = self.rank
        assert rank is not None
        ranks = [rank[player] for player in table]
        return max(ranks) - min(ranks) - len(table) + 1

    def swap_delta(self, round_index: int, first: int, second: int) -> int:
        where = self.table_of[round_index]
        tables = self.tables[round_index]
        table_a, table_b = tables[where[first]], tables[where[second]]
        meet, n = self.meet, self.n
        row_a, row_b = first * n, second * n
        cost = self.pair_cost
        delta = 0
        for other in table_a:
            if other != first:
                delta += cost(round_index, second, other, meet[row_b + other])
                delta -= cost(round_index, first, other, meet[row_a + other] - 1)
        for other in table_b:
            if other != second:
                delta += cost(round_index, first, other, meet[row_a + other])
                delta -= cost(round_index, second, other, meet[row_b + other] - 1)
        if self.rank is not None:
            rank = self.rank
            old = self.spread(table_a) + self.spread(table_b)
            ranks_a = [rank[second] if player == first else rank[player] for player in table_a]
            ranks_b = [rank[first] if player == second else rank[player] for player in table_b]
            new = max(ranks_a) - min(ranks_a) - len(table_a) + 1
            new += max(ranks_b) - min(ranks_b) - len(table_b) + 1
            delta += new - old
        return delta

    def turn_cost(
        self, round_index: int, leaving: int, joining: int, until: int | None = None
    ) -> int:
        """The change in the cost of the rotation when `leaving` gives his seat at an odd table
        in this round to `joining`, who sits at a table of the usual size, with their turns so
        exchanged up to round `until` (excluded; None: to the end). The rotation costs
        TURN_COST × half the sum, over the rounds, of each player's turns squared after the
        round: least when nobody has had more turns than another (in one round: TURN_COST ×
        the turns the players at its odd tables have had before)."""
        end = len(self.tables) if until is None else until
        change = 0
        for later in range(round_index, end):
            after = self.odd_after[later]
            change += after[joining] - after[leaving] + 1
        return TURN_COST * change

    def leaving_and_joining(self, round_index: int, first: int, second: int) -> tuple[int, int]:
        """Of two players at tables of different sizes: the one at the odd table first."""
        where = self.table_of[round_index]
        if len(self.tables[round_index][where[first]]) == self.odd:
            return first, second
        return second, first

    def exchange_round(self, round_index: int, first: int, second: int) -> int | None:
        """For an unfair swap between an odd table and a usual one: the nearest other free round
        where the two sit the other way round, such that swapping them in both rounds (they
        exchange their turns at an odd table) keeps the rotation fair; None if there is none."""
        leaving, joining = self.leaving_and_joining(round_index, first, second)
        later = round_index
        while later + 1 < len(self.tables):
            if self.odd_after[later][leaving] <= self.odd_after[later][joining]:
                break
            later += 1
            where_later, tables_later = self.table_of[later], self.tables[later]
            if (
                len(tables_later[where_later[joining]]) == self.odd
                and len(tables_later[where_later[leaving]]) != self.odd
            ):
                return later
        earlier = round_index
        while earlier - 1 >= self.first_free:
            earlier -= 1
            if self.odd_after[earlier][joining] <= self.odd_after[earlier][leaving]:
                break
            where_earlier, tables_earlier = self.table_of[earlier], self.tables[earlier]
            if (
                len(tables_earlier[where_earlier[joining]]) == self.odd
                and len(tables_earlier[where_earlier[leaving]]) != self.odd
            ):
                return earlier
        return None

    def exchange_delta(self, round_index: int, first: int, second: int, other_round: int) -> int:
        """The cost change of swapping two players in two rounds (they exchange a turn at an odd
        table for the rounds between)."""
        leaving, joining = self.leaving_and_joining(round_index, first, second)
        if other_round > round_index:
            delta = self.turn_cost(round_index, leaving, joining, until=other_round)
        else:
            delta = self.turn_cost(other_round, joining, leaving, until=round_index)
        delta += self.swap_delta(round_index, first, second)
        self._exchange(round_index, first, second)
        delta += self.swap_delta(other_round, first, second)
        self._exchange(round_index, first, second)
        return delta

    def _exchange(self, round_index: int, first: int, second: int) -> list[tuple[int, int]]:
        """Swap two players at different tables of a round: tables and meeting counts only.
        Returns the pairs whose meeting count changed."""
        where = self.table_of[round_index]
        tables = self.tables[round_index]
        number_a, number_b = where[first], where[second]
        table_a, table_b = tables[number_a], tables[number_b]
        meet, n = self.meet, self.n
        changed = []
        for other in table_a:
            if other != first:
                meet[first * n + other] -= 1
                meet[other * n + first] -= 1
                meet[second * n + other] += 1
                meet[other * n + second] += 1
                changed += [(first, other), (second, other)]
        for other in table_b:
            if other != second:
                meet[second * n + other] -= 1
                meet[other * n + second] -= 1
                meet[first * n + other] += 1
                meet[other * n + first] += 1
                changed += [(second, other), (first, other)]
        table_a[table_a.index(first)] = second
        table_b[table_b.index(second)] = first
        where[first], where[second] = number_b, number_a
        return changed

    def swap(self, round_index: int, first: int, second: int) -> None:
        where = self.table_of[round_index]
        tables = self.tables[round_index]
        number_a, number_b = where[first], where[second]
        size_a, size_b = len(tables[number_a]), len(tables[number_b])
        changed = self._exchange(round_index, first, second)
        if size_a != size_b:
            leaving, joining = (first, second) if size_a == self.odd else (second, first)
            for later in range(round_index, len(self.tables)):
                self.odd_after[later][leaving] -= 1
                self.odd_after[later][joining] += 1
        self._refresh(round_index, number_a)
        self._refresh(round_index, number_b)
        # The changed pairs change the cost of the tables where they meet in other rounds.
        for other_round in range(self.first_free, len(self.tables)):
            if other_round == round_index:
                continue
            other_where = self.table_of[other_round]
            for one, two in changed:
                if other_where[one] >= 0 and other_where[one] == other_where[two]:
                    self._refresh(other_round, other_where[one])

    def _refresh(self, round_index: int, number: int) -> None:
        if self.table_conflict(round_index, number) > 0:
            self.bad.add((round_index, number))
        else:
            self.bad.discard((round_index, number))

    def refresh_all(self) -> None:
        self.bad = set()
        for round_index in range(self.first_free, len(self.tables)):
            for number in range(len(self.tables[round_index])):
                self._refresh(round_index, number)

    def round_cost(self, round_index: int) -> int:
        """The cost of one round that has no later round: its repeats and club clashes, the turns
        its players at odd tables have had before (`turn_cost`) and, in swiss, its rank spread."""
        cost = sum(
            self.table_conflict(round_index, number)
            for number in range(len(self.tables[round_index]))
        )
        before = self.turns_before(round_index)
        for table in self.tables[round_index]:
            if len(table) == self.odd:
                cost += TURN_COST * sum(before[player] for player in table)
            if self.rank is not None:
                cost += self.spread(table)
        return cost

    def unfair_turns(self, round_index: int) -> list[int]:
        """The movable players at an odd table of this round who have had more turns at one than
        a movable player at a table of the usual size."""
        before = self.turns_before(round_index)
        at_odd: list[int] = []
        at_usual: list[int] = []
        for table in self.tables[round_index]:
            players = [player for player in table if not self.fixed[player]]
            (at_odd if len(table) == self.odd else at_usual).extend(players)
        if not at_odd or not at_usual:
            return []
        fewest = min(before[player] for player in at_usual)
        return [player for player in at_odd if before[player] > fewest]

    def club_floor(self, tables: int) -> int:
        """The fewest club clashes (pairs of club mates at one table) a round can have: each
        club spread as evenly as possible over the tables."""
        sizes: dict[int, int] = {}
        for key in self.club:
            if key >= 0:
                sizes[key] = sizes.get(key, 0) + 1
        floor = 0
        for size in sizes.values():
            even, extra = divmod(size, tables)
            floor += extra * (even + 1) * even // 2 + (tables - extra) * even * (even - 1) // 2
        return floor

    def settled(self) -> bool:
        """No repeat in the free rounds and no more club clashes than the clubs force: nothing
        left to repair."""
        meet, n, club = self.meet, self.n, self.club
        clashes = [0] * len(self.tables)
        for round_index, number in self.bad:
            table = self.tables[round_index][number]
            for at, first in enumerate(table):
                for second in table[at + 1 :]:
                    if meet[first * n + second] > 1:
                        return False
                    if club[first] >= 0 and club[first] == club[second]:
                        clashes[round_index] += 1
        return all(
            clashes[round_index] <= self.club_floor(len(self.tables[round_index]))
            for round_index in range(self.first_free, len(self.tables))
        )

    def snapshot(self) -> list[list[list[int]]]:
        return [
            [list(table) for table in self.tables[round_index]]
            for round_index in range(self.first_free, len(self.tables))
        ]

    def restore(self, snapshot: list[list[list[int]]]) -> None:
        for offset, tables in enumerate(snapshot):
            self.tables[self.first_free + offset] = [list(table) for table in tables]
        self.rebuild()
        self.refresh_all()
