"""Reads for a round's seating list: its tables with their players in seat order, and every
player alphabetically with his table and seat. Two queries."""

from collections import defaultdict

from core.engine_text import display_name_key
from documents.seating_list import (
    CheckInNotice,
    SeatingList,
    SeatingPlayer,
    SeatingSeat,
    SeatingTable,
)
from documents.selectors.heading import event_info
from tournaments.models import Round, Seat


def round_seating_list(*, round_: Round, check_in: CheckInNotice | None = None) -> SeatingList:
    """The round's tables with their players in seat order, and every player alphabetically
    (Latvian order) with his table and seat (and the organiser's `check_in`). Two queries."""
    tables = round_.tables.order_by("number").values_list("id", "number", "first_dealer_position")
    seated: dict[int, list[tuple[int, str, str, str]]] = defaultdict(list)
    for table_id, position, name, club, licence in (
        Seat.objects.filter(table__round=round_)
        .values_list(
            "table_id",
            "position",
            "registration__player__full_name",
            "registration__player__club__name",
            "registration__player__licence_number",
        )
        .order_by("table_id", "position")
    ):
        seated[table_id].append((position, name, club or "", licence))  # "": no club
    seating_tables = []
    players = []
    for table_id, number, first_dealer_position in tables:
        seats = []
        for position, name, club, licence in seated[table_id]:
            seats.append(
                SeatingSeat(
                    position=position,
                    name=name,
                    club=club,
                    licence=licence,
                    deals_first=position == first_dealer_position,
                )
            )
            players.append(
                SeatingPlayer(name=name, club=club, licence=licence, table=number, seat=position)
            )
        seating_tables.append(SeatingTable(number=number, seats=tuple(seats)))
    players.sort(key=lambda player: display_name_key(player.name))
    return SeatingList(
        event=event_info(round_.tournament),
        round_number=round_.number,
        tables=tuple(seating_tables),
        players=tuple(players),
        check_in=check_in,
    )
