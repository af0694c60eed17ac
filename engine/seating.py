"""Seating: who sits at which table in each round (SEATING.md).

Three modes:

- ``random``: a seeded draw, reproducible from its seed, that still avoids repeated table-mates and
  (when asked) club mates at one table whenever it can;
- ``swiss``: by standings, the strongest together: the ranking is cut into consecutive tables, then
  repaired with swaps between nearby tables until no avoidable repeat or club clash remains, at the
  least cost in rank spread;
- ``mix``: as few repeated table-mates as possible; ``rounds`` > 1 plans a whole schedule at once
  (a search over all its rounds; up to 90 players also whole rounds seated anew without a repeat).
  For 9, 12, 15, 18 and 21 players, and between 31 and 44 with tables of 4, a schedule without
  history starts from a stored one (`engine.designs`), which no search finds as reliably.

Every mode seats exactly N mod 3 tables of 4 and rotates them fairly: nobody sits at a table of 4
again while a player who has sat at fewer is seated at a table of 3 (turns counted in `history`).
Players with a fixed table always sit there.

One cost is minimised: a club clash (two players of one club at a table, when they are to be kept
apart) costs far more than any repeat; a pair meeting for the (m+1)-th time costs m², one more when
they also meet in the round before or after; in ``swiss`` a rank of spread costs far less than any
repeat. Whatever could not be avoided is flagged on its table and listed in the plan's warnings.
"""

from __future__ import annotations

import itertools
import math
import random
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.designs import stored_design
from engine.errors import SheetError, gettext_noop, shown

MODES = ("random", "swiss", "mix")
# A plan of more rounds than any tournament has (organisers plan at most 30): beyond it, a
# mistyped or hostile number would search for hours instead of being refused.
MAX_PLAN_ROUNDS = 100
REPEAT_MEETING = "repeat_meeting"
SAME_CLUB = "same_club"
FIXED_TABLE = "fixed_table"
FOUR_TABLE = "four_table"

REPEAT_COST = 1_000  # a pair meeting for the (m+1)-th time costs m² of these
CLUB_COST = 1_000_000_000  # two club mates at one table: more than any number of repeats
# In swiss a rank of spread costs 1: far less than a repeat.

FULL_SCAN_PLAYERS = 160  # above this, a move is first looked for among a sample of players
SAMPLE_SIZE = 96
MOVER_TABLES = 4  # a step of the search moves a player of at most this many tables in conflict
TENURE_LOW = 2  # a swap stays tabu for a random number of steps between these
TENURE_HIGH = 15


@dataclass(frozen=True, slots=True)
class SeatingPlayer:
    id: str
    club: str | None = None
    score: float = 0.0  # the standing used by swiss (higher is better)
    fixed_table: int | None = None  # 1-based table number this player must sit at (accessibility)
    name: str | None = None  # how flags and warnings name the player (the id when None)


@dataclass(frozen=True, slots=True)
class TableFlag:
    """Why a table is as it is: code is "repeat_meeting", "same_club", "fixed_table" or
    "four_table"; detail is the English text shown to the organiser (and printed by the command
    line). `template` and `params` give it for translation (`engine.errors`): detail is
    ``template % params``, where a param may also be a list of parts, each a dict with its own
    "template" and "params", shown joined by "; ". Flags compare by code and detail."""

    code: str
    detail: str
    template: str = field(default="", compare=False)
    params: dict[str, Any] = field(default_factory=dict, compare=False)

    @classmethod
    def of(cls, code: str, template: str, **params: Any) -> TableFlag:
        return cls(code, flag_detail(template, params), template, params)


def flag_detail(template: str, params: Mapping[str, Any]) -> str:
    """The English text of a flag's template and params (parts joined by "; ")."""
    return template % {
        key: "; ".join(flag_detail(part["template"], part["params"]) for part in value)
        if isinstance(value, list)
        else value
        for key, value in params.items()
    }


@dataclass(frozen=True, slots=True)
class SeatedTable:
    number: int  # 1-based
    players: tuple[str, ...]  # in seat order
    flags: tuple[TableFlag, ...]


@dataclass(frozen=True, slots=True)
class SeatingPlan:
    rounds: tuple[tuple[SeatedTable, ...], ...]  # each round's tables in table-number order
    warnings: tuple[str, ...]  # every repeat and club clash it could not avoid, unfair 4-tables
    seed: int


