"""What seating a round reads: the earlier rounds' tables and the players' scores so far."""

from fractions import Fraction
from functools import cache

from django.db import connection

from engine.standings import RoundResult, rank_standings
from tournaments.models import (
    Entry,
    Player,
    Round,
    Seat,
    Tournament,
)


def seating_history(*, tournament: Tournament, before_round: int) -> list[list[list[str]]]:
    """The tables of the earlier rounds, as the engine's seating history (entry ids)."""
    seats = (
        Seat.objects.filter(
            table__round__tournament=tournament, table__round__number__lt=before_round
        )
        .order_by("table__round__number", "table__number", "position")
        .values_list("table__round__number", "table__number", "entry_id")
    )
    rounds: dict[int, dict[int, list[str]]] = {}
    for round_number, table_number, entry_id in seats:
        rounds.setdefault(round_number, {}).setdefault(table_number, []).append(str(entry_id))
    return [list(tables.values()) for _, tables in sorted(rounds.items())]


def round_seating(*, round_: Round) -> list[list[str]]:
    """A round's tables as lists of player names in seat order (for audit before/after)."""
    tables: dict[int, list[str]] = {}
    for table_number, name in (
        Seat.objects.filter(table__round=round_)
        .order_by("table__number", "position")
        .values_list("table__number", "entry__player__full_name")
    ):
        tables.setdefault(table_number, []).append(name)
    return list(tables.values())


def entry_scores(*, tournament: Tournament, before_round: int) -> dict[int, float]:
    """Each entry's standing before a round, for swiss seating: the better the rank in the
    standings of the confirmed results so far, the higher the score (entries without results
    stand at the bottom together)."""
    rows = (
        tournament.entries.filter(seat_results__round_number__lt=before_round)
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
            player=str(entry_id),
            round_number=round_number,
            game_points=game_points,
            place_points=Fraction(twelfths, 12),
        )
        for entry_id, round_number, game_points, twelfths in rows
    ]
    standings = rank_standings(results, order=tournament.standings_order.split(","))
    return {
        int(standing.player): float(len(standings) - standing.rank + 1) for standing in standings
    }


# What a table's sheet reads of its seats: the seat, its entry, the entry's player's name (the
# other fields of the entry and the player stay deferred: read when asked for).
SEAT_FIELDS = ("id", "table_id", "position", "entry_id")
SEAT_ENTRY_FIELDS = ("id", "tournament_id", "player_id")
SEAT_PLAYER_FIELDS = ("id", "full_name")


@cache
def _table_seats_sql(vendor: str) -> str:
    quote = connection.ops.quote_name

    def columns(model: type, alias: str, names: tuple[str, ...]) -> list[str]:
        return [f"{alias}.{quote(model._meta.get_field(name).column)}" for name in names]

    def column(model: type, name: str) -> str:
        return quote(model._meta.get_field(name).column)

    selected = ", ".join(
        [
            *columns(Seat, "s", SEAT_FIELDS),
            *columns(Entry, "e", SEAT_ENTRY_FIELDS),
            *columns(Player, "p", SEAT_PLAYER_FIELDS),
        ]
    )
    return (
        f"SELECT {selected} FROM {quote(Seat._meta.db_table)} s "
        f"JOIN {quote(Entry._meta.db_table)} e ON e.id = s.{column(Seat, 'entry')} "
        f"JOIN {quote(Player._meta.db_table)} p ON p.id = e.{column(Entry, 'player')} "
        f"WHERE s.{column(Seat, 'table')} = %s ORDER BY s.{column(Seat, 'position')}"
    )


def table_seats(table_id: int) -> list[Seat]:
    """A table's seats in order, each with its entry and the entry's player (its name).

    One statement of plain SQL (names from the models), read on every deal and every view of a
    table's sheet, where the ORM's select_related took several times longer to build the query
    and its instances than the database took to answer; the rows become instances through
    `Model.from_db`, the documented way to make an instance of a row."""
    width_seat, width_entry = len(SEAT_FIELDS), len(SEAT_ENTRY_FIELDS)
    with connection.cursor() as cursor:
        cursor.execute(_table_seats_sql(connection.vendor), [table_id])
        rows = cursor.fetchall()
    seats = []
    for row in rows:
        seat = Seat.from_db(connection.alias, SEAT_FIELDS, row[:width_seat])
        entry = Entry.from_db(
            connection.alias, SEAT_ENTRY_FIELDS, row[width_seat : width_seat + width_entry]
        )
        entry.player = Player.from_db(
            connection.alias, SEAT_PLAYER_FIELDS, row[width_seat + width_entry :]
        )
        seat.entry = entry
        seats.append(seat)
    return seats
