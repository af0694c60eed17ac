"""What seating a round reads of the tournament: the earlier rounds' tables (the standings
before the round are scoring's, scoring.selectors.standings_before)."""

from tournaments.models import Round, Seat, Tournament


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