# --- small public helpers ---------------------------------------------------------------------


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, ... 21st."""
    if number % 100 in (11, 12, 13):
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th') }"


def table_sizes(player_count: int, table_size: int = 3) -> tuple[int, ...]:
    """The table sizes for `player_count` players: N mod 3 tables of 4 (listed first), the rest of
    3. Fewer than 3 players, or 5, cannot be seated."""
    if isinstance(player_count, bool) or not isinstance(player_count, int):
        raise SheetError(
            f"players: the number of players must be a whole number, got {shown(player_count)}",
            field="players",
        )
    if player_count < 3:
        raise SheetError(
            gettext_noop(
                "players: too few players to seat (%(count)s): a table needs 3 or 4 players"
            ),
            field="players",
            count=player_count,
        )
    if player_count == 5:
        raise SheetError(
            gettext_noop("players: 5 players cannot be seated at tables of 3 and 4"),
            field="players",
        )
    fours = player_count % 3
    return (4,) * fours + (3,) * ((player_count - 4 * fours) // 3)


def _checked_history(history: object) -> tuple[tuple[tuple[str, ...], ...], ...]:
    """`history` as rounds of tables of player ids; `SheetError` naming the round and table."""
    if isinstance(history, str | bytes | Mapping) or not isinstance(history, Iterable):
        raise SheetError(f"history must be a list of rounds, got {shown(history)}", field="history")
    rounds = []
    for round_number, tables in enumerate(history, start=1):
        if isinstance(tables, str | bytes | Mapping) or not isinstance(tables, Iterable):
            raise SheetError(
                f"history: round {round_number} must be a list of tables, got {shown(tables)}",
                field="history",
            )
        seated: set[str] = set()
        checked = []
        for table_number, table in enumerate(tables, start=1):
            where = f"history: round {round_number}, table {table_number}"
            if isinstance(table, str | bytes | Mapping) or not isinstance(table, Iterable):
                raise SheetError(
                    f"{where} must be a list of player ids, got {shown(table)}", field="history"
                )
            ids = tuple(table)
            if not ids:
                raise SheetError(f"{where} is empty", field="history")
            for player in ids:
                if not isinstance(player, str) or not player:
                    raise SheetError(
                        f"{where}: a player id must be a non-empty text, got {shown(player)}",
                        field="history",
                    )
                if player in seated:
                    raise SheetError(
                        f"history: round {round_number} seats {shown(player)} twice",
                        field="history",
                    )
                seated.add(player)
            checked.append(ids)
        rounds.append(tuple(checked))
    return tuple(rounds)


def meeting_counts(history: Iterable[Iterable[Iterable[str]]]) -> dict[frozenset[str], int]:
    """How often each pair of players has sat at one table in `history` (rounds of tables)."""
    counts: dict[frozenset[str], int] = {}
    for tables in _checked_history(history):
        for table in tables:
            for index, first in enumerate(table):
                for second in table[index + 1 :]:
                    pair = frozenset((first, second))
                    counts[pair] = counts.get(pair, 0) + 1
    return counts


def _four_table_turns(history: Sequence[Sequence[Sequence[str]]]) -> dict[str, int]:
    """How often each player has sat at a table of 4 (or more) in `history`."""
    turns: dict[str, int] = {}
    for tables in history:
        for table in tables:
            if len(table) >= 4:
                for player in table:
                    turns[player] = turns.get(player, 0) + 1
    return turns


def _club_key(club: str | None) -> str | None:
    """Clubs compare as people read them: "Rīga", " rīga" and "RĪGA" are one club."""
    if club is None:
        return None
    key = unicodedata.normalize("NFC", club.strip().casefold())
    return key or None


def _table_flags(
    players: Sequence[str],
    *,
    number: int,
    times_met: Callable[[str, str], int],
    met_last_round: Callable[[str, str], bool],
    clubs: Mapping[str, str | None],
    fixed_tables: Mapping[str, int | None],
    avoid_same_club: bool,
    four_turns: Mapping[str, int],
    names: Mapping[str, str] | None = None,
) -> tuple[TableFlag, ...]:
    def name(player: str) -> str:
        return names.get(player, player) if names else player

    flags = []
    for index, first in enumerate(players):
        for second in players[index + 1 :]:
            met = times_met(first, second)
            if met:
                template = (
                    gettext_noop(
                        "%(first)s and %(second)s meet again (meeting %(count)s; they met in "
                        "the previous round too)"
                    )
                    if met_last_round(first, second)
                    else gettext_noop("%(first)s and %(second)s meet again (meeting %(count)s)")
                )
                flags.append(
                    TableFlag.of(
                        REPEAT_MEETING,
                        template,
                        first=name(first),
                        second=name(second),
                        count=met + 1,
                    )
                )
    if avoid_same_club:
        members: dict[str, list[str]] = {}
        club_names: dict[str, str] = {}
        for player in players:
            key = _club_key(clubs.get(player))
            if key is not None:
                members.setdefault(key, []).append(player)
                club_names.setdefault(key, str(clubs[player]).strip())
        for key, mates in members.items():
            if len(mates) > 1:
                flags.append(
                    TableFlag.of(
                        SAME_CLUB,
                        gettext_noop("same club: %(club)s (%(players)s)"),
                        club=club_names[key],
                        players=", ".join(name(mate) for mate in mates),
                    )
                )
    for player in players:
        fixed = fixed_tables.get(player)
        if fixed is None:
            continue
        if fixed == number:
            flag = TableFlag.of(
                FIXED_TABLE,
                gettext_noop("%(player)s sits at table %(table)s as fixed"),
                player=name(player),
                table=number,
            )
        else:
            flag = TableFlag.of(
                FIXED_TABLE,
                gettext_noop("%(player)s must sit at table %(fixed)s, not at table %(table)s"),
                player=name(player),
                fixed=fixed,
                table=number,
            )
        flags.append(flag)
    if len(players) == 4:
        by_turn: dict[int, list[str]] = {}
        for player in players:
            by_turn.setdefault(four_turns.get(player, 0) + 1, []).append(name(player))
        turns = [
            {
                "template": gettext_noop("turn %(turn)s for %(players)s"),
                "params": {"turn": turn, "players": ", ".join(by_turn[turn])},
            }
            for turn in sorted(by_turn)
        ]
        flags.append(TableFlag.of(FOUR_TABLE, gettext_noop("table of 4: %(turns)s"), turns=turns))
    return tuple(flags)


def explain_table(
    players_at_table: Iterable[str],
    *,
    number: int,
    history: Iterable[Iterable[Iterable[str]]],
    clubs: Mapping[str, str | None],
    fixed_tables: Mapping[str, int | None],
    avoid_same_club: bool,
    names: Mapping[str, str] | None = None,
) -> tuple[TableFlag, ...]:
    """The flags of one table (seat order kept): every repeated meeting counted over `history`
    (the rounds before this one), club mates together when `avoid_same_club`, fixed tables (kept
    or broken), and the 4-table turn of each player at a table of 4."""
    players = tuple(players_at_table)
    checked = _checked_history(history)
    counts = meeting_counts(checked)
    last_round = {
        frozenset((first, second))
        for table in (checked[-1] if checked else ())
        for index, first in enumerate(table)
        for second in table[index + 1 :]
    }
    return _table_flags(
        players,
        number=number,
        times_met=lambda first, second: counts.get(frozenset((first, second)), 0),
        met_last_round=lambda first, second: frozenset((first, second)) in last_round,
        clubs=clubs,
        fixed_tables=fixed_tables,
        avoid_same_club=avoid_same_club,
        four_turns=_four_table_turns(checked),
        names=names,
    )


# --- input checks -----------------------------------------------------------------------------


def _checked_players(players: object) -> list[SeatingPlayer]:
    if isinstance(players, str | bytes | Mapping) or not isinstance(players, Iterable):
        raise SheetError(
            f"players must be a list of players, got {shown(players)}", field="players"
        )
    checked = []
    seen: set[str] = set()
    for entry in players:
        player_id = getattr(entry, "id", None)
        if not isinstance(player_id, str) or not player_id:
            raise SheetError(
                f"players: an id must be a non-empty text, got {shown(player_id)}", field="players"
            )
        if player_id in seen:
            raise SheetError(f"players: {shown(player_id)} is listed twice", field="players")
        seen.add(player_id)
        club = getattr(entry, "club", None)
        if club is not None and not isinstance(club, str):
            raise SheetError(
                f"players: the club of {shown(player_id)} must be a text or null, "
                f"got {shown(club)}",
                field="players",
            )
        score = getattr(entry, "score", 0.0)
        if (
            isinstance(score, bool)
            or not isinstance(score, int | float)
            or not math.isfinite(score)
        ):
            raise SheetError(
                f"players: the score of {shown(player_id)} must be a number, got {shown(score)}",
                field="players",
            )
        fixed = getattr(entry, "fixed_table", None)
        if fixed is not None and (isinstance(fixed, bool) or not isinstance(fixed, int)):
            raise SheetError(
                f"players: the fixed_table of {shown(player_id)} must be a table number or "
                f"null, got {shown(fixed)}",
                field="players",
            )
        name = getattr(entry, "name", None)
        if name is not None and not isinstance(name, str):
            raise SheetError(
                f"players: the name of {shown(player_id)} must be a text or null, "
                f"got {shown(name)}",
                field="players",
            )
        checked.append(
            SeatingPlayer(id=player_id, club=club, score=float(score), fixed_table=fixed, name=name)
        )
    return checked


def _check_fixed_tables(players: Sequence[SeatingPlayer], sizes: Sequence[int]) -> None:
    count = len(players)
    tables = len(sizes)
    fours = sizes.count(4)
    at_table: dict[int, list[str]] = {}
    for player in players:
        if player.fixed_table is None:
            continue
        if not 1 <= player.fixed_table <= tables:
            raise SheetError(
                gettext_noop(
                    "players: %(player)s has fixed_table %(fixed)s, but the tables are "
                    "numbered 1-%(tables)s"
                ),
                field="players",
                player=shown(player.id),
                fixed=player.fixed_table,
                tables=tables,
            )
        at_table.setdefault(player.fixed_table, []).append(player.id)
    full = []
    for number, ids in sorted(at_table.items()):
        if len(ids) > 4:
            raise SheetError(
                gettext_noop(
                    "players: too many players are fixed to table %(table)s (%(players)s): "
                    "a table seats at most 4"
                ),
                field="players",
                table=number,
                players=", ".join(ids),
            )
        if len(ids) == 4:
            full.append(number)
    if len(full) > fours:
        if fours == 0:
            raise SheetError(
                gettext_noop(
                    "players: table %(table)s has 4 fixed players, but the number of players "
                    "(%(count)s) gives tables of 3 only"
                ),
                field="players",
                table=full[0],
                count=count,
            )
        listed = ", ".join(str(number) for number in full)
        raise SheetError(
            gettext_noop(
                "players: tables %(tables)s each have 4 fixed players, but the number of "
                "players (%(count)s) gives only this many tables of 4: %(fours)s"
            ),
            field="players",
            tables=listed,
            count=count,
            fours=fours,
        )


# --- the search -------------------------------------------------------------------------------


class _Schedule:
    """The working state: rounds of tables of player indices, with the meeting counts over
    history and every round held, and the cumulative 4-table turns after each round.

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
    ) -> None:
        self.n = count
        self.club = club  # club index per player, -1 without one or when clubs do not matter
        self.has_clubs = any(key >= 0 for key in club)
        self.rank = rank  # swiss: 0 for the top of the standings
        self.by_rank = sorted(range(count), key=rank.__getitem__) if rank is not None else None
        self.fixed = fixed
        self.base_meet = base_meet  # meetings in history, flat n × n
        self.meet = list(base_meet)  # ... and in every round held here but the history round
        self.turns = turns  # 4-table turns over history
        self.tables: list[list[list[int]]] = []
        self.table_of: list[list[int]] = []
        self.four_after: list[list[int]] = []
        self.history_rounds = 0  # 1 when the last history round leads the rounds
        self.first_free = 0
        self.reserved: list[list[int]] = []  # tables of 4 planned for rounds not yet added
        self.fours_locked = False  # while later rounds' tables of 4 are planned: no turn moves
        self.bad: set[tuple[int, int]] = set()

    # rounds

    def turns_before(self, round_index: int) -> list[int]:
        return self.four_after[round_index - 1] if round_index > 0 else self.turns

    def add_history_round(self, tables: list[list[int]]) -> None:
        self.tables.append(tables)
        self.table_of.append(self._table_of(tables))
        self.four_after.append(self.turns)
        self.history_rounds = self.first_free = 1

    def add_round(self, tables: list[list[int]]) -> None:
        after = list(self.turns_before(len(self.tables)))
        for table in tables:
            self._count_meetings(table, 1)
            if len(table) == 4:
                for player in table:
                    after[player] += 1
        self.tables.append(tables)
        self.table_of.append(self._table_of(tables))
        self.four_after.append(after)

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
        """Meeting counts and 4-table turns from scratch (after restoring a snapshot)."""
        self.meet = list(self.base_meet)
        for round_index in range(self.history_rounds, len(self.tables)):
            for table in self.tables[round_index]:
                self._count_meetings(table, 1)
        for table in self.reserved:
            self._count_meetings(table, 1)
        for round_index in range(self.history_rounds, len(self.tables)):
            after = list(self.turns_before(round_index))
            for table in self.tables[round_index]:
                if len(table) == 4:
                    for player in table:
                        after[player] += 1
            self.four_after[round_index] = after
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

    def fair_swap(self, round_index: int, first: int, second: int) -> bool:
        """A swap between a table of 4 and a table of 3 keeps the 4-table rotation fair when the
        one leaving the table of 4 has, after every round from this one on, more turns than the
        one taking his place."""
        where = self.table_of[round_index]
        tables = self.tables[round_index]
        size_a, size_b = len(tables[where[first]]), len(tables[where[second]])
        if size_a == size_b:
            return True
        if self.fours_locked:
            return False
        leaving, joining = (first, second) if size_a == 4 else (second, first)
        return all(
            self.four_after[later][leaving] > self.four_after[later][joining]
            for later in range(round_index, len(self.tables))
        )

    def exchange_round(self, round_index: int, first: int, second: int) -> int | None:
        """For an unfair swap between a table of 4 and a table of 3: the nearest other free round
        where the two sit the other way round, such that swapping them in both rounds (they
        exchange their turns at a table of 4) keeps the rotation fair; None if there is none."""
        where = self.table_of[round_index]
        tables = self.tables[round_index]
        if len(tables[where[first]]) == 4:
            leaving, joining = first, second
        else:
            leaving, joining = second, first
        later = round_index
        while later + 1 < len(self.tables):
            if self.four_after[later][leaving] <= self.four_after[later][joining]:
                break
            later += 1
            where_later, tables_later = self.table_of[later], self.tables[later]
            if (
                len(tables_later[where_later[joining]]) == 4
                and len(tables_later[where_later[leaving]]) == 3
            ):
                return later
        earlier = round_index
        while earlier - 1 >= self.first_free:
            earlier -= 1
            if self.four_after[earlier][joining] <= self.four_after[earlier][leaving]:
                break
            where_earlier, tables_earlier = self.table_of[earlier], self.tables[earlier]
            if (
                len(tables_earlier[where_earlier[joining]]) == 4
                and len(tables_earlier[where_earlier[leaving]]) == 3
            ):
                return earlier
        return None

    def exchange_delta(self, round_index: int, first: int, second: int, other_round: int) -> int:
        """The cost change of swapping two players in two rounds."""
        delta = self.swap_delta(round_index, first, second)
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
            leaving, joining = (first, second) if size_a == 4 else (second, first)
            for later in range(round_index, len(self.tables)):
                self.four_after[later][leaving] -= 1
                self.four_after[later][joining] += 1
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

    # moves

    def candidates(
        self, round_index: int, player: int, rng: random.Random, window: int | None
    ) -> Iterable[int]:
        if window is not None and self.by_rank is not None:
            assert self.rank is not None
            position = self.rank[player]
            return self.by_rank[max(0, position - window) : position + window + 1]
        if self.n <= FULL_SCAN_PLAYERS:
            return range(self.n)
        return rng.sample(range(self.n), SAMPLE_SIZE)

    def best_move(
        self,
        round_index: int,
        movers: Iterable[int],
        rng: random.Random,
        window: int | None,
        allowed: Callable[[int, int, int], bool],
        candidates: Iterable[int] | None = None,
    ) -> tuple[int, int, int, int | None] | None:
        """The best swap of a mover with a player at another table (ties broken at random):
        (cost change, mover, other player, the other round of a turn exchange or None)."""
        where = self.table_of[round_index]
        tables = self.tables[round_index]
        fixed = self.fixed
        meet, n, club = self.meet, self.n, self.club
        clubs = self.has_clubs
        before = self.table_of[round_index - 1] if round_index > 0 else None
        after = self.table_of[round_index + 1] if round_index + 1 < len(self.table_of) else None
        several = len(self.tables) - self.first_free > 1
        rank = self.rank

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
                    if (
                        before is not None
                        and before[player] >= 0
                        and before[player] == before[other]
                    ):
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
                else self.candidates(round_index, first, rng, window)
            )
            for second in pool:
                there = where[second]
                if fixed[second] or there == home or there < 0:
                    continue
                table_b = tables[there]
                other_round = None
                if len(table_a) != len(table_b) and not self.fair_swap(round_index, first, second):
                    if not several:
                        continue
                    other_round = self.exchange_round(round_index, first, second)
                    if other_round is None:
                        continue
                    delta = self.exchange_delta(round_index, first, second, other_round)
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
                        delta += self._spread_change(table_a, table_b, first, second)
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
        self, table_a: list[int], table_b: list[int], first: int, second: int
    ) -> int:
        rank = self.rank
        assert rank is not None
        ranks_a = [rank[second] if player == first else rank[player] for player in table_a]
        ranks_b = [rank[first] if player == second else rank[player] for player in table_b]
        new = max(ranks_a) - min(ranks_a) + max(ranks_b) - min(ranks_b)
        old_a = [rank[player] for player in table_a]
        old_b = [rank[player] for player in table_b]
        return new - (max(old_a) - min(old_a) + max(old_b) - min(old_b))

    def movers(self, round_index: int, rng: random.Random) -> list[int]:
        """The movable players of a round who are in a repeat or a club clash there (at a few of
        its tables in conflict, drawn at random, when there are many)."""
        meet, n = self.meet, self.n
        movers = []
        numbers = [number for bad_round, number in sorted(self.bad) if bad_round == round_index]
        if len(numbers) > MOVER_TABLES:
            numbers = rng.sample(numbers, MOVER_TABLES)
        for number in numbers:
            table = self.tables[round_index][number]
            for player in table:
                if self.fixed[player]:
                    continue
                for other in table:
                    if other != player and self.pair_cost(
                        round_index, player, other, meet[player * n + other] - 1
                    ):
                        movers.append(player)
                        break
        return movers

    def repair(
        self,
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
        self.refresh_all()
        current = best = 0
        best_snapshot: list[list[list[int]]] | None = None
        at_best = True
        since_best = 0
        tabu: dict[tuple[int, int, int], int] = {}
        tenure_top = min(TENURE_HIGH, 3 + self.n // 4)
        if self.has_clubs and self.settled():
            return
        for step in range(max_steps):
            if not self.bad or since_best > patience:
                break
            round_index = rng.choice(sorted({bad_round for bad_round, _ in self.bad}))
            movers = self.movers(round_index, rng)

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

            move = self.best_move(round_index, movers, rng, window, allowed)
            if (move is None or move[0] >= 0) and window is None and self.n > FULL_SCAN_PLAYERS:
                move = (
                    self.best_move(round_index, movers, rng, None, allowed, range(self.n)) or move
                )
            since_best += 1
            if move is None:
                continue
            delta, first, second, other_round = move
            if at_best and delta > 0:
                best_snapshot = self.snapshot()
            self.swap(round_index, first, second)
            tenure = rng.randint(TENURE_LOW, tenure_top)
            pair = (first, second) if first < second else (second, first)
            if other_round is not None:
                self.swap(other_round, first, second)
                tabu[(other_round, *pair)] = step + tenure
            current += delta
            tabu[(round_index, *pair)] = step + tenure
            if current < best:
                best, since_best = current, 0
                at_best, best_snapshot = True, None
                if self.has_clubs and self.settled():
                    break
            else:
                at_best = current == best
        if not at_best and best_snapshot is not None:
            self.restore(best_snapshot)

    def polish_spread(self, rng: random.Random, *, window: int, passes: int = 8) -> None:
        """Swiss: swap the top or bottom player of a spread-out table with a nearby player while
        that lowers the cost (never at the price of a repeat or a club clash)."""
        for _ in range(passes):
            improved = False
            for round_index in range(self.first_free, len(self.tables)):
                for table in self.tables[round_index]:
                    if self.spread(table) <= 0:
                        continue
                    assert self.rank is not None
                    ends = {
                        min(table, key=self.rank.__getitem__),
                        max(table, key=self.rank.__getitem__),
                    }
                    movers = [player for player in sorted(ends) if not self.fixed[player]]
                    move = self.best_move(
                        round_index, movers, rng, window, lambda _a, _b, delta: delta < 0
                    )
                    if move is not None:
                        self.swap(round_index, move[1], move[2])
                        improved = True
            if not improved:
                break


# --- building a round -------------------------------------------------------------------------


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


# --- stored designs ---------------------------------------------------------------------------


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


# --- planning ---------------------------------------------------------------------------------


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


def _new_round(
    schedule: _Schedule,
    setting: _Setting,
    rng: random.Random,
    fours: list[list[int]] | None = None,
) -> list[list[int]]:
    if setting.mode == "swiss":
        return _swiss_round(schedule, setting, rng, fours)
    return _drawn_round(schedule, setting, rng, fours)


def _plan_round(
    schedule: _Schedule,
    setting: _Setting,
    rng: random.Random,
    fours: list[list[int]] | None = None,
) -> None:
    """Add one round: built for its mode, then repaired (and, in swiss, tightened)."""
    keep = schedule.first_free
    schedule.first_free = len(schedule.tables)
    later: list[list[int]] = []
    if fours is None:
        planned = _due_fours(schedule, setting, rng)
        if planned is not None:
            fours, later = planned
            schedule.reserve(later)
            schedule.fours_locked = True
    schedule.add_round(_new_round(schedule, setting, rng, fours))
    count = schedule.n
    if setting.mode == "swiss":
        for window, patience in ((6, 60 + count // 4), (18, 60 + count // 4), (None, 150 + count)):
            schedule.repair(rng, window=window, patience=patience)
            if not schedule.bad:
                break
        schedule.polish_spread(rng, window=6)
    else:
        schedule.repair(rng, patience=100 + count)
    if later:
        schedule.release(later)
        schedule.fours_locked = False
    schedule.first_free = keep


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


def _due_fours(
    schedule: _Schedule, setting: _Setting, rng: random.Random
) -> tuple[list[list[int]], list[list[int]]] | None:
    """Near the end of a turn at the tables of 4 (everyone once), the last players due have to
    sit together at the tables of 4 of the next rounds. Plan those tables now, so that nobody in
    them has met (and the rounds before keep them apart): the tables of 4 of this round, and
    those of the next rounds to keep free of meetings. None when not near the end of a turn, with
    fixed tables, or when no such plan is found."""
    fours = setting.sizes.count(4)
    seats = 4 * fours
    if not fours or setting.fixed_at:
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
        sizes = [4] * (fours * (1 + rest // seats))
        tail = rest % seats
        while tail:
            sizes.append(min(4, tail))
            tail -= sizes[-1]
        groups = _fresh_groups(due, sizes, fresh, rng)
        if groups is None:
            return None
        full = [group for group in groups if len(group) == 4]
        if rank is not None:
            full.sort(key=lambda group: max(rank[p] for p in group) - min(rank[p] for p in group))
        now = full[:fours]
        return now, [group for group in groups if all(group is not chosen for chosen in now)]
    # Fewer due players than seats: all players below the turn level sit at the tables of 4 now,
    # with players at the level who have met none of them.
    level = _level(turns, seats)
    must = [player for player in range(schedule.n) if turns[player] < level]
    others = [player for player in range(schedule.n) if turns[player] == level]
    rng.shuffle(others)
    if rank is not None:
        middle = sum(rank[p] for p in must) / len(must)
        others.sort(key=lambda player: abs(rank[player] - middle))
    for _ in range(8):
        sizes = [4] * fours
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
        if all(len(group) == 4 for group in groups):
            return groups, []
    return None


EXACT_PLAYERS = 90  # up to this many players, mix also looks for whole rounds without a repeat
EXACT_NODES = 2000
DUE_PLAN_PLAYERS = 28  # tables of 4 are planned ahead once this few players are still due


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
        schedule.repair(rng, patience=patience, max_steps=20_000)


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


def _plan(
    schedule: _Schedule, setting: _Setting, rounds: int, rng: random.Random, *, history: bool
) -> None:
    if setting.mode == "mix":
        _plan_mix(schedule, setting, rounds, rng, history=history)
    else:
        _plan_round(schedule, setting, rng)


def _check_options(mode: object, seed: object, avoid_same_club: object, rounds: object) -> None:
    if mode not in MODES:
        raise SheetError(f"mode must be one of {', '.join(MODES)}, got {shown(mode)}", field="mode")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SheetError(f"seed must be a whole number, got {shown(seed)}", field="seed")
    if not isinstance(avoid_same_club, bool):
        raise SheetError(
            f"avoid_same_club must be true or false, got {shown(avoid_same_club)}",
            field="avoid_same_club",
        )
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise SheetError(
            f"rounds must be a whole number of at least 1, got {shown(rounds)}", field="rounds"
        )
    if rounds > MAX_PLAN_ROUNDS:
        raise SheetError(
            f"rounds: at most {MAX_PLAN_ROUNDS} rounds are planned at once, got {shown(rounds)}",
            field="rounds",
        )
    if rounds > 1 and mode != "mix":
        raise SheetError(
            f"rounds: only mode mix plans more than one round at once, got {rounds} rounds "
            f"for mode {mode}",
            field="rounds",
        )


def seat_players(
    players: Iterable[SeatingPlayer],
    *,
    mode: str = "random",
    seed: int = 0,
    avoid_same_club: bool = False,
    rounds: int = 1,
    history: Iterable[Iterable[Iterable[str]]] = (),
    table_size: int = 3,  # TEMPORARY until the engine-seating branch lands
) -> SeatingPlan:
    """Seat `players` for the next round (or, in mode mix, the next `rounds` rounds), given the
    earlier rounds in `history` (each a sequence of tables of player ids; players no longer
    present are ignored). The same input and seed always give the same plan."""
    _check_options(mode, seed, avoid_same_club, rounds)
    ordered = sorted(_checked_players(players), key=lambda player: player.id)
    sizes = table_sizes(len(ordered))
    _check_fixed_tables(ordered, sizes)
    past = _checked_history(history)
    # The same seed round after round must not draw the same round again: the round counts too.
    rng = random.Random(f"{seed}/{len(past)}")
    count = len(ordered)
    index = {player.id: position for position, player in enumerate(ordered)}

    club_keys: dict[str, int] = {}
    club = [-1] * count
    if avoid_same_club:
        for position, player in enumerate(ordered):
            key = _club_key(player.club)
            if key is not None:
                club[position] = club_keys.setdefault(key, len(club_keys))
    rank = None
    if mode == "swiss":
        order = list(range(count))
        rng.shuffle(order)  # equal scores: the seed decides
        order.sort(key=lambda position: -ordered[position].score)
        rank = [0] * count
        for place, position in enumerate(order):
            rank[position] = place
    fixed_at: dict[int, list[int]] = {}
    for position, player in enumerate(ordered):
        if player.fixed_table is not None:
            fixed_at.setdefault(player.fixed_table - 1, []).append(position)

    base_meet = [0] * (count * count)
    turns = [0] * count
    for tables in past:
        for table in tables:
            present = [index[player] for player in table if player in index]
            for at, first in enumerate(present):
                for second in present[at + 1 :]:
                    base_meet[first * count + second] += 1
                    base_meet[second * count + first] += 1
            if len(table) >= 4:
                for player in present:
                    turns[player] += 1
    schedule = _Schedule(
        count,
        club=club,
        rank=rank,
        fixed=[player.fixed_table is not None for player in ordered],
        base_meet=base_meet,
        turns=turns,
    )
    if past:
        schedule.add_history_round(
            [[index[player] for player in table if player in index] for table in past[-1]]
        )
    setting = _Setting(mode=mode, sizes=sizes, fixed_at=fixed_at)
    _plan(schedule, setting, rounds, rng, history=bool(past))
    return _assemble(schedule, ordered, past, avoid_same_club, rng, seed)


def _assemble(
    schedule: _Schedule,
    ordered: Sequence[SeatingPlayer],
    past: Sequence[Sequence[Sequence[str]]],
    avoid_same_club: bool,
    rng: random.Random,
    seed: int,
) -> SeatingPlan:
    """The plan with seat orders (drawn), flags and warnings."""
    count = len(ordered)
    ids = [player.id for player in ordered]
    index = {player_id: position for position, player_id in enumerate(ids)}
    clubs = {player.id: player.club for player in ordered}
    fixed_tables = {player.id: player.fixed_table for player in ordered}
    names = {player.id: player.name or player.id for player in ordered}
    met = list(schedule.base_meet)
    turns = list(schedule.turns)
    last = schedule.table_of[0] if schedule.history_rounds else [-1] * count
    planned_rounds = []
    warnings = []
    for offset, tables in enumerate(schedule.tables[schedule.history_rounds :]):
        round_number = len(past) + offset + 1
        seated = []
        for number, table in enumerate(tables, start=1):
            seats = list(table)
            rng.shuffle(seats)
            players = tuple(ids[player] for player in seats)
            flags = _table_flags(
                players,
                number=number,
                times_met=lambda first, second: met[index[first] * count + index[second]],
                met_last_round=lambda first, second, last=last: (
                    last[index[first]] >= 0 and last[index[first]] == last[index[second]]
                ),
                clubs=clubs,
                fixed_tables=fixed_tables,
                avoid_same_club=avoid_same_club,
                four_turns={ids[player]: turns[player] for player in seats},
                names=names,
            )
            seated.append(SeatedTable(number=number, players=players, flags=flags))
            warnings += [
                f"round {round_number}, table {number}: {flag.detail}"
                for flag in flags
                if flag.code in (REPEAT_MEETING, SAME_CLUB)
                or (flag.code == FIXED_TABLE and "must" in flag.detail)
            ]
        warnings += _unfair_fours(
            tables, turns, ids, round_number, labels=[names[player_id] for player_id in ids]
        )
        planned_rounds.append(tuple(seated))
        for table in tables:
            for at, first in enumerate(table):
                for second in table[at + 1 :]:
                    met[first * count + second] += 1
                    met[second * count + first] += 1
            if len(table) == 4:
                for player in table:
                    turns[player] += 1
        last = [-1] * count
        for number, table in enumerate(tables):
            for player in table:
                last[player] = number
    return SeatingPlan(rounds=tuple(planned_rounds), warnings=tuple(warnings), seed=seed)


def _unfair_fours(
    tables: Sequence[Sequence[int]],
    turns: Sequence[int],
    ids: Sequence[str],
    round_number: int,
    *,
    labels: Sequence[str],
) -> list[str]:
    """A warning for each player at a table of 4 while someone with fewer turns sits at a table
    of 3 (only fixed tables can force it)."""
    at_three = [player for table in tables if len(table) == 3 for player in table]
    if not at_three:
        return []
    fewest = min(at_three, key=lambda player: (turns[player], ids[player]))
    return [
        f"round {round_number}: {labels[player]} sits at a table of 4 for the "
        f"{ordinal(turns[player] + 1)} time while {labels[fewest]} has sat at one "
        f"{_plural(turns[fewest], 'time')}"
        for table in tables
        if len(table) == 4
        for player in table
        if turns[player] > turns[fewest]
    ]


# --- the JSON contract of `python -m engine seat` ---------------------------------------------

SEAT_FIELDS = frozenset({"mode", "seed", "avoid_same_club", "rounds", "players", "history"})
PLAYER_FIELDS = frozenset({"id", "club", "score", "fixed_table"})


def _player_from_json(data: object, number: int) -> SeatingPlayer:
    where = f"players: entry {number}"
    if not isinstance(data, dict):
        raise SheetError(f"{where} must be a JSON object, got {shown(data)}", field="players")
    for name in data:
        if name not in PLAYER_FIELDS:
            raise SheetError(f"{where}: unknown field {shown(name)}", field="players")
    if "id" not in data:
        raise SheetError(f"{where}: id is missing", field="players")
    score = data.get("score", 0.0)
    if score is None:
        score = 0.0
    return SeatingPlayer(
        id=data["id"],
        club=data.get("club"),
        score=score,
        fixed_table=data.get("fixed_table"),
    )


def seat_json(data: object) -> dict[str, Any]:
    """Seat from the command line's JSON (parsed); raises `SheetError` on bad input."""
    if not isinstance(data, dict):
        raise SheetError(f"the input must be a JSON object, got {shown(data)}", field="input")
    for name in data:
        if name not in SEAT_FIELDS:
            raise SheetError(f"unknown field {shown(name)}", field=str(name))
    if "players" not in data:
        raise SheetError("players is missing", field="players")
    players = data["players"]
    if not isinstance(players, list):
        raise SheetError(f"players must be a list, got {shown(players)}", field="players")
    history = data.get("history", [])
    if history is None:
        history = []
    plan = seat_players(
        [_player_from_json(entry, number) for number, entry in enumerate(players, start=1)],
        mode=data.get("mode", "random"),
        seed=data.get("seed", 0),
        avoid_same_club=data.get("avoid_same_club", False),
        rounds=data.get("rounds", 1),
        history=history,
    )
    return {
        "rounds": [[list(table.players) for table in tables] for tables in plan.rounds],
        "warnings": list(plan.warnings),
    }
