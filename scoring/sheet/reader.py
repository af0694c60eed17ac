"""Where a table's sheet is read: through either door of the entry page, by the public pages and
the documents, and by a write under the table's lock. Every path reads the same statements
(`scoring.sheet.plain_sql`) and gives the one shape (`scoring.sheet.shape.TableSheet`).

    table_by_link(token)      the link's table, round, tournament, confirmation, when heard
    table_by_id(table_id)     the same row for the signed-in door (no link)
    sheet_frame(table, ...)   its seats and players, its rules: what a form needs
    read_sheet(frame)         every version of its entries: the sheet
    locked_sheet(table, ...)  the sheet under the table's lock, inside a write's transaction
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection

from scoring.models import TableHeard, TableResult
from scoring.sheet import plain_sql
from scoring.sheet.shape import SheetFrame, TableSheet, sheet_players
from tournaments.models import RoundStatus, Seat, Table, TableToken
from tournaments.round_clock import round_clock
from tournaments.rule_set import round_rule_set
from tournaments.services import lock_round_and_table


@dataclass(frozen=True)
class DoorTable:
    """A table as a door of the entry page reads it, in one statement."""

    table: Table | None  # with its round and tournament; None: the link outlived its table
    confirmation: TableResult | None
    heard: TableHeard | None  # when its phone was last heard from (None: never)
    link: TableToken | None = None  # None: the signed-in door

    @property
    def seated_table(self) -> Table:
        """The table; Table.DoesNotExist when the round was seated again since its link was
        issued (the signed-in door finds no table to pass: a 404)."""
        if self.table is None:
            raise Table.DoesNotExist
        return self.table


def _door_table(parts: tuple | None) -> DoorTable | None:
    if parts is None:
        return None
    link, table, round_, tournament, confirmation, heard = parts
    if table is not None:
        round_.tournament = tournament
        table.round = round_
        if link is not None:
            link.table = table
    return DoorTable(table, confirmation, heard, link)


def table_by_link(token: str) -> DoorTable | None:
    """The link `token` with its table (None when the round was seated again since); None for
    a token that was never issued."""
    return _door_table(plain_sql.table_row(token=token))


def table_by_id(table_id: int) -> DoorTable | None:
    """The table `table_id` as the link door reads it; None when there is no such table (an
    id beyond the column's range too: a URL may hold any number)."""
    low, high = connection.ops.integer_field_range(Table._meta.pk.get_internal_type())
    if not low <= table_id <= high:
        return None
    return _door_table(plain_sql.table_row(table_id=table_id))


def sheet_frame(table: Table, confirmation: TableResult | None) -> SheetFrame:
    """The frame of `table` (with its round and tournament) and its `confirmation`: its seats,
    in one query. Raises Table.DoesNotExist for a table without seats (a table is created with
    them: it was deleted, its round seated again)."""
    seats = tuple(plain_sql.table_seats(table.pk))
    if not seats:
        raise Table.DoesNotExist(f"table {table.pk} has no seats")
    return SheetFrame(
        table=table,
        confirmation=confirmation,
        seats=seats,
        players=sheet_players(seats),
        rule_set=round_rule_set(table.round),
    )


def read_sheet(frame: SheetFrame) -> TableSheet:
    """The frame's table with every version of its entries: one query."""
    table = frame.table
    return TableSheet(frame, tuple(plain_sql.table_results(table.pk)), round_clock(table.round))


def table_sheet(*, table_id: int) -> TableSheet:
    """The sheet of the table `table_id`, in three queries whatever the number of deals.
    Raises Table.DoesNotExist."""
    door = table_by_id(table_id)
    if door is None or door.table is None:
        raise Table.DoesNotExist(f"no table {table_id}")
    return read_sheet(sheet_frame(door.table, door.confirmation))


def locked_sheet(
    table: Table, *, entry_write: bool = False, frame: SheetFrame | None = None
) -> TableSheet:
    """The table's sheet under its row lock, inside the caller's transaction. `entry_write` (a
    deal, a correction): when the round is in play, its row is locked shared, so the tables of a
    round are written side by side; the first deal of a round updates the round's row (in play)
    and locks it alone. A round never goes back to published, so a round read in play stays in
    play or closes, and closing (FOR UPDATE) waits for the shared lock.

    `frame`: the table's seats and players as this request read them. The seats are read again
    here, under the lock: a player put out of the round loses his seat (his table plays on as a
    table of 3), perhaps from another phone after this request read them, and a write checked
    against the seats it read before the lock would store a deal of a player no longer at the
    table. Whether the table is confirmed is read after the lock too, by a statement of its own,
    so it sees a confirmation committed while this write waited."""
    if entry_write and table.round.status == RoundStatus.IN_PLAY:
        _round, locked = plain_sql.lock_table_in_round_in_play(table)
    else:
        _round, locked = lock_round_and_table(table)
    confirmation = plain_sql.table_confirmation(locked.pk)
    seats = tuple(plain_sql.table_seats(locked.pk))
    if not seats:
        raise Table.DoesNotExist(f"table {locked.pk} has no seats")
    if frame is None or _seating(seats) != _seating(frame.seats):
        players = sheet_players(seats)
    else:
        players = frame.players  # the same seats: the players as the request built them
    frame = SheetFrame(
        table=locked,
        confirmation=confirmation,
        seats=seats,
        players=players,
        rule_set=frame.rule_set if frame is not None else round_rule_set(locked.round),
    )
    return read_sheet(frame)


def _seating(seats: tuple[Seat, ...]) -> tuple[tuple[int, int], ...]:
    """Who sits where: a model instance compares by its id alone, which a renumbered seat keeps."""
    return tuple((seat.position, seat.registration_id) for seat in seats)
