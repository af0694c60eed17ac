"""The one shape of a table's sheet (`TableSheet`): what the entry page, the phone's state, the
services' checks under the table's lock and the public sheet all read.

Every score, running total, pule and settlement comes from the engine (`engine.score_sheet`
through `scoring.sheet.lines`); this module only lines the engine's rows up with the stored
entries and the players' names. Nothing here computes a score or reads the database: the reader
(`scoring.sheet.reader`) reads, `build_sheet` shapes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from core.engine_text import GAME_WORDS, error_text
from engine import Rules, ScoredDeal, ScoredSheet, Sheet, SheetError, dealer_for, score_sheet
from scoring.models import DealResult, EntryKind, TableResult
from scoring.sheet.lines import (
    current_results,
    deal_limit,
    deals_played,
    engine_sheet,
    sheet_is_closed,
    sheet_line,
)
from tournaments.models import Registration, Round, RoundStatus, Seat, Table, Tournament
from tournaments.round_clock import RoundClock
from tournaments.rule_set import RuleSet

OPEN_ROUND = (RoundStatus.PUBLISHED, RoundStatus.IN_PLAY)


@dataclass(frozen=True)
class SheetPlayer:
    """A column of the sheet: one seated player."""

    key: str  # the engine's key: the registration id as text
    registration: Registration
    seat: int  # 1-based, in seat order
    name: str
    short_name: str  # for a phone: "Jānis B."
    initials: str  # the column heading on a phone: "JB"


@dataclass(frozen=True)
class SheetCell:
    """One player's box in one row."""

    player: SheetPlayer
    score: int | None  # None when the stored sheet does not score (see TableSheet.error)
    total: int | None  # running total after this entry
    personal_pules: int  # his open personal pules after this entry
    is_dealer: bool
    sits_out: bool  # the dealer at a 4-table
    is_declarer: bool  # the declarer, or the player given a penalty pule


@dataclass(frozen=True)
class SheetRow:
    """One entry of the sheet (a deal or a penalty pule), its newest version."""

    result: DealResult
    number: int | None  # the deal number; a penalty uses no deal
    game_words: Promise
    dealer: SheetPlayer | None
    sitting_out: SheetPlayer | None
    declarer: SheetPlayer | None  # or the player given a penalty pule
    galdins: tuple[tuple[SheetPlayer, int | None, int | None], ...]  # player, tricks, points
    cells: tuple[SheetCell, ...]
    common_pules: int | None  # open after this entry
    pule_event: str | None  # engine.sheet.PuleEvent value
    pule_owner: SheetPlayer | None

    @property
    def position(self) -> int:
        return self.result.position

    @property
    def version(self) -> int:
        return self.result.version

    @property
    def kind(self) -> str:
        return self.result.kind

    @property
    def is_penalty(self) -> bool:
        return self.result.kind == EntryKind.PENALTY

    @property
    def is_corrected(self) -> bool:
        return self.result.version > 1

    @property
    def points(self) -> int | None:
        return self.result.points

    @property
    def tricks(self) -> int | None:
        return self.result.tricks


@dataclass(frozen=True)
class Scoring:
    """What the engine made of a sheet's current entries (`scored` None: they do not score under
    the round's rules, `error` says why; each entry's dealer then follows the rotation)."""

    scored: ScoredSheet | None
    error: str | None
    entry_dealers: tuple[str | None, ...]
    next_dealer_key: str


