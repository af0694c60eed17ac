"""A table's sheet as the entry page shows it: the paper sheet, read in a fixed number of queries.

Every score, running total, pule and settlement comes from the engine (`engine.score_sheet`
through `scoring.sheets`); this module only lines the engine's rows up with the stored entries
and the players' names. Nothing here computes a score.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cached_property

from django.db.models import Count, Prefetch
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from core.engine_text import GAME_WORDS, error_text
from engine import Rules, ScoredDeal, ScoredSheet, SheetError, dealer_for, score_sheet
from scoring.models import DealResult, EntryKind, TableHeard, TableResult
from scoring.sheets import (
    current_results,
    deal_limit,
    deals_played,
    sheet_entry,
    sheet_is_closed,
    table_results,
    table_sheet,
)
from tournaments.models import (
    Registration,
    Round,
    RoundStatus,
    Seat,
    Table,
    TableToken,
    Tournament,
)
from tournaments.round_clock import RoundClock, round_clock
from tournaments.rule_set import RULE_SET_FIELDS, RuleSet, round_rule_set
from tournaments.selectors import table_seats

OPEN_ROUND = (RoundStatus.PUBLISHED, RoundStatus.IN_PLAY)


@dataclass(frozen=True)
class SheetPlayer:
    """A column of the sheet: one seated player."""

    key: str  # the engine's key: the entry id as text
    entry: Registration
    seat: int  # 1-based, in seat order
    name: str
    short_name: str  # for a phone: "Jānis B."
    initials: str  # the column heading on a phone: "JB"


@dataclass(frozen=True)
class SheetCell:
    """One player's box in one row."""

    player: SheetPlayer
    score: int | None  # None when the stored sheet does not score (see TableSheetView.error)
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
class TableSheetView:
    frame: SheetFrame  # the table, its seats and players, the rules (what the fields repeat)
    table: Table
    round: Round
    tournament: Tournament
    rule_set: RuleSet
    players: tuple[SheetPlayer, ...]
    # The current entries and what the engine made of each (None: the sheet does not score;
    # then each entry's dealer from the rotation): the rows are made of them when first read.
    entries: tuple[DealResult, ...]
    scored_deals: tuple[ScoredDeal, ...] | None
    entry_dealers: tuple[str | None, ...]
    deals_played: int
    next_dealer: SheetPlayer
    open_common_pules: int | None
    settlement: tuple[int, ...] | None  # per player in seat order, once the sheet is closed
    totals: tuple[int, ...] | None  # after the settlement, once the sheet is closed
    result: TableResult | None  # the confirmation
    clock: RoundClock  # the round's clock (timed rounds), as it stood when the sheet was read
    # The deals the table may have: all planned ones; once time is up, those it had then and
    # the deal under way (scoring.sheets.deal_limit).
    deal_limit: int
    is_closed: bool  # all planned deals are in, or the table was confirmed when time was up
    error: str | None = None  # the stored entries do not score under the round's rules
    # Every write of the sheet stores a new DealResult (a version is never rewritten), so the
    # newest id stands for the sheet as read: the page and the phone's state carry it.
    mark: int = 0  # the newest entry version's id (0: none yet)
    confirmed_by: str | None = None  # who confirmed the table: a player's or an account's name

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
        deal = self.scored_deals[index] if self.scored_deals is not None else None
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
        return self.round.status in OPEN_ROUND

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
        return next((player for player in self.players if player.key == key), None)


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


def sheet_players(seats: Sequence[Seat]) -> tuple[SheetPlayer, ...]:
    names = [seat.entry.player.full_name for seat in seats]
    shorts = [short_name(name) for name in names]
    # Two "Jānis B." at one table: the full names tell them apart.
    shorts = [
        short if shorts.count(short) == 1 else name
        for name, short in zip(names, shorts, strict=True)
    ]
    letters = [initials(name) for name in names]
    # Two "JB" at one table: their seat numbers tell them apart ("JB 1", "JB 3").
    letters = [
        mark if letters.count(mark) == 1 else f"{mark} {seat}"
        for seat, mark in enumerate(letters, 1)
    ]
    return tuple(
        SheetPlayer(
            key=str(seat.entry_id),
            entry=seat.entry,
            seat=index,
            name=name,
            short_name=short,
            initials=mark,
        )
        for index, (seat, name, short, mark) in enumerate(
            zip(seats, names, shorts, letters, strict=True), 1
        )
    )


def confirmer_name(confirmation: TableResult | None, players: Sequence[SheetPlayer]) -> str | None:
    """Who confirmed the table: a player at it (named from the seats), or an account (the chief
    referee: one query, once the table is confirmed)."""
    if confirmation is None:
        return None
    if confirmation.confirmed_by_entry_id is not None:
        seated = (p for p in players if p.entry.pk == confirmation.confirmed_by_entry_id)
        player = next(seated, None)
        return (
            player.name if player is not None else confirmation.confirmed_by_entry.player.full_name
        )
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


