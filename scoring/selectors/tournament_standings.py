"""A tournament's standings, by the engine over confirmed results (provisional ones on request),
and its teams'."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import Prefetch

from engine import SheetError, score_sheet
from engine.standings import (
    RoundResult,
    Standing,
    TeamStanding,
    rank_standings,
    rank_texts,
    round_results,
)
from engine.standings import team_standings as engine_team_standings
from scoring.models import DealResult, SeatResult, twelfths_fraction
from scoring.selectors.progress import TournamentProgress, tournament_progress
from scoring.selectors.public_results import (
    LIVE_STATUSES,
    has_public_result,
    points_text,
    standings_order,
)
from scoring.sheet.lines import engine_sheet
from tournaments.models import Registration, Seat, Table, Tournament
from tournaments.rule_set import RuleSet, absent_rule, round_rule_set


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
    registration_id: int
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
        SeatResult.objects.filter(registration__tournament=tournament)
        .values_list(
            "registration_id", "round_number", "game_points", "place_points_twelfths", "place"
        )
        .order_by()
    )
    return [
        RoundResult(
            str(registration_id), round_number, game_points, twelfths_fraction(twelfths), place
        )
        for registration_id, round_number, game_points, twelfths, place in rows
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
                engine_sheet(table, seats=seats, results=deals, rules=rule_set.rules, closed=False)
            )
            results.extend(round_results(table.round.number, sheet.totals, rule_set.place_scheme))
        except SheetError:
            # Stored deals always passed the engine under their round's rules; a sheet that no
            # longer scores has no provisional result rather than breaking the page.
            continue
        counted += 1
    return results, counted


def _rank_labels(ranks: Sequence[int]) -> dict[int, str]:
    return rank_texts(ranks)


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
        for row in Registration.objects.filter(tournament=tournament)
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
        absent=absent_rule(tournament),
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
        registration_id=entry.pk,
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