@dataclass(frozen=True)
class TableSheet:
    """One table's sheet: its table, round, players and rules (`frame`), every version of its
    entries, its clock as it stood when the sheet was read. The engine scores it when a score is
    first read (a write under the table's lock reads the counts only; a write hands over the
    scoring it checked: `scored_open`)."""

    frame: SheetFrame  # the table, its seats and players, the rules, the confirmation
    results: tuple[DealResult, ...]  # every version, ordered by position and version
    clock: RoundClock  # the round's clock (timed rounds), as it stood when the sheet was read
    # The engine's sheet of these entries, open (no settlement), when a write scored it already.
    scored_open: ScoredSheet | None = field(default=None, compare=False, repr=False)

    @property
    def table(self) -> Table:
        return self.frame.table

    @property
    def round(self) -> Round:
        return self.frame.table.round

    @property
    def tournament(self) -> Tournament:
        return self.frame.table.round.tournament

    @property
    def rule_set(self) -> RuleSet:
        return self.frame.rule_set

    @property
    def players(self) -> tuple[SheetPlayer, ...]:
        return self.frame.players

    @property
    def result(self) -> TableResult | None:
        """The confirmation."""
        return self.frame.confirmation

    @cached_property
    def entries(self) -> tuple[DealResult, ...]:
        """The newest version of every entry, in sheet order; removed entries left out."""
        return tuple(current_results(self.results))

    @cached_property
    def deals_played(self) -> int:
        return deals_played(self.entries)

    @cached_property
    def is_closed(self) -> bool:
        """All planned deals are in, or the table was confirmed when time was up: the
        end-of-round settlement belongs on the sheet."""
        return sheet_is_closed(
            deals_played=self.deals_played,
            deals_per_round=self.deals_per_round,
            confirmation=self.result,
        )

    @cached_property
    def deal_limit(self) -> int:
        """The deals the table may have: all planned ones; once time is up, those it had then
        and the deal under way (scoring.sheet.lines.deal_limit)."""
        return deal_limit(
            self.results,
            clock=self.clock,
            deals_per_round=self.rule_set.deals_per_round,
            allowed_more=self.table.deals_allowed_after_time,
        )

    @cached_property
    def last_result_id(self) -> int:
        """Every write of the sheet stores a new DealResult (a version is never rewritten), so
        the newest result id stands for the sheet as read: the page and the phone's state carry
        it (0: none yet)."""
        return max((result.pk for result in self.results), default=0)

    @cached_property
    def confirmed_by(self) -> str | None:
        """Who confirmed the table: a player's or an account's name."""
        return confirmer_name(self.result, self.players)

    def engine_sheet(self, *, closed: bool | None = None) -> Sheet:
        """The engine's sheet of these entries (closed as the sheet is, unless `closed`)."""
        return engine_sheet(
            self.table,
            seats=self.frame.seats,
            results=self.results,
            rules=self.rules,
            closed=self.is_closed if closed is None else closed,
        )

    @cached_property
    def scoring(self) -> Scoring:
        keys = [player.key for player in self.players]
        try:
            scored = (
                self.scored_open
                if self.scored_open is not None and not self.is_closed
                else score_sheet(self.engine_sheet())
            )
        except SheetError as sheet_error:
            error = error_text(
                sheet_error,
                names={player.key: player.name for player in self.players},
                entries=[sheet_line(result) for result in self.entries],
            )
            # Unscored: the dealers still follow the rotation, so the sheet can be shown and
            # fixed.
            first_dealer = keys[self.table.first_dealer_position - 1] if keys else None
            dealers: list[str | None] = []
            deal_index = 0
            for result in self.entries:
                if result.kind == EntryKind.PENALTY:
                    dealers.append(None)
                else:
                    dealers.append(dealer_for(keys, first_dealer, deal_index))
                    deal_index += 1
            return Scoring(None, error, tuple(dealers), dealer_for(keys, first_dealer, deal_index))
        return Scoring(scored, None, (), scored.next_dealer)

    @property
    def error(self) -> str | None:
        """Why the stored entries do not score under the round's rules (None: they do)."""
        return self.scoring.error

    @property
    def scored_deals(self) -> tuple[ScoredDeal, ...] | None:
        scored = self.scoring.scored
        return tuple(scored.deals) if scored is not None else None

    @property
    def entry_dealers(self) -> tuple[str | None, ...]:
        return self.scoring.entry_dealers

    @property
    def next_dealer(self) -> SheetPlayer:
        key = self.scoring.next_dealer_key
        return next(player for player in self.players if player.key == key)

    @property
    def open_common_pules(self) -> int | None:
        scored = self.scoring.scored
        return scored.open_common_pules if scored is not None else None

    @property
    def settlement(self) -> tuple[int, ...] | None:
        """Per player in seat order, once the sheet is closed."""
        scored = self.scoring.scored
        if scored is None or not self.is_closed:
            return None
        return tuple(scored.settlement[player.key] for player in self.players)

    @property
    def totals(self) -> tuple[int, ...] | None:
        """After the settlement, once the sheet is closed."""
        scored = self.scoring.scored
        if scored is None or not self.is_closed:
            return None
        return tuple(scored.totals[player.key] for player in self.players)

    @property
    def rules(self) -> Rules:
        return self.rule_set.rules

    @property
    def deals_per_round(self) -> int:
        """The deals this table plays: its round's count for a table of its size."""
        return self.rule_set.deals_at(len(self.players))

    @cached_property
    def rows(self) -> tuple[SheetRow, ...]:
        return tuple(self._row(index) for index in range(len(self.entries)))

    def _row(self, index: int) -> SheetRow:
        if "rows" in self.__dict__:  # made already
            return self.rows[index]
        scored = self.scoring.scored
        deal = scored.deals[index] if scored is not None else None
        dealer = deal.dealer if deal is not None else self.entry_dealers[index]
        return _row(self.entries[index], deal, self.players, dealer)

    @property
    def next_position(self) -> int:
        # Only the last entry can be removed, so current positions always run 1..k.
        return len(self.entries) + 1

    @property
    def next_deal_number(self) -> int:
        return self.deals_played + 1

    @property
    def next_sitting_out(self) -> SheetPlayer | None:
        return self.next_dealer if len(self.players) == 4 else None

    @property
    def is_complete(self) -> bool:
        """Every planned deal is in."""
        return self.deals_played >= self.deals_per_round

    @property
    def at_time_limit(self) -> bool:
        """Time is up and the table has entered the deal that was under way (and any more the
        chief referee allowed): it takes no other deal."""
        return self.clock.is_up and not self.is_complete and self.deals_played >= self.deal_limit

    @property
    def deals_at_time(self) -> int:
        """The deals the table had when time was up (once it is)."""
        return self.deal_limit - 1 - self.table.deals_allowed_after_time

    @property
    def can_allow_more(self) -> bool:
        """The chief referee may let the table play more deals (time is up, deals are left)."""
        return self.accepts_entries and self.clock.is_up and self.deal_limit < self.deals_per_round

    @property
    def can_confirm_short(self) -> bool:
        """Time is up in a timed round: the table may be confirmed with the deals it has
        played, one at least (scoring.services.table_confirm decides it again)."""
        return (
            self.accepts_entries
            and not self.is_complete
            and self.clock.is_up
            and self.deals_played >= 1
        )

    @property
    def can_confirm(self) -> bool:
        return self.accepts_entries and (self.is_complete or self.can_confirm_short)

    @property
    def time_called_after(self) -> int | None:
        """The deals played, when the table was confirmed short because time was up."""
        return self.deals_played if self.result is not None and self.result.time_called else None

    @property
    def shows_clock(self) -> bool:
        """The referee sees the round clock while the table is being played in a timed round."""
        return self.clock.is_timed and self.accepts_entries

    @property
    def is_confirmed(self) -> bool:
        return self.result is not None

    @property
    def round_is_open(self) -> bool:
        return self.frame.round_is_open

    @property
    def round_is_draft(self) -> bool:
        return self.round.status == RoundStatus.DRAFT

    @property
    def accepts_entries(self) -> bool:
        return self.round_is_open and not self.is_confirmed

    @property
    def is_locked(self) -> bool:
        return not self.accepts_entries

    @property
    def last_row(self) -> SheetRow | None:
        return self._row(len(self.entries) - 1) if self.entries else None

    def row_at(self, position: int) -> SheetRow | None:
        return next((row for row in self.rows if row.position == position), None)

    def player(self, key: str) -> SheetPlayer | None:
        return self.frame.player(key)


