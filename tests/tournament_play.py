"""Tournaments played fast, for the tests of every app that reads their results: rounds
published, tables confirmed from their totals or through the services with random valid deals,
and a table confirmed as the round clock confirms it when time is called."""

from __future__ import annotations

import itertools
import random

from engine import (
    PenaltyPule,
    Play,
    dealer_for,
    round_results,
    score_sheet,
)
from engine.rules import Game
from engine.simulate import random_deal
from scoring import services
from scoring.models import TWELFTHS, DealResult, SeatResult, TableResult
from scoring.services import Writer, round_generate_seating
from scoring.sheet.lines import engine_sheet
from tests.factories import deals_on_sheet, make_registrations, make_tournament, seat_keys
from tournaments import services as tournament_services
from tournaments.models import Round, RoundStatus, Table, Tournament
from tournaments.rule_set import round_rule_set

keys = (f"standings-key-{number}" for number in itertools.count())
REFEREE = Writer(ip_address="10.0.0.9")


# -- Factories: fast tournaments with confirmed results ------------------------------------------


def publish_next_round(tournament: Tournament, *, seed: int = 1) -> Round:
    round_ = tournament_services.round_create(tournament=tournament)
    round_generate_seating(round_=round_, seed=seed, by=None)
    return tournament_services.round_publish(round_=round_, by=None)


def confirm_with_totals(table: Table, totals: dict[str, int]) -> TableResult:
    """A confirmed table written directly (as table_confirm would), from its final totals:
    fast enough to build a tournament of many tables."""
    round_ = table.round
    result = TableResult.objects.create(table=table, last_position=0, last_version_id=0)
    SeatResult.objects.bulk_create(
        SeatResult(
            table_result=result,
            registration_id=int(row.player),
            round_number=round_.number,
            game_points=row.game_points,
            place_points_twelfths=int(row.place_points * TWELFTHS),
            place=row.place,
        )
        for row in round_results(round_.number, totals, round_rule_set(round_).place_scheme)
    )
    return result


def random_totals(players: list[str], rng: random.Random) -> dict[str, int]:
    """Zero-sum table totals, as a real sheet always gives."""
    points = [rng.randint(-24, 24) for _ in players[:-1]]
    return dict(zip(players, [*points, -sum(points)], strict=True))


def played_tournament(
    *, players: int, rounds: int, seed: int = 7, close: bool = True, **fields
) -> Tournament:
    """A tournament whose `rounds` rounds are seated, published and every table confirmed."""
    fields.setdefault("rounds_planned", max(rounds, 2))
    tournament = make_tournament(**fields)
    make_registrations(tournament, players, clubs=3)
    rng = random.Random(seed)
    for number in range(1, rounds + 1):
        round_ = publish_next_round(tournament, seed=seed + number)
        for table in round_.tables.all():
            confirm_with_totals(table, random_totals(seat_keys(table), rng))
        if close:
            Round.objects.filter(pk=round_.pk).update(status=RoundStatus.CLOSED)
    return tournament


# -- Real tables through the services ------------------------------------------------------------


def lielais(declarer: str) -> Play:
    return Play(Game.LIELAIS, declarer, tricks=5, points=75)


def play_round_at(table: Table, choose_declarer, *, entries_before: int = 0) -> None:
    """Every deal a won Lielais (75 points) of the player `choose_declarer` picks, after the
    sheet's `entries_before` entries (penalty pules given before the first deal)."""
    players = seat_keys(table)
    first_dealer = players[table.first_dealer_position - 1]
    deals = table.round.tournament.deals_per_round
    for index in range(deals):
        dealer = dealer_for(players, first_dealer, index)
        services.deal_record(
            table=table,
            entry=lielais(choose_declarer(players, dealer)),
            position=entries_before + index + 1,
            client_key=next(keys),
            writer=REFEREE,
        )


def next_not_dealing(players: list[str], dealer: str) -> str:
    """The player after the dealer: over a round everyone declares equally often."""
    return players[(players.index(dealer) + 1) % len(players)]


def favourite_first(players: list[str], dealer: str) -> str:
    """The first seat declares unless dealing; then the second."""
    return players[0] if dealer != players[0] else players[1]


def confirm(table) -> None:
    confirmer = table.seats.order_by("position").first().registration
    services.table_confirm(
        table=table, writer=REFEREE, confirmer=confirmer, deals_seen=deals_on_sheet(table)
    )


def play_deals(table, count: int, *, seed: int = 1, penalty_before: int | None = None) -> None:
    """`count` random valid deals through the services, a penalty pule where asked."""
    rng = random.Random(seed)
    players = seat_keys(table)
    first_dealer = players[table.first_dealer_position - 1]
    rules = round_rule_set(table.round).rules
    position = 1
    for index in range(count):
        if penalty_before == index + 1:
            services.deal_record(
                table=table,
                entry=PenaltyPule(players[1]),
                position=position,
                client_key=next(keys),
                writer=REFEREE,
            )
            position += 1
        dealer = dealer_for(players, first_dealer, index)
        deal = random_deal(rng, players=players, dealer=dealer, rules=rules)
        services.deal_record(
            table=table, entry=deal, position=position, client_key=next(keys), writer=REFEREE
        )
        position += 1


def with_rules(table: Table, **options) -> Table:
    """The table's tournament has these options (a rule for late players, say)."""
    Tournament.objects.filter(pk=table.round.tournament_id).update(**options)
    table.round.tournament.refresh_from_db()
    return table


def hall_plays(table: Table, deals: int) -> Table:
    """Another table of the round plays `deals` deals (won Lielais, never by the dealer)."""
    other = table.round.tables.exclude(pk=table.pk).first()
    players = seat_keys(other)
    first = players[other.first_dealer_position - 1]
    for index in range(deals):
        dealer = dealer_for(players, first, index)
        services.deal_record(
            table=other,
            entry=lielais(next(p for p in players if p != dealer)),
            position=index + 1,
            client_key=next(keys),
            writer=REFEREE,
        )
    return other


def confirm_when_time_was_called(table) -> None:
    """The table confirmed with the deals it has, its round's time up, as the round clock's
    confirmation writes it: the sheet closed and settled by the engine, the results stored."""
    rule_set = round_rule_set(table.round)
    seats = list(table.seats.order_by("position"))
    results = list(DealResult.objects.filter(table=table).order_by("position", "version"))
    scored = score_sheet(
        engine_sheet(table, seats=seats, results=results, rules=rule_set.rules, closed=True)
    )
    confirmation = TableResult.objects.create(
        table=table,
        confirmed_by_registration=seats[0].registration,
        last_position=len(results),
        last_version_id=max(result.pk for result in results),
        time_called=True,
    )
    SeatResult.objects.bulk_create(
        SeatResult(
            table_result=confirmation,
            registration_id=int(row.player),
            round_number=table.round.number,
            game_points=row.game_points,
            place_points_twelfths=int(row.place_points * TWELFTHS),
            place=row.place,
        )
        for row in round_results(table.round.number, scored.totals, rule_set.place_scheme)
    )
