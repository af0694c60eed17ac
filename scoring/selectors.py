"""Reads for the scoring app and the public pages: standings, round results, player history.

Every standing comes from the engine (`engine.standings`) over confirmed results (SeatResult
rows); provisional results of tables still in play are scored by the engine from their current
deals, only when a page asks for them. Each read runs a fixed number of queries, whatever the
size of the tournament: rows are loaded in bulk and joined in Python.
"""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from django.db.models import BooleanField, Count, ExpressionWrapper, Prefetch, Q
from django.utils import timezone
from django.utils.formats import number_format

from core.engine_text import display_name_key
from engine import SheetError, score_sheet
from engine.names import search_key
from engine.standings import RoundResult, Standing, TeamStanding, rank_standings, round_results
from engine.standings import team_standings as engine_team_standings
from scoring.models import DealResult, SeatResult, twelfths_fraction
from scoring.sheets import current_results, deals_played, table_sheet
from tournaments.models import Entry, Player, Round, RoundStatus, Seat, Table, Tournament
from tournaments.rule_set import RuleSet, round_rule_set

# Draft rounds are the organiser's work in progress: the public never sees them.
PUBLIC_STATUSES = (RoundStatus.PUBLISHED, RoundStatus.IN_PLAY, RoundStatus.CLOSED)


def has_public_result(player: str = "pk") -> ExpressionWrapper:
    """Whether the player (the outer query's field `player`, a Player id) has a public result:
    a confirmed table in a published, in-play or closed round. Only such a player has a public
    page: the register itself (every player, ids in sequence) is not public. An IN over one
    subquery, which the database reads once (PostgreSQL hashes it), not an EXISTS per row: on
    tables without statistics yet, the correlated form ran for minutes over 600 players."""
    players_with_results = SeatResult.objects.filter(
        table_result__table__round__status__in=PUBLIC_STATUSES
    ).values("entry__player_id")
    return ExpressionWrapper(
        Q(**{f"{player}__in": players_with_results}), output_field=BooleanField()
    )


# Rounds whose tables may still change: live pages refresh while one exists.
LIVE_STATUSES = (RoundStatus.PUBLISHED, RoundStatus.IN_PLAY)

_FRACTION_GLYPHS = {
    Fraction(1, 2): "½",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
    Fraction(1, 4): "¼",
    Fraction(3, 4): "¾",
    Fraction(1, 6): "⅙",
    Fraction(5, 6): "⅚",
}


def points_text(value: Fraction | int | None) -> str:
    """Place points as a reader expects them: 5, 4⅓, 2½; other fractions (sums of twelfths)
    as a localised decimal with two places (4,58 in Latvian)."""
    if value is None:
        return ""
    if not isinstance(value, Fraction):
        value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    sign = "−" if value < 0 else ""
    whole, part = divmod(abs(value), 1)
    if part in _FRACTION_GLYPHS:
        return f"{sign}{whole or ''}{_FRACTION_GLYPHS[part]}"
    return sign + number_format(round(float(abs(value)), 2), decimal_pos=2)


def points_number(value: Fraction | int | None) -> int | float | None:
    """Place points for a spreadsheet: a whole number, or a decimal rounded to 2 places."""
    if value is None:
        return None
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else round(float(value), 2)


def standings_order(tournament: Tournament) -> list[str]:
    return [metric.strip() for metric in tournament.standings_order.split(",") if metric.strip()]


def rank_label(rank: int, shared_by: int) -> str:
    """A shared rank as the span of places it covers: "2–3" for two players tied at 2."""
    return f"{rank}–{rank + shared_by - 1}" if shared_by > 1 else str(rank)


# -- Progress ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundProgress:
    """A planned round and how far it is: its status and tables confirmed of all."""

    number: int
    status: str  # a RoundStatus, or "" for a round not created yet
    status_display: str
    table_count: int = 0
    confirmed_count: int = 0

    @property
    def is_public(self) -> bool:
        return self.status in PUBLIC_STATUSES

    @property
    def is_live(self) -> bool:
        return self.status in LIVE_STATUSES


@dataclass(frozen=True)
class TournamentProgress:
    rounds_planned: int
    rounds: list[RoundProgress]

    @property
    def public_rounds(self) -> list[RoundProgress]:
        return [round_ for round_ in self.rounds if round_.is_public]

    @property
    def current(self) -> RoundProgress | None:
        """The latest public round: the one people follow."""
        public = self.public_rounds
        return public[-1] if public else None

    @property
    def is_live(self) -> bool:
        return any(round_.is_live for round_ in self.rounds)

    @property
    def is_finished(self) -> bool:
        closed = sum(round_.status == RoundStatus.CLOSED for round_ in self.rounds)
        return self.rounds_planned > 0 and closed >= self.rounds_planned


