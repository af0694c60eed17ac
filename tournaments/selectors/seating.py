"""What seating a round reads: the earlier rounds' tables and the players' scores so far."""

from fractions import Fraction

from engine.standings import RoundResult, Standing, rank_standings, rank_texts
from tournaments.models import (
    Round,
    Seat,
    Tournament,
)
from tournaments.rule_set import absent_rule, standings_order


def seating_history(*, tournament: Tournament, before_round: int) -> list[list[list[str]]]:
    """The tables of the earlier rounds, as the engine's seating history (registration ids)."""
    seats = (
        Seat.objects.filter(
            table__round__tournament=tournament, table__round__number__lt=before_round
        )
        .order_by("table__round__number", "table__number", "position")
        .values_list("table__round__number", "table__number", "registration_id")
    )
    rounds: dict[int, dict[int, list[str]]] = {}
    for round_number, table_number, registration_id in seats:
        rounds.setdefault(round_number, {}).setdefault(table_number, []).append(
            str(registration_id)
        )
    return [list(tables.values()) for _, tables in sorted(rounds.items())]


def round_seating(*, round_: Round) -> list[list[str]]:
    """A round's tables as lists of player names in seat order (for audit before/after)."""
    tables: dict[int, list[str]] = {}
    for table_number, name in (
        Seat.objects.filter(table__round=round_)
        .order_by("table__number", "position")
        .values_list("table__number", "registration__player__full_name")
    ):
        tables.setdefault(table_number, []).append(name)
    return list(tables.values())


def standings_before(*, tournament: Tournament, before_round: int) -> list[Standing]:
    """The standings of the confirmed results of the rounds before `before_round`, every entry
    in them, ranked as the standings pages rank them (the tournament's order and its rule for
    absent players): what seating by rank cuts into tables."""
    rows = (
        tournament.registrations.filter(seat_results__round_number__lt=before_round)
        .values_list(
            "pk",
            "seat_results__round_number",
            "seat_results__game_points",
            "seat_results__place_points_twelfths",
        )
        .order_by()
    )
    results = [
        RoundResult(
            player=str(registration_id),
            round_number=round_number,
            game_points=game_points,
            place_points=Fraction(twelfths, 12),
        )
        for registration_id, round_number, game_points, twelfths in rows
    ]
    names = {
        str(pk): name
        for pk, name in tournament.registrations.values_list("pk", "player__full_name").order_by()
    }
    return rank_standings(
        results,
        players=names.keys(),
        names=names,
        order=standings_order(tournament),
        absent=absent_rule(tournament),
    )


def registration_scores(*, tournament: Tournament, before_round: int) -> dict[int, float]:
    """Each entry's standing before a round, for seating by standings: the better the rank in
    `standings_before`, the higher the score; players sharing a rank share a score (the seed
    decides among them)."""
    standings = standings_before(tournament=tournament, before_round=before_round)
    return {
        int(standing.player): float(len(standings) - standing.rank + 1) for standing in standings
    }


def registration_rank_labels(*, tournament: Tournament, before_round: int) -> dict[int, str]:
    """Each entry's rank before a round as the standings show it ("7–8" when shared)."""
    standings = standings_before(tournament=tournament, before_round=before_round)
    labels = rank_texts(standing.rank for standing in standings)
    return {int(standing.player): labels[standing.rank] for standing in standings}
