"""A table's sheet for one round: the deals in order, with dealer rotation, pules and settlement.

This is the paper sheet the referee keeps. `score_sheet` reads it from the first entry to the
last, remembering the open pules, and gives every entry's points and running totals, the
end-of-round settlement and the final totals. Every entry and the settlement sum to zero.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from engine.deals import PenaltyPule, Play, SheetLine, base_scores, validate_entry
from engine.errors import SheetError, gettext_noop, shown
from engine.rules import (
    COMMON_PULE_UNIT,
    MAX_PENALTY_PULES,
    SETTLEMENT_UNIT,
    TABLE_SIZES,
    Game,
    Rules,
)


class PuleEvent(StrEnum):
    """What an entry did to the pules, for the sheet's pule marks."""

    # everyone passed (and played galdiņš, under galdins_pule): one or two common pules
    COMMON_WRITTEN = "common_written"
    OWN_COLLECTED = "own_collected"  # a won Lielais crossed out his own personal pule
    COMMON_COLLECTED = "common_collected"  # a won Lielais took a common pule
    PERSONAL_COLLECTED = "personal_collected"  # a won Lielais took another's oldest personal pule
    PERSONAL_WRITTEN = "personal_written"  # a lost Lielais while a pule was open
    PENALTY = "penalty"  # the referee gave a personal pule


@dataclass(frozen=True, slots=True)
class Sheet:
    """One table's round: players in seat order (each sits to the left of the previous one)."""

    players: tuple[str, ...]
    entries: tuple[SheetLine, ...] = ()
    rules: Rules = field(default_factory=Rules)
    first_dealer: str | None = None  # the first player when not given
    closed: bool = True  # apply the end-of-round settlement

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "entries", tuple(self.entries))
        validate_players(self.players)
        if self.first_dealer is not None and self.first_dealer not in self.players:
            raise SheetError(
                gettext_noop("first_dealer %(player)s is not one of the players"),
                field="first_dealer",
                player=shown(self.first_dealer),
            )

    @property
    def first_dealer_seat(self) -> int:
        return self.players.index(self.first_dealer) if self.first_dealer is not None else 0


def validate_players(players: Sequence[str]) -> None:
    if len(players) not in TABLE_SIZES:
        raise SheetError(
            gettext_noop("players: a table seats 3 or 4 players, got %(count)s"),
            field="players",
            count=len(players),
        )
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise SheetError(
                gettext_noop("players: every player needs a name, got %(value)s"),
                field="players",
                value=shown(name),
            )
    if len(set(players)) != len(players):
        raise SheetError(
            gettext_noop("players: each name may sit at the table once"), field="players"
        )


def dealer_for(players: Sequence[str], first_dealer: str | None, deal_index: int) -> str:
    """The dealer of the deal with this 0-based index: the deal passes to the left every deal,
    passed deals included; penalties use no deal and do not count."""
    start = players.index(first_dealer) if first_dealer is not None else 0
    return players[(start + deal_index) % len(players)]


@dataclass(frozen=True, slots=True)
class ScoredDeal:
    """One scored entry of the sheet. Rows are in the sheet's seat order."""

    players: tuple[str, ...]
    entry: SheetLine
    number: int | None  # 1-based deal number; a penalty uses no deal
    dealer: str | None
    score_row: tuple[int, ...]
    total_row: tuple[int, ...]  # running totals after this entry
    common_pules: int  # open after this entry
    personal_pule_row: tuple[int, ...]  # each player's open personal pules after this entry
    pule_event: PuleEvent | None = None
    pule_owner: str | None = None  # whose personal pule was written, given or collected
    common_written: int = 0  # common pules this entry wrote (two at once at a table of 4 may)

    @property
    def scores(self) -> dict[str, int]:
        return dict(zip(self.players, self.score_row, strict=True))

    @property
    def totals(self) -> dict[str, int]:
        return dict(zip(self.players, self.total_row, strict=True))

    @property
    def personal_pules(self) -> dict[str, int]:
        return dict(zip(self.players, self.personal_pule_row, strict=True))

    @property
    def sitting_out(self) -> str | None:
        return self.dealer if len(self.players) == 4 else None


@dataclass(frozen=True, slots=True)
class ScoredSheet:
    players: tuple[str, ...]
    deals: tuple[ScoredDeal, ...]
    settlement: dict[str, int]  # all zeros unless the sheet is closed
    totals: dict[str, int]  # after the settlement
    open_common_pules: int  # after the last entry, before the settlement
    open_personal_pules: dict[str, int]
    deals_played: int  # entries that used a deal (penalties do not)
    next_dealer: str  # who deals the next deal

    @property
    def zero_sum(self) -> bool:
        return sum(self.totals.values()) == 0