def tournament_progress(*, tournament: Tournament) -> TournamentProgress:
    """Every planned round with its status and confirmed tables, in one query."""
    rounds = {
        round_.number: round_
        for round_ in Round.objects.filter(tournament=tournament)
        .annotate(
            table_count=Count("tables", distinct=True),
            confirmed_count=Count("tables__result", distinct=True),
        )
        .order_by("number")
    }
    progress = []
    for number in range(1, max(tournament.rounds_planned, max(rounds, default=0)) + 1):
        round_ = rounds.get(number)
        if round_ is None or round_.status == RoundStatus.DRAFT:
            # A draft's seating may still change: to the public it is simply not out yet.
            progress.append(RoundProgress(number=number, status="", status_display=""))
        else:
            progress.append(
                RoundProgress(
                    number=number,
                    status=round_.status,
                    status_display=round_.get_status_display(),
                    table_count=round_.table_count,
                    confirmed_count=round_.confirmed_count,
                )
            )
    return TournamentProgress(rounds_planned=tournament.rounds_planned, rounds=progress)


# -- Tournament list -----------------------------------------------------------------------------


class TournamentPhase(StrEnum):
    UPCOMING = "upcoming"
    IN_PROGRESS = "in_progress"
    FINISHED = "finished"


@dataclass(frozen=True)
class TournamentListing:
    upcoming: list[Tournament]
    in_progress: list[Tournament]
    finished: list[Tournament]


def tournament_phase(tournament: Tournament, *, today: datetime.date) -> TournamentPhase:
    """From the annotations of `public_tournament_list`: live or partly played rounds make a
    tournament in progress; all planned rounds closed, or its last day past, make it finished."""
    if tournament.closed_rounds >= tournament.rounds_planned > 0:
        return TournamentPhase.FINISHED
    if tournament.live_rounds:
        return TournamentPhase.IN_PROGRESS
    if (tournament.ends_on or tournament.starts_on) < today:
        return TournamentPhase.FINISHED
    if tournament.closed_rounds or tournament.starts_on <= today:
        return TournamentPhase.IN_PROGRESS
    return TournamentPhase.UPCOMING


def public_tournament_list(*, today: datetime.date | None = None) -> TournamentListing:
    """All tournaments, by phase: upcoming soonest first, the others newest first.

    Two queries: the rounds are counted apart, so entries and rounds never multiply in a join."""
    today = today or timezone.localdate()
    tournaments = list(
        Tournament.objects.annotate(entry_count=Count("entries")).order_by("-starts_on", "name")
    )
    statuses: dict[int, Counter[str]] = defaultdict(Counter)
    for tournament_id, status in Round.objects.values_list("tournament_id", "status").order_by():
        statuses[tournament_id][status] += 1
    phases: dict[TournamentPhase, list[Tournament]] = defaultdict(list)
    for tournament in tournaments:
        counts = statuses[tournament.pk]
        tournament.live_rounds = sum(counts[status] for status in LIVE_STATUSES)
        tournament.closed_rounds = counts[RoundStatus.CLOSED]
        tournament.current_round = sum(counts[status] for status in PUBLIC_STATUSES)
        tournament.phase = tournament_phase(tournament, today=today)
        phases[tournament.phase].append(tournament)
    return TournamentListing(
        upcoming=sorted(phases[TournamentPhase.UPCOMING], key=lambda t: t.starts_on),
        in_progress=phases[TournamentPhase.IN_PROGRESS],
        finished=phases[TournamentPhase.FINISHED],
    )


def entry_count(*, tournament: Tournament) -> int:
    return tournament.entries.count()


def public_round(*, tournament: Tournament, number: int) -> Round | None:
    """A round the public may see (not a draft), or None."""
    return tournament.rounds.filter(number=number, status__in=PUBLIC_STATUSES).first()


def public_table_id(*, tournament: Tournament, round_number: int, table_number: int) -> int | None:
    """The table whose sheet the public may read deal by deal: a confirmed table of a round the
    public sees; None for a table in play, a draft round, or no such table. One query."""
    return (
        Table.objects.filter(
            round__tournament=tournament,
            round__number=round_number,
            round__status__in=PUBLIC_STATUSES,
            number=table_number,
            result__isnull=False,
        )
        .values_list("pk", flat=True)
        .first()
    )