# What the sheet reads of its table, round, tournament and confirmation, with the table, in one
# query: only these fields (the query is built on every deal, and its cost grows with every
# column: a tournament has some thirty). The tournament's rule options are read for a round
# whose rule set is not fixed yet (a draft: tournaments.rule_set.round_options).
SHEET_TABLE_FIELDS = (
    "id",
    "round_id",
    "number",
    "first_dealer_position",
    "deals_allowed_after_time",
)
SHEET_ROUND_FIELDS = (
    "id",
    "tournament_id",
    "number",
    "status",
    "rule_set",
    "clock_started_at",
    "time_limit",
    "time_called_at",
)
SHEET_TOURNAMENT_FIELDS = ("id", "name", "slug", "round_time_limit", *RULE_SET_FIELDS)
SHEET_CONFIRMATION_FIELDS = (
    "id",
    "table_id",
    "confirmed_at",
    "confirmed_by_id",
    "confirmed_by_entry_id",
    "last_position",
    "time_called",
    "last_version_id",
)


def sheet_tables(prefix: str = "") -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`select_related` and `only` for reading a table as its sheet does, from a model that
    reaches it through `prefix` ("table__" from its link)."""
    related = ("round__tournament", "result")
    fields = (
        *SHEET_TABLE_FIELDS,
        *(f"round__{name}" for name in SHEET_ROUND_FIELDS),
        *(f"round__tournament__{name}" for name in SHEET_TOURNAMENT_FIELDS),
        *(f"result__{name}" for name in SHEET_CONFIRMATION_FIELDS),
    )
    return tuple(prefix + name for name in related), tuple(prefix + name for name in fields)


def sheet_table(table_id: int) -> Table:
    """The table as its sheet reads it (`sheet_tables`): one query. Raises Table.DoesNotExist."""
    related, fields = sheet_tables()
    return Table.objects.select_related(*related).only(*fields).get(pk=table_id)


def table_confirmation(table: Table) -> TableResult | None:
    """The confirmation of a table read with `sheet_tables` (select_related: none is a None)."""
    return getattr(table, "result", None)


@dataclass(frozen=True)
class SheetFrame:
    """A table's sheet without its entries: the table, its round and players, the rules, the
    confirmation. What a deal's form needs before the deal is written (the entries are read
    under the table's lock by the write, and the sheet after it is built from those)."""

    table: Table  # with its round and the round's tournament
    confirmation: TableResult | None
    seats: tuple[Seat, ...]  # with their entries and players
    players: tuple[SheetPlayer, ...]
    rule_set: RuleSet

    @property
    def round(self) -> Round:
        return self.table.round

    @property
    def accepts_entries(self) -> bool:
        return self.round.status in OPEN_ROUND and self.confirmation is None

    def player(self, key: str) -> SheetPlayer | None:
        return next((player for player in self.players if player.key == key), None)


def sheet_frame(table: Table, confirmation: TableResult | None) -> SheetFrame:
    """The frame of `table` (with its round and tournament) and its `confirmation`: its seats,
    in one query. Raises Table.DoesNotExist for a table without seats (a table is created with
    them: it was deleted, its round seated again)."""
    seats = tuple(table_seats(table.pk))
    if not seats:
        raise Table.DoesNotExist(f"table {table.pk} has no seats")
    return SheetFrame(
        table=table,
        confirmation=confirmation,
        seats=seats,
        players=sheet_players(seats),
        rule_set=round_rule_set(table.round),
    )


def table_sheet_view(*, table_id: int) -> TableSheetView:
    """The table, its seats with the players, and every version of its entries, in three queries
    whatever the number of deals; scored by the engine. Raises Table.DoesNotExist."""
    table = sheet_table(table_id)
    return sheet_with_entries(sheet_frame(table, table_confirmation(table)))


