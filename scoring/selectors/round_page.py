"""A round's public page: its tables, seats and results."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from engine.names import search_key
from scoring.models import DealResult, SeatResult, twelfths_fraction
from scoring.selectors.public_results import has_public_result, points_text
from scoring.sheet.lines import current_results, deals_played
from tournaments.models import Round, Seat, Table


@dataclass(frozen=True)
class SeatLine:
    position: int
    registration_id: int
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
        .annotate(has_page=has_public_result("registration__player_id"))
        .values_list(
            "table_id",
            "position",
            "registration_id",
            "registration__player_id",
            "registration__player__full_name",
            "registration__player__club__name",
            "has_page",
        )
        .order_by("table_id", "position")
    ):
        seats_by_table[seat[0]].append(seat)
    results = {
        (table_id, registration_id): (game_points, twelfths_fraction(twelfths), place)
        for table_id, registration_id, game_points, twelfths, place in SeatResult.objects.filter(
            table_result__table__round=round_
        )
        .values_list(
            "table_result__table_id",
            "registration_id",
            "game_points",
            "place_points_twelfths",
            "place",
        )
        .order_by()
    }
    confirmed_tables = {table_id for table_id, _entry_id in results}
    time_called_after = _deals_of_short_tables(round_)
    needle = search_key(query)
    lines = []
    for table_id, number, first_dealer_position in tables:
        seats = []
        for _table, position, registration_id, player_id, name, club, has_page in seats_by_table[
            table_id
        ]:
            game_points, place_points, place = results.get(
                (table_id, registration_id), (None, None, None)
            )
            seats.append(
                SeatLine(
                    position=position,
                    registration_id=registration_id,
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