# -- Standings -----------------------------------------------------------------------------------


@dataclass(slots=True)
class RoundCell:
    """A player's result in one round: confirmed, or provisional from the current deals.

    Not frozen, though never changed: the standings build one per player and round (6,000 for
    600 players × 10 rounds), and a frozen dataclass's __init__ costs several times as much."""

    game_points: int
    place_points: Fraction
    place: int
    provisional: bool = False

    @property
    def place_points_text(self) -> str:
        return points_text(self.place_points)


@dataclass(frozen=True)
class StandingRow:
    position: int  # 1-based, in the engine's order (ties listed by name)
    rank: int
    rank_label: str  # "2–3" when shared
    shared: bool
    entry_id: int
    player_id: int
    name: str
    club: str
    team: str
    place_points: Fraction
    game_points: int
    wins: int
    rounds: dict[int, RoundCell]
    has_page: bool = False  # the player has a public page (has_public_result)

    @property
    def provisional(self) -> bool:
        return any(cell.provisional for cell in self.rounds.values())

    @property
    def place_points_text(self) -> str:
        return points_text(self.place_points)


@dataclass(frozen=True)
class TeamRow:
    rank: int
    rank_label: str
    team: str
    members: list[str]  # names, in the standings order
    place_points: Fraction
    game_points: int

    @property
    def place_points_text(self) -> str:
        return points_text(self.place_points)


@dataclass(frozen=True)
class Standings:
    tournament: Tournament
    rows: list[StandingRow]
    teams: list[TeamRow]
    round_numbers: list[int]  # the rounds shown as columns
    progress: TournamentProgress
    only_round: int | None = None  # the standings of this round alone, when asked
    provisional: bool = False  # provisional results were asked for
    provisional_tables: int = 0  # unconfirmed tables counted in, when asked
    order: list[str] = field(default_factory=list)

    @property
    def is_live(self) -> bool:
        return self.progress.is_live


def _confirmed_results(tournament: Tournament) -> list[RoundResult]:
    rows = (
        SeatResult.objects.filter(entry__tournament=tournament)
        .values_list("entry_id", "round_number", "game_points", "place_points_twelfths", "place")
        .order_by()
    )
    return [
        RoundResult(str(entry_id), round_number, game_points, twelfths_fraction(twelfths), place)
        for entry_id, round_number, game_points, twelfths, place in rows
    ]


def _provisional_results(tournament: Tournament) -> tuple[list[RoundResult], int]:
    """The results the unconfirmed tables of live rounds would have now, scored by the engine
    from their current deals (no end-of-round settlement yet). Three queries.

    A table with no deal yet is left out: all-zero totals would share the place points."""
    tables = (
        Table.objects.filter(
            round__tournament=tournament, round__status__in=LIVE_STATUSES, result__isnull=True
        )
        .select_related("round__tournament")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.order_by("position")),
            Prefetch("deal_results", queryset=DealResult.objects.order_by("position", "version")),
        )
    )
    rule_sets: dict[int, RuleSet] = {}
    results: list[RoundResult] = []
    counted = 0
    for table in tables:
        deals = list(table.deal_results.all())
        seats = list(table.seats.all())
        if not deals or not seats:
            continue
        if table.round_id not in rule_sets:
            rule_sets[table.round_id] = round_rule_set(table.round)
        rule_set = rule_sets[table.round_id]
        try:
            sheet = score_sheet(
                table_sheet(table, seats=seats, results=deals, rules=rule_set.rules, closed=False)
            )
            results.extend(round_results(table.round.number, sheet.totals, rule_set.place_scheme))
        except SheetError:
            # Stored deals always passed the engine under their round's rules; a sheet that no
            # longer scores has no provisional result rather than breaking the page.
            continue
        counted += 1
    return results, counted


def _rank_labels(ranks: Sequence[int]) -> dict[int, str]:
    shared = Counter(ranks)
    return {rank: rank_label(rank, shared[rank]) for rank in shared}