def sheet_with_entries(
    frame: SheetFrame,
    results: Sequence[DealResult] | None = None,
    *,
    scored_open: ScoredSheet | None = None,
) -> TableSheetView:
    """The sheet of the frame's table with its entries: `results` (every version, ordered by
    position and version, as a write hands them over: `scoring.services.RecordedEntry`), or
    read in one query. `scored_open`: the engine's sheet of these entries, open (as the write
    checked it): used unless the sheet is closed (its settlement needs the closed sheet)."""
    table = frame.table
    if results is None:
        results = table_results(table.pk)
    ids = sorted(result.pk for result in results)
    confirmation = frame.confirmation
    seats = frame.seats
    players = frame.players
    rule_set = frame.rule_set
    rules = rule_set.rules
    current = current_results(results)
    deals_entered = deals_played(current)
    # The end-of-round settlement belongs on the sheet once its round is over for the table.
    closed = sheet_is_closed(
        deals_played=deals_entered,
        deals_per_round=rule_set.deals_at(len(seats)),
        confirmation=confirmation,
    )
    error: str | None = None
    try:
        scored = (
            scored_open
            if scored_open is not None and not closed
            else score_sheet(
                table_sheet(table, seats=seats, results=results, rules=rules, closed=closed)
            )
        )
    except SheetError as sheet_error:
        scored = None
        error = error_text(
            sheet_error,
            names={player.key: player.name for player in players},
            entries=[sheet_entry(result) for result in current],
        )

    keys = [player.key for player in players]
    dealers: list[str | None] = []
    if scored is not None:
        next_dealer_key = scored.next_dealer
    else:
        # Unscored: the dealers still follow the rotation, so the sheet can be shown and fixed.
        first_dealer = keys[table.first_dealer_position - 1] if keys else None
        deal_index = 0
        for result in current:
            if result.kind == EntryKind.PENALTY:
                dealers.append(None)
            else:
                dealers.append(dealer_for(keys, first_dealer, deal_index))
                deal_index += 1
        next_dealer_key = dealer_for(keys, first_dealer, deal_index)

    by_key = {player.key: player for player in players}
    clock = round_clock(table.round)
    return TableSheetView(
        frame=frame,
        table=table,
        round=table.round,
        tournament=table.round.tournament,
        rule_set=rule_set,
        players=players,
        entries=tuple(current),
        scored_deals=tuple(scored.deals) if scored is not None else None,
        entry_dealers=tuple(dealers),
        deals_played=scored.deals_played if scored else deals_entered,
        next_dealer=by_key[next_dealer_key],
        open_common_pules=scored.open_common_pules if scored else None,
        settlement=tuple(scored.settlement[key] for key in keys) if scored and closed else None,
        totals=tuple(scored.totals[key] for key in keys) if scored and closed else None,
        result=confirmation,
        clock=clock,
        deal_limit=deal_limit(
            results,
            clock=clock,
            deals_per_round=rule_set.deals_per_round,
            allowed_more=table.deals_allowed_after_time,
        ),
        is_closed=closed,
        error=error,
        mark=ids[-1] if ids else 0,
        confirmed_by=confirmer_name(confirmation, players),
    )


# --- The organiser's round page: each table's entry link and progress ---------------------------


# A phone with entries waiting that has not been heard from for this long is shown to the
# chief referee (its connection may be down, or the page closed).
SILENT_FOR = timedelta(minutes=5)


@dataclass(frozen=True)
class TableLink:
    table: Table
    token: str | None  # the current (unrevoked) link's token
    deals_entered: int
    deals_per_round: int
    is_confirmed: bool
    time_called: bool = False  # confirmed with fewer deals because time was up
    # When its phone was last heard from and what it said was on it (scoring.models.TableHeard),
    # while the round is open: None otherwise, or never heard from.
    heard: TableHeard | None = None
    now: datetime | None = None  # when the list was read

    @property
    def time_called_after(self) -> int | None:
        return self.deals_entered if self.time_called else None

    @property
    def waiting(self) -> int:
        return (self.heard.waiting or 0) if self.heard is not None else 0

    @property
    def refused(self) -> int:
        return (self.heard.refused or 0) if self.heard is not None else 0

    @property
    def heard_minutes_ago(self) -> int | None:
        """Whole minutes since its phone was last heard from (None: never)."""
        if self.heard is None or self.now is None:
            return None
        return max(0, int((self.now - self.heard.heard_at).total_seconds() // 60))

    @property
    def needs_attention(self) -> bool:
        """Entries refused on the phone, or waiting on a phone silent for minutes."""
        if self.heard is None:
            return False
        silent = self.now is not None and self.now - self.heard.heard_at > SILENT_FOR
        return self.refused > 0 or (self.waiting > 0 and silent)


def round_table_links(*, round_: Round) -> list[TableLink]:
    """Each table of the round with its current entry link, deals entered, confirmation and
    (while the round is open) when its phone was last heard from, in three queries whatever the
    size of the round."""
    tables = list(
        round_.tables.select_related("result", "heard")
        .annotate(seat_count=Count("seats"))
        .prefetch_related(
            Prefetch(
                "tokens",
                queryset=TableToken.objects.filter(revoked_at__isnull=True).order_by(
                    "-created_at", "-id"
                ),
                to_attr="active_tokens",
            )
        )
        .order_by("number")
    )
    versions: dict[int, list[DealResult]] = defaultdict(list)
    for result in (
        DealResult.objects.filter(table__round=round_)
        .only("id", "table_id", "position", "version", "kind")
        .order_by("table_id", "position", "version")
    ):
        versions[result.table_id].append(result)
    rule_set = round_rule_set(round_)
    is_open = round_.status in OPEN_ROUND
    now = timezone.now()
    links = []
    for table in tables:
        current = current_results(versions[table.pk])
        # Loaded by select_related: an unconfirmed table has none (the lookup raises).
        confirmation: TableResult | None = getattr(table, "result", None)
        links.append(
            TableLink(
                table=table,
                token=table.active_tokens[0].token if table.active_tokens else None,
                deals_entered=deals_played(current),
                deals_per_round=rule_set.deals_at(table.seat_count),
                is_confirmed=confirmation is not None,
                time_called=confirmation is not None and confirmation.time_called,
                heard=getattr(table, "heard", None) if is_open else None,
                now=now,
            )
        )
    return links
