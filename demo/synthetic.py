"""Synthetic played tournaments for the ranking's benchmark and tests: the minimum real rows
(players, clubs, tournaments, entries, closed rounds, tables, confirmed table results and seat
results), written in bulk, fast enough for 2,000 players over 40 tournaments.

The results are random but valid: each table's totals sum to zero and its places and place points
come from the engine (`round_results`), as a confirmed table's would. Everything is decided from
`seed` before a row is written, so `shuffled=True` writes the same results in another order
(other primary keys): the ranking and the ratings must not change.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass

from django.db import transaction

from engine.seating import table_sizes
from engine.standings import PlaceScheme, round_results
from engine.statistics import SeatTally
from scoring.models import SeatResult, TableResult
from scoring.services import seat_results
from tournaments.models import (
    Club,
    Level,
    Player,
    Registration,
    Round,
    RoundStatus,
    SeatingMode,
    Table,
    Tournament,
)

FIRST_NAMES = ("Jānis", "Anna", "Pēteris", "Līga", "Ģirts", "Ērika", "Kārlis", "Ieva", "Oļegs")
SURNAMES = ("Bērziņš", "Ozoliņa", "Kalniņš", "Liepiņa", "Šteins", "Žagare", "Čakste", "Ķikute")
LEVELS = (Level.CLUB, Level.DISTRICT, Level.CLUB, Level.NATIONAL)


@dataclass(frozen=True)
class SyntheticTable:
    totals: dict[int, int]  # player index → game points


@dataclass(frozen=True)
class SyntheticTournament:
    index: int
    level: str
    starts_on: datetime.date
    players: list[int]  # player indexes
    rounds: list[list[SyntheticTable]]


@dataclass(frozen=True)
class Built:
    players: int
    tournaments: int
    tables: int
    seat_results: int


def plan_tournaments(
    *,
    players: int,
    tournaments: int,
    per_tournament: int,
    rounds: int,
    seed: int,
    start: datetime.date,
) -> list[SyntheticTournament]:
    """The results, decided before anything is written."""
    rng = random.Random(seed)
    plans = []
    for index in range(tournaments):
        field = sorted(rng.sample(range(players), min(per_tournament, players)))
        sizes = table_sizes(len(field))
        played = []
        for _number in range(rounds):
            order = list(field)
            rng.shuffle(order)
            tables = []
            position = 0
            for size in sizes:
                seated = order[position : position + size]
                position += size
                points = [rng.randint(-30, 30) for _ in seated[:-1]]
                tables.append(
                    SyntheticTable(dict(zip(seated, [*points, -sum(points)], strict=True)))
                )
            played.append(tables)
        plans.append(
            SyntheticTournament(
                index=index,
                level=LEVELS[index % len(LEVELS)],
                starts_on=start + datetime.timedelta(days=7 * index),
                players=field,
                rounds=played,
            )
        )
    return plans


@transaction.atomic
def build_played_tournaments(
    *,
    players: int = 2000,
    tournaments: int = 40,
    per_tournament: int = 150,
    rounds: int = 5,
    seed: int = 1,
    start: datetime.date = datetime.date(2026, 1, 10),
    prefix: str = "syn",
    shuffled: bool = False,
) -> Built:
    """Write the planned tournaments (finished: every round closed, every table confirmed)."""
    plans = plan_tournaments(
        players=players,
        tournaments=tournaments,
        per_tournament=per_tournament,
        rounds=rounds,
        seed=seed,
        start=start,
    )
    order_rng = random.Random(f"{seed}/insertion")
    clubs = Club.objects.bulk_create(
        Club(name=f"{prefix} klubs {number}") for number in range(max(1, players // 25))
    )
    player_indexes = list(range(players))
    if shuffled:
        order_rng.shuffle(player_indexes)
        order_rng.shuffle(plans)
    people = Player.objects.bulk_create(
        Player(
            full_name=f"{FIRST_NAMES[index % len(FIRST_NAMES)]} "
            f"{SURNAMES[index // len(FIRST_NAMES) % len(SURNAMES)]} {prefix}{index:04d}",
            club=clubs[index % len(clubs)],
        )
        for index in player_indexes
    )
    player_of = dict(zip(player_indexes, people, strict=True))
    scheme = PlaceScheme()
    created_tournaments = Tournament.objects.bulk_create(
        Tournament(
            name=f"{prefix} turnīrs {plan.index + 1}",
            slug=f"{prefix}-{plan.index:03d}",
            starts_on=plan.starts_on,
            level=plan.level,
            rounds_planned=rounds,
        )
        for plan in plans
    )
    entries = Registration.objects.bulk_create(
        Registration(tournament=tournament, player=player_of[index])
        for tournament, plan in zip(created_tournaments, plans, strict=True)
        for index in plan.players
    )
    entry_of = {(entry.tournament_id, entry.player_id): entry for entry in entries}
    round_rows = Round.objects.bulk_create(
        Round(
            tournament=tournament,
            number=number,
            status=RoundStatus.CLOSED,
            seating_mode=SeatingMode.RANDOM,
        )
        for tournament in created_tournaments
        for number in range(1, rounds + 1)
    )
    rounds_of = {(row.tournament_id, row.number): row for row in round_rows}
    table_specs = [
        (rounds_of[(tournament.pk, number)], table_number, table)
        for tournament, plan in zip(created_tournaments, plans, strict=True)
        for number, tables in enumerate(plan.rounds, start=1)
        for table_number, table in enumerate(tables, start=1)
    ]
    if shuffled:
        order_rng.shuffle(table_specs)
    table_rows = Table.objects.bulk_create(
        (Table(round=round_, number=number) for round_, number, _table in table_specs),
        batch_size=2000,
    )
    results = TableResult.objects.bulk_create(
        (TableResult(table=table, last_position=0, last_version_id=0) for table in table_rows),
        batch_size=2000,
    )
    seat_rows = []
    for result, (round_, _number, table) in zip(results, table_specs, strict=True):
        totals = {
            str(entry_of[(round_.tournament_id, player_of[index].pk)].pk): points
            for index, points in table.totals.items()
        }
        # Synthetic results have totals and no deals: nothing to count at the table.
        no_deals = {player: SeatTally() for player in totals}
        seat_rows.extend(
            seat_results(result, round_results(round_.number, totals, scheme), tallies=no_deals)
        )
    SeatResult.objects.bulk_create(seat_rows, batch_size=5000)
    return Built(
        players=players,
        tournaments=tournaments,
        tables=len(table_rows),
        seat_results=len(seat_rows),
    )