def tournament_standings(
    *, tournament: Tournament, provisional: bool = False, only_round: int | None = None
) -> Standings:
    """The standings, overall or of one round alone, ranked by the engine in the tournament's
    standings order. Confirmed results only, unless `provisional` adds the tables in play
    (each such result is marked). Four queries, three more with `provisional`."""
    order = standings_order(tournament)
    progress = tournament_progress(tournament=tournament)
    entries = {
        str(row[0]): _EntryLine(*row)
        for row in Entry.objects.filter(tournament=tournament)
        .annotate(has_page=has_public_result("player_id"))
        .values_list(
            "pk", "player_id", "player__full_name", "player__club__name", "team", "has_page"
        )
        .order_by()
    }
    results = _confirmed_results(tournament)
    provisional_keys: set[tuple[str, int]] = set()
    provisional_tables = 0
    if provisional:
        confirmed_keys = {(result.player, result.round_number) for result in results}
        extra, provisional_tables = _provisional_results(tournament)
        extra = [r for r in extra if (r.player, r.round_number) not in confirmed_keys]
        provisional_keys = {(result.player, result.round_number) for result in extra}
        results.extend(extra)
    if only_round is not None:
        results = [result for result in results if result.round_number == only_round]
    # Results of entries removed since (there are none: SeatResult protects them) are dropped
    # rather than shown without a name.
    results = [result for result in results if result.player in entries]

    names = {key: entry.name for key, entry in entries.items()}
    standings = rank_standings(
        results,
        players=() if only_round is not None else entries.keys(),
        names=names,
        order=order,
    )
    labels = _rank_labels([standing.rank for standing in standings])
    rows = [
        _standing_row(position, standing, entries[standing.player], labels, provisional_keys)
        for position, standing in enumerate(standings, start=1)
    ]
    teams = (
        _team_rows(entries, standings, order, names)
        if tournament.teams_enabled and only_round is None
        else []
    )
    round_numbers = (
        [only_round]
        if only_round is not None
        else [round_.number for round_ in progress.public_rounds]
    )
    return Standings(
        tournament=tournament,
        rows=rows,
        teams=teams,
        round_numbers=round_numbers,
        progress=progress,
        only_round=only_round,
        provisional=provisional,
        provisional_tables=provisional_tables,
        order=order,
    )


@dataclass(frozen=True, slots=True)
class _EntryLine:
    """What the standings read of an entry (a row of values: no model instances to build)."""

    pk: int
    player_id: int
    name: str
    club: str | None
    team: str
    has_page: bool


def _standing_row(
    position: int,
    standing: Standing,
    entry: _EntryLine,
    labels: dict[int, str],
    provisional_keys: set[tuple[str, int]],
) -> StandingRow:
    return StandingRow(
        position=position,
        rank=standing.rank,
        rank_label=labels[standing.rank],
        shared="–" in labels[standing.rank],
        entry_id=entry.pk,
        player_id=entry.player_id,
        name=standing.name,
        club=entry.club or "",
        team=entry.team,
        place_points=standing.place_points,
        game_points=standing.game_points,
        wins=standing.wins,
        has_page=entry.has_page,
        rounds={
            result.round_number: RoundCell(
                result.game_points,
                result.place_points,
                result.place,
                (standing.player, result.round_number) in provisional_keys,
            )
            for result in standing.rounds
        },
    )


def _team_rows(
    entries: dict[str, _EntryLine],
    standings: list[Standing],
    order: list[str],
    names: dict[str, str],
) -> list[TeamRow]:
    teams: dict[str, list[str]] = defaultdict(list)
    for standing in standings:  # members listed in the standings order
        team = entries[standing.player].team.strip()
        if team:
            teams[team].append(standing.player)
    ranked: list[TeamStanding] = engine_team_standings(teams, standings, order=order)
    labels = _rank_labels([row.rank for row in ranked])
    return [
        TeamRow(
            rank=row.rank,
            rank_label=labels[row.rank],
            team=row.team,
            members=[names[member] for member in row.members],
            place_points=row.place_points,
            game_points=row.game_points,
        )
        for row in ranked
    ]


# -- Round page ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatLine:
    position: int
    entry_id: int
    player_id: int
    name: str
    club: str
    deals_first: bool
    game_points: int | None = None  # None until the table is confirmed
    place_points: Fraction | None = None
    place: int | None = None
    is_match: bool = False  # the name matches the page's search
    has_page: bool = False  # the player has a public page (has_public_result)

    @property
    def place_points_text(self) -> str:
        return points_text(self.place_points)