def short_name(full_name: str) -> str:
    """First name and initials: "Jānis Bērziņš" → "Jānis B."; digits are kept whole."""
    words = full_name.split()
    if len(words) < 2:
        return full_name
    rest = [word if not word[0].isalpha() else f"{word[0]}." for word in words[1:]]
    return " ".join([words[0], *rest])


def initials(full_name: str) -> str:
    """The first letter of each name: "Jānis Bērziņš" → "JB"; digits are kept whole."""
    return "".join(word if not word[0].isalpha() else word[0].upper() for word in full_name.split())


@dataclass(frozen=True)
class ColumnNames:
    """How a column of the sheet names its player: in full, short (a phone), by initials."""

    name: str
    short_name: str
    initials: str


def column_names(full_names: Sequence[str]) -> tuple[ColumnNames, ...]:
    """The names of a table's columns, its players' `full_names` in seat order."""
    shorts = [short_name(name) for name in full_names]
    # Two "Jānis B." at one table: the full names tell them apart.
    shorts = [
        short if shorts.count(short) == 1 else name
        for name, short in zip(full_names, shorts, strict=True)
    ]
    letters = [initials(name) for name in full_names]
    # Two "JB" at one table: their seat numbers tell them apart ("JB 1", "JB 3").
    letters = [
        letter if letters.count(letter) == 1 else f"{letter} {seat}"
        for seat, letter in enumerate(letters, 1)
    ]
    return tuple(
        ColumnNames(name=name, short_name=short, initials=letter)
        for name, short, letter in zip(full_names, shorts, letters, strict=True)
    )


