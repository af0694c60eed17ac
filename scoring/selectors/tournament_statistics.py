"""A tournament's statistics page: its deals by game and outcome, the best and the worst round
scores, the zoles won with every trick, the longest run of common pules and each round's best
player, from the confirmed tables of the rounds the public sees.

A fixed number of queries, whatever the size of the tournament: the rounds, the sum of the seat
results' tallies (each declared game is counted once, on its declarer's row), the seat results
as rows, the deals of the confirmed tables as rows (a run of passes and a zole's deal number
are in the order of the sheet, which no sum keeps), and the players of the longest runs'
tables."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

from django.db.models import Sum
from django.utils.translation import gettext_lazy as _

from engine.rules import TRICKS_PER_DEAL, Band, Game
from engine.statistics import TALLY_FIELDS, SeatTally, share
from scoring.models import DealResult, EntryKind, SeatResult
from scoring.selectors.public_results import PUBLIC_STATUSES
from scoring.sheet.lines import current_results
from tournaments.models import Round, Seat, Tournament
from tournaments.rule_set import round_rule_set
from tournaments.selectors.fees import percent_text

RANKED_SCORES = 3  # the best and the worst round scores shown
RUNS_SHOWN = 5  # runs of the same greatest length shown; the others are counted
PASSED_BY_ALL = (EntryKind.PASS, EntryKind.GALDINS)

GAME_WORDS = {
    Game.LIELAIS: _("Lielais"),
    Game.ZOLE: _("Zole"),
    Game.MAZA_ZOLE: _("Mazā zole"),
}
# How a declared game ended: the payout table's bands (the declarer's card points and tricks),
# and mazā zole's won or lost.
OUTCOME_WORDS = {
    Band.ALL_TRICKS.value: _("won with every trick"),
    Band.HIGH_WIN.value: _("won with 91 or more"),
    Band.WIN.value: _("won with 61–90"),
    Band.LOSS.value: _("lost with 31–60"),
    Band.LOW_LOSS.value: _("lost with 30 or fewer"),
    Band.NO_TRICK.value: _("lost with no trick"),
    "won": _("won: took no trick"),
    "lost": _("lost: took a trick"),
}


def share_text(value: Fraction | None) -> str:
    """A share as a percentage to a tenth, as the active language writes it ("12,5 %")."""
    if value is None:
        return ""
    return percent_text(Decimal(str(round(float(value) * 100, 1))))


@dataclass(frozen=True)
class OutcomeLine:
    """How many of a game's deals ended one way, and their share of the game's."""

    outcome: str  # a Band's value, or "won" / "lost" for mazā zole
    count: int
    share: Fraction | None

    @property
    def words(self) -> str:
        return str(OUTCOME_WORDS[self.outcome])

    @property
    def share_text(self) -> str:
        return share_text(self.share)


@dataclass(frozen=True)
class GameOutcomes:
    game: Game
    lines: tuple[OutcomeLine, ...]
    total: int
    share: Fraction | None  # of the tournament's deals

    @property
    def words(self) -> str:
        return str(GAME_WORDS[self.game])

    @property
    def share_text(self) -> str:
        return share_text(self.share)


@dataclass(frozen=True)
class RoundScore:
    """One player's game points in one round, at his table."""

    name: str
    round_number: int
    table_number: int
    game_points: int


@dataclass(frozen=True)
class AllTricksZole:
    name: str
    round_number: int
    table_number: int
    deal_number: int  # the deal's number on the sheet (penalty pules are not deals)


@dataclass(frozen=True)
class PassRun:
    """Deals passed by all in a row at one table (penalty pules between them do not break it)."""

    names: tuple[str, ...]  # the table's players, in seat order
    round_number: int
    table_number: int
    length: int


@dataclass(frozen=True)
class RoundBest:
    round_number: int
    names: tuple[str, ...]  # everyone with the round's highest game points
    game_points: int


@dataclass(frozen=True)
class TournamentStatistics:
    deals: int
    games: tuple[GameOutcomes, ...]  # lielais, zole, and mazā zole when it was declared
    passed: int  # deals passed by all (galdiņš too)
    penalty_pules: int
    best_scores: tuple[RoundScore, ...]
    worst_scores: tuple[RoundScore, ...]
    all_tricks_zoles: tuple[AllTricksZole, ...]
    longest_runs: tuple[PassRun, ...]  # the longest runs of common pules, ties together
    more_runs: int  # runs of that length not shown
    round_best: tuple[RoundBest, ...]

    @property
    def passed_share_text(self) -> str:
        return share_text(share(self.passed, self.deals))

    @property
    def run_length(self) -> int:
        return self.longest_runs[0].length if self.longest_runs else 0


class _SeatRow(NamedTuple):
    registration_id: int
    name: str
    round_number: int
    table_id: int
    table_number: int
    game_points: int


class _DealRow(NamedTuple):
    table_id: int
    position: int
    version: int
    kind: str
    game: str
    player_id: int | None
    tricks: int | None