@dataclass(frozen=True)
class TableLine:
    number: int
    confirmed: bool
    seats: list[SeatLine]
    time_called_after: int | None = None  # confirmed short when time was up: the deals played

    @property
    def is_match(self) -> bool:
        return any(seat.is_match for seat in self.seats)


@dataclass(frozen=True)
class RoundTables:
    tables: list[TableLine]  # every table, in number order
    query: str
    matches: list[TableLine]  # the tables of the players the search found

    @property
    def confirmed_count(self) -> int:
        return sum(table.confirmed for table in self.tables)

    @property
    def player_count(self) -> int:
        return sum(len(table.seats) for table in self.tables)


def round_tables(*, round_: Round, query: str = "") -> RoundTables:
    """A public round's tables, players in seat order, with each confirmed table's results
    (and the deals played by a table confirmed when time was up), and the tables of the players
    whose name matches `query` (searched in Python over the loaded seats, case and diacritics
    ignored). Four queries."""
    # Rows of values, not model instances: a 600-player round has 600 seats, each with its
    # entry, player and club (2,400 instances, most of a cache miss's time on the hall display).
    tables = (
        Table.objects.filter(round=round_)
        .values_list("pk", "number", "first_dealer_position")
        .order_by("number")
    )
    seats_by_table: dict[int, list[tuple]] = defaultdict(list)
    for seat in (
        Seat.objects.filter(table__round=round_)
        .annotate(has_page=has_public_result("entry__player_id"))
        .values_list(
            "table_id",
            "position",
            "entry_id",
            "entry__player_id",
            "entry__player__full_name",
            "entry__player__club__name",
            "has_page",
        )
        .order_by("table_id", "position")
    ):
        seats_by_table[seat[0]].append(seat)
    results = {
        (table_id, entry_id): (game_points, twelfths_fraction(twelfths), place)
        for table_id, entry_id, game_points, twelfths, place in SeatResult.objects.filter(
            table_result__table__round=round_
        )
        .values_list(
            "table_result__table_id", "entry_id", "game_points", "place_points_twelfths", "place"
        )
        .order_by()
    }
    confirmed_tables = {table_id for table_id, _entry_id in results}
    time_called_after = _deals_of_short_tables(round_)
    needle = search_key(query)
    lines = []
    for table_id, number, first_dealer_position in tables:
        seats = []
        for _table, position, entry_id, player_id, name, club, has_page in seats_by_table[table_id]:
            game_points, place_points, place = results.get((table_id, entry_id), (None, None, None))
            seats.append(
                SeatLine(
                    position=position,
                    entry_id=entry_id,
                    player_id=player_id,
                    name=name,
                    club=club or "",
                    deals_first=position == first_dealer_position,
                    game_points=game_points,
                    place_points=place_points,
                    place=place,
                    is_match=bool(needle) and needle in search_key(name),
                    has_page=has_page,
                )
            )
        lines.append(
            TableLine(
                number=number,
                confirmed=table_id in confirmed_tables,
                seats=seats,
                time_called_after=time_called_after.get(table_id),
            )
        )
    return RoundTables(tables=lines, query=query, matches=[line for line in lines if line.is_match])


def _deals_of_short_tables(round_: Round) -> dict[int, int]:
    """The deals played at each table of the round confirmed short (time was up), by table id.
    One query, usually of no row."""
    versions: dict[int, list[DealResult]] = defaultdict(list)
    for result in (
        DealResult.objects.filter(table__round=round_, table__result__time_called=True)
        .only("id", "table_id", "position", "version", "kind")
        .order_by("table_id", "position", "version")
    ):
        versions[result.table_id].append(result)
    return {
        table_id: deals_played(current_results(results)) for table_id, results in versions.items()
    }


# -- Hall display --------------------------------------------------------------------------------

# The standings rows the hall display shows: the top of the table, in large type.
DISPLAY_STANDINGS_ROWS = 30


def display_round(*, tournament: Tournament) -> Round | None:
    """The round the hall display shows: the latest published or in-play round, else the latest
    closed one; None before any is published. One query; the round comes with `tournament`."""
    rounds = list(
        Round.objects.filter(tournament=tournament, status__in=PUBLIC_STATUSES).order_by("-number")
    )
    live = [round_ for round_ in rounds if round_.status in LIVE_STATUSES]
    chosen = live[0] if live else (rounds[0] if rounds else None)
    if chosen is not None:
        chosen.tournament = tournament
    return chosen


@dataclass(frozen=True)
class DisplayPlayer:
    """A line of the alphabetical list: a player and his table."""

    name: str
    club: str
    table_number: int