def sheet_players(seats: Sequence[Seat]) -> tuple[SheetPlayer, ...]:
    names = column_names([seat.registration.player.full_name for seat in seats])
    return tuple(
        SheetPlayer(
            key=str(seat.registration_id),
            registration=seat.registration,
            seat=index,
            name=named.name,
            short_name=named.short_name,
            initials=named.initials,
        )
        for index, (seat, named) in enumerate(zip(seats, names, strict=True), 1)
    )


def confirmer_name(confirmation: TableResult | None, players: Sequence[SheetPlayer]) -> str | None:
    """Who confirmed the table: a player at it (named from the seats), or an account (the chief
    referee: one query, once the table is confirmed)."""
    if confirmation is None:
        return None
    if confirmation.confirmed_by_registration_id is not None:
        seated = (
            p for p in players if p.registration.pk == confirmation.confirmed_by_registration_id
        )
        player = next(seated, None)
        if player is not None:
            return player.name
        registration = confirmation.confirmed_by_registration
        assert registration is not None  # its id is set
        return registration.player.full_name
    user = confirmation.confirmed_by
    return (user.get_full_name() or user.get_username()) if user is not None else None


def _row(
    result: DealResult,
    scored: ScoredDeal | None,
    players: tuple[SheetPlayer, ...],
    dealer_key: str | None,
) -> SheetRow:
    by_key = {player.key: player for player in players}
    dealer = by_key.get(dealer_key) if dealer_key is not None else None
    sitting_out = dealer if len(players) == 4 else None
    declarer = by_key.get(str(result.player_id)) if result.player_id is not None else None
    galdins_data = result.galdins or {}
    galdins = tuple(
        (
            player,
            galdins_data.get("tricks", {}).get(player.key),
            galdins_data.get("points", {}).get(player.key),
        )
        for player in players
        if result.kind == EntryKind.GALDINS and player is not sitting_out
    )
    cells = tuple(
        SheetCell(
            player=player,
            score=scored.score_row[index] if scored else None,
            total=scored.total_row[index] if scored else None,
            personal_pules=scored.personal_pule_row[index] if scored else 0,
            is_dealer=player is dealer,
            sits_out=player is sitting_out,
            is_declarer=player is declarer,
        )
        for index, player in enumerate(players)
    )
    game = result.game if result.kind == EntryKind.PLAY else result.kind
    return SheetRow(
        result=result,
        number=scored.number if scored else None,
        game_words=GAME_WORDS.get(game, _("entry")),
        dealer=dealer,
        sitting_out=sitting_out,
        declarer=declarer,
        galdins=galdins,
        cells=cells,
        common_pules=scored.common_pules if scored else None,
        pule_event=scored.pule_event.value if scored and scored.pule_event else None,
        pule_owner=by_key.get(scored.pule_owner) if scored and scored.pule_owner else None,
    )


@dataclass(frozen=True)
class SheetFrame:
    """The part of a table's sheet read before its entries: the table, its round and players,
    the rules, the confirmation. What a deal's form needs before the deal is written: the
    entries are read under the table's lock by the write (`scoring.sheet.reader`), which
    hands back the whole sheet."""

    table: Table  # with its round and the round's tournament
    confirmation: TableResult | None
    seats: tuple[Seat, ...]  # with their entries and players
    players: tuple[SheetPlayer, ...]
    rule_set: RuleSet

    @property
    def round(self) -> Round:
        return self.table.round

    @property
    def round_is_open(self) -> bool:
        return self.round.status in OPEN_ROUND

    @property
    def accepts_entries(self) -> bool:
        return self.round_is_open and self.confirmation is None

    def player(self, key: str) -> SheetPlayer | None:
        return next((player for player in self.players if player.key == key), None)