def settle_round(personal_pules: Mapping[str, int], players: Sequence[str]) -> dict[str, int]:
    """End of the round: each open personal pule costs its owner 1 point to every other seated
    player. Common pules still open lapse and move no points."""
    settlement = dict.fromkeys(players, 0)
    for owner, count in personal_pules.items():
        if count:
            for name in players:
                if name == owner:
                    settlement[name] -= SETTLEMENT_UNIT * count * (len(players) - 1)
                else:
                    settlement[name] += SETTLEMENT_UNIT * count
    return settlement


def score_sheet(sheet: Sheet) -> ScoredSheet:
    """Score every entry of a sheet in order; raise `SheetError` naming the first bad deal."""
    players = sheet.players
    rules = sheet.rules
    size = len(players)
    seat_of = {name: seat for seat, name in enumerate(players)}
    dealer_seat = sheet.first_dealer_seat
    totals = [0] * size
    common = 0
    personal_counts = [0] * size
    personal_queue: list[int] = []  # owners' seats, oldest pule first
    penalties = [0] * size  # penalty pules given this round, collected or not
    scored: list[ScoredDeal] = []
    deals_played = 0

    for number, entry in enumerate(sheet.entries, start=1):
        event: PuleEvent | None = None
        owner: int | None = None
        written = 0
        if isinstance(entry, PenaltyPule):
            try:
                validate_entry(entry, players=players, dealer=None, rules=rules)
            except SheetError as error:
                raise error.at_deal(number) from None
            owner = seat_of[entry.player]
            if penalties[owner] == MAX_PENALTY_PULES:
                raise SheetError(
                    gettext_noop(
                        "player %(player)s already has %(most)s penalty pules: at most %(most)s "
                        "per player per round"
                    ),
                    deal=number,
                    field="player",
                    player=entry.player,
                    most=MAX_PENALTY_PULES,
                )
            penalties[owner] += 1
            personal_queue.append(owner)
            personal_counts[owner] += 1
            scores = [0] * size
            event = PuleEvent.PENALTY
            dealer = None
        else:
            dealer = players[dealer_seat]
            try:
                validate_entry(entry, players=players, dealer=dealer, rules=rules)
            except SheetError as error:
                raise error.at_deal(number) from None
            scores = base_scores(entry, players, rules)
            # Only everyone passing (galdiņš too, under galdins_pule) and Lielais touch the pules;
            # zole and mazā zole never do.
            if entry.game in (Game.PASS, Game.GALDINS):
                if rules.pules:
                    written = rules.common_pules_written(
                        size, pule_open=bool(common or personal_queue)
                    )
                    common += written
                    event = PuleEvent.COMMON_WRITTEN
            elif rules.pules and isinstance(entry, Play) and entry.game is Game.LIELAIS:
                declarer = seat_of[entry.declarer]
                if scores[declarer] > 0:  # a won Lielais collects one pule
                    if personal_counts[declarer]:
                        personal_queue.remove(declarer)  # his oldest one
                        personal_counts[declarer] -= 1
                        event, owner = PuleEvent.OWN_COLLECTED, declarer
                    elif common:
                        common -= 1
                        for seat in range(size):
                            scores[seat] -= COMMON_PULE_UNIT
                        scores[declarer] += COMMON_PULE_UNIT * size
                        event = PuleEvent.COMMON_COLLECTED
                    elif personal_queue:
                        owner = personal_queue.pop(0)
                        personal_counts[owner] -= 1
                        payment = rules.personal_pule_units(size)
                        scores[owner] -= payment
                        scores[declarer] += payment
                        event = PuleEvent.PERSONAL_COLLECTED
                elif common or personal_queue:  # a lost Lielais while any pule is open
                    personal_queue.append(declarer)
                    personal_counts[declarer] += 1
                    event, owner = PuleEvent.PERSONAL_WRITTEN, declarer
            dealer_seat = (dealer_seat + 1) % size
            deals_played += 1
        for seat in range(size):
            totals[seat] += scores[seat]
        scored.append(
            ScoredDeal(
                players=players,
                entry=entry,
                number=deals_played if dealer is not None else None,
                dealer=dealer,
                score_row=tuple(scores),
                total_row=tuple(totals),
                common_pules=common,
                personal_pule_row=tuple(personal_counts),
                pule_event=event,
                pule_owner=players[owner] if owner is not None else None,
                common_written=written,
            )
        )

    open_personal = dict(zip(players, personal_counts, strict=True))
    # An open sheet (round still in play) is not settled yet.
    settlement = settle_round(open_personal if sheet.closed else {}, players)
    return ScoredSheet(
        players=players,
        deals=tuple(scored),
        settlement=settlement,
        totals={name: totals[seat] + settlement[name] for seat, name in enumerate(players)},
        open_common_pules=common,
        open_personal_pules=open_personal,
        deals_played=deals_played,
        next_dealer=players[dealer_seat],
    )