@dataclass(frozen=True)
class HallDisplay:
    tournament: Tournament
    round: Round | None
    tables: list[TableLine]  # the round's tables in number order
    players: list[DisplayPlayer]  # the round's players in the language's alphabetical order
    standings: list[StandingRow]  # the top of the standings
    standings_count: int  # every ranked player
    progress: TournamentProgress

    @property
    def round_is_finished(self) -> bool:
        return self.round is not None and self.round.status == RoundStatus.CLOSED

    @property
    def confirmed_count(self) -> int:
        return sum(table.confirmed for table in self.tables)


def hall_display(*, tournament: Tournament) -> HallDisplay:
    """Everything the hall display shows but the clock: the current round's seating by table
    and by name, and the top of the standings (confirmed results). Eight queries, whatever the
    size of the tournament."""
    round_ = display_round(tournament=tournament)
    tables = round_tables(round_=round_).tables if round_ is not None else []
    players = sorted(
        (
            DisplayPlayer(name=seat.name, club=seat.club, table_number=table.number)
            for table in tables
            for seat in table.seats
        ),
        key=lambda player: (display_name_key(player.name), player.table_number),
    )
    standings = tournament_standings(tournament=tournament)
    # Before any table is confirmed every player stands at 0: nothing worth a screen yet.
    ranked = standings.rows if any(row.rounds for row in standings.rows) else []
    return HallDisplay(
        tournament=tournament,
        round=round_,
        tables=tables,
        players=players,
        standings=ranked[:DISPLAY_STANDINGS_ROWS],
        standings_count=len(ranked),
        progress=standings.progress,
    )


# -- Player page ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerRound:
    round_number: int
    table_number: int
    confirmed: bool
    game_points: int | None
    place_points: Fraction | None
    place: int | None
    cumulative_game_points: int | None  # over the confirmed rounds so far

    @property
    def place_points_text(self) -> str:
        return points_text(self.place_points)


@dataclass(frozen=True)
class PlayerTournament:
    tournament: Tournament
    team: str
    rounds: list[PlayerRound]

    @property
    def confirmed_rounds(self) -> list[PlayerRound]:
        return [round_ for round_ in self.rounds if round_.confirmed]

    @property
    def game_points(self) -> int:
        return sum(round_.game_points or 0 for round_ in self.confirmed_rounds)

    @property
    def place_points_text(self) -> str:
        return points_text(sum((r.place_points or 0 for r in self.confirmed_rounds), Fraction(0)))


def public_player(*, player_id: int) -> Player | None:
    """The player of a public page: None for an unknown id and for a player with no public
    result alike (has_public_result), so the page does not tell them apart."""
    return Player.objects.select_related("club").filter(has_public_result(), pk=player_id).first()


def player_history(*, player: Player) -> list[PlayerTournament]:
    """The player's tournaments, newest first, each with his public rounds: his table, and his
    confirmed results with the running total of game points. Three queries."""
    entries = list(
        Entry.objects.filter(player=player)
        .select_related("tournament")
        .order_by("-tournament__starts_on", "tournament__name")
    )
    seats = (
        Seat.objects.filter(entry__player=player, table__round__status__in=PUBLIC_STATUSES)
        .values_list("entry_id", "table__round__number", "table__number")
        .order_by("table__round__number")
    )
    results = {
        (entry_id, round_number): (game_points, twelfths_fraction(twelfths), place)
        for entry_id, round_number, game_points, twelfths, place in SeatResult.objects.filter(
            entry__player=player
        )
        .values_list("entry_id", "round_number", "game_points", "place_points_twelfths", "place")
        .order_by()
    }
    rounds_by_entry: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for entry_id, round_number, table_number in seats:
        rounds_by_entry[entry_id].append((round_number, table_number))
    history = []
    for entry in entries:
        running = 0
        rounds = []
        for round_number, table_number in rounds_by_entry[entry.pk]:
            result = results.get((entry.pk, round_number))
            if result is None:
                rounds.append(
                    PlayerRound(round_number, table_number, False, None, None, None, None)
                )
                continue
            game_points, place_points, place = result
            running += game_points
            rounds.append(
                PlayerRound(
                    round_number, table_number, True, game_points, place_points, place, running
                )
            )
        history.append(
            PlayerTournament(tournament=entry.tournament, team=entry.team, rounds=rounds)
        )
    return history