def tournament_statistics(*, tournament: Tournament) -> TournamentStatistics:
    """Four queries, and a fifth for the players of the longest runs' tables when there is a
    run; the same whatever the number of rounds, tables and deals."""
    rounds = list(Round.objects.filter(tournament=tournament, status__in=PUBLIC_STATUSES))
    for round_ in rounds:
        round_.tournament = tournament  # a round's rule set may read the tournament's options
    writes_common_pules = {round_.number for round_ in rounds if round_rule_set(round_).rules.pules}
    round_ids = [round_.pk for round_ in rounds]
    confirmed = SeatResult.objects.filter(table_result__table__round_id__in=round_ids).order_by()
    sums = confirmed.aggregate(**{name: Sum(name) for name in TALLY_FIELDS})
    tally = SeatTally(**{name: value or 0 for name, value in sums.items()})
    seats = [
        _SeatRow(*row)
        for row in confirmed.values_list(
            "registration_id",
            "registration__player__full_name",
            "round_number",
            "table_result__table_id",
            "table_result__table__number",
            "game_points",
        )
    ]
    names = {seat.registration_id: seat.name for seat in seats}
    tables = {seat.table_id: (seat.round_number, seat.table_number) for seat in seats}
    # Rows, not model instances (a tournament holds thousands of deals): `current_results`
    # reads only their position and kind.
    versions: dict[int, list] = defaultdict(list)
    for row in (
        DealResult.objects.filter(table__round_id__in=round_ids, table__result__isnull=False)
        .values_list("table_id", "position", "version", "kind", "game", "player_id", "tricks")
        .order_by("table_id", "position", "version")
    ):
        versions[row[0]].append(_DealRow(*row))

    deals = passed = 0
    zoles: list[AllTricksZole] = []
    runs: list[tuple[int, int]] = []  # (length, table id) of each table's longest
    for table_id, rows in versions.items():
        if table_id not in tables:  # confirmed with no seat result: nobody to name
            continue
        round_number, table_number = tables[table_id]
        deal_number = run = longest = 0
        for entry in current_results(rows):
            if entry.kind == EntryKind.PENALTY:
                continue  # a penalty pule is no deal: it neither counts nor breaks a run
            deal_number += 1
            if entry.kind in PASSED_BY_ALL:
                passed += 1
                run += 1
                longest = max(longest, run)
                continue
            run = 0
            if entry.game == Game.ZOLE and entry.tricks == TRICKS_PER_DEAL:
                zoles.append(
                    AllTricksZole(
                        names.get(entry.player_id or 0, ""), round_number, table_number, deal_number
                    )
                )
        deals += deal_number
        if longest and round_number in writes_common_pules:
            runs.append((longest, table_id))

    longest_runs, more_runs = _longest_runs(runs, tables)
    return TournamentStatistics(
        deals=deals,
        games=_games(tally, deals),
        passed=passed,
        penalty_pules=tally.penalty_written,
        best_scores=tuple(
            _score(seat)
            for seat in sorted(
                seats, key=lambda s: (-s.game_points, s.round_number, s.table_number, s.name)
            )[:RANKED_SCORES]
        ),
        worst_scores=tuple(
            _score(seat)
            for seat in sorted(
                seats, key=lambda s: (s.game_points, s.round_number, s.table_number, s.name)
            )[:RANKED_SCORES]
        ),
        all_tricks_zoles=tuple(
            sorted(zoles, key=lambda z: (z.round_number, z.table_number, z.deal_number))
        ),
        longest_runs=longest_runs,
        more_runs=more_runs,
        round_best=_round_best(seats),
    )


def _score(seat: _SeatRow) -> RoundScore:
    return RoundScore(seat.name, seat.round_number, seat.table_number, seat.game_points)


def _games(tally: SeatTally, deals: int) -> tuple[GameOutcomes, ...]:
    games = []
    for game in (Game.LIELAIS, Game.ZOLE):
        attempts = tally.attempts(game)
        games.append(
            GameOutcomes(
                game,
                tuple(_outcome(band.value, tally.band(game, band), attempts) for band in Band),
                attempts,
                share(attempts, deals),
            )
        )
    attempts = tally.attempts(Game.MAZA_ZOLE)
    if attempts:  # most tournaments do not play it: no rows of zeros
        games.append(
            GameOutcomes(
                Game.MAZA_ZOLE,
                (
                    _outcome("won", tally.maza_zole_won, attempts),
                    _outcome("lost", tally.maza_zole_lost, attempts),
                ),
                attempts,
                share(attempts, deals),
            )
        )
    return tuple(games)


def _outcome(outcome: str, count: int, attempts: int) -> OutcomeLine:
    return OutcomeLine(outcome, count, share(count, attempts))


def _longest_runs(
    runs: list[tuple[int, int]], tables: dict[int, tuple[int, int]]
) -> tuple[tuple[PassRun, ...], int]:
    """The runs of the greatest length (the first RUNS_SHOWN, by round and table) with their
    tables' players in seat order (one query), and how many more there are."""
    if not runs:
        return (), 0
    length = max(run[0] for run in runs)
    tied = sorted((tables[table_id], table_id) for found, table_id in runs if found == length)
    shown = tied[:RUNS_SHOWN]
    players: dict[int, list[str]] = defaultdict(list)
    for table_id, name in (
        Seat.objects.filter(table_id__in=[table_id for _place, table_id in shown])
        .values_list("table_id", "registration__player__full_name")
        .order_by("table_id", "position")
    ):
        players[table_id].append(name)
    return (
        tuple(
            PassRun(tuple(players[table_id]), round_number, table_number, length)
            for (round_number, table_number), table_id in shown
        ),
        len(tied) - len(shown),
    )


def _round_best(seats: list[_SeatRow]) -> tuple[RoundBest, ...]:
    by_round: dict[int, list[_SeatRow]] = defaultdict(list)
    for seat in seats:
        by_round[seat.round_number].append(seat)
    best = []
    for round_number in sorted(by_round):
        top = max(seat.game_points for seat in by_round[round_number])
        best.append(
            RoundBest(
                round_number,
                tuple(sorted(s.name for s in by_round[round_number] if s.game_points == top)),
                top,
            )
        )
    return tuple(best)
