"""Stored deal results as the engine's sheet lines, and what a table's stored versions say
(its current entries, the deals played, the deal limit once time is up).

Players are keyed in the engine by their registration id (as text), so two players of the same name
never mix; pages map the keys back to names."""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Protocol, cast

from engine import Galdins, Pass, PenaltyPule, Play, Rules, Sheet
from engine.deals import SheetLine
from engine.rules import Game
from scoring.models import DealResult, EntryKind, TableResult
from tournaments.models import Registration, Seat, Table
from tournaments.round_clock import RoundClock

NO_DEAL = (EntryKind.VOID, EntryKind.PENALTY)  # a removed entry, a penalty pule


def current_results(results: Iterable[DealResult]) -> list[DealResult]:
    """The newest version of every entry, in sheet order; removed entries are left out.

    `results` are one table's rows ordered by position and version."""
    newest: dict[int, DealResult] = {}
    for result in results:
        newest[result.position] = result
    return [
        newest[position] for position in sorted(newest) if newest[position].kind != EntryKind.VOID
    ]


def deals_played(current: Iterable[DealResult]) -> int:
    """The deals among a sheet's current entries (`current_results`): a penalty uses none."""
    return sum(1 for result in current if result.kind != EntryKind.PENALTY)


def deals_at(results: Iterable[DealResult], moment: datetime.datetime) -> int:
    """The deals on the sheet as it stood at `moment`: each entry's newest version written by
    then. Versions are never rewritten, so this is known at any later time (a deal removed or
    corrected since does not change it)."""
    newest: dict[int, DealResult] = {}
    for result in results:
        if result.created_at <= moment:
            newest[result.position] = result
    return sum(1 for result in newest.values() if result.kind not in NO_DEAL)


def deal_limit(
    results: Iterable[DealResult], *, clock: RoundClock, deals_per_round: int, allowed_more: int
) -> int:
    """The deals a table may have on its sheet: every planned one; once the round's time is up
    (called, or run out), those it had then and the deal under way (and as many more as the
    chief referee allowed it: `Table.deals_allowed_after_time`).

    Derived from the versions' times rather than counted when time is called: the clock
    running out is no write that could count, and a clock reset takes the limit away."""
    ended_at = clock.ended_at
    if ended_at is None:
        return deals_per_round
    return min(deals_per_round, deals_at(results, ended_at) + 1 + allowed_more)


def sheet_is_closed(
    *, deals_played: int, deals_per_round: int, confirmation: TableResult | None
) -> bool:
    """The table's round is over, so the end-of-round settlement applies: every planned deal
    is in, or the table was confirmed with fewer because the round's time was up
    (docs/rules.md, "Seats, dealers and who plays": its sheet is closed and settled as usual)."""
    return deals_played >= deals_per_round or (
        confirmation is not None and confirmation.time_called
    )


def sheet_line(result: DealResult) -> SheetLine:
    """A stored result as a line of the engine's sheet."""
    if result.kind == EntryKind.PASS:
        return Pass()
    if result.kind == EntryKind.PENALTY:
        return PenaltyPule(str(result.player_id))
    if result.kind == EntryKind.GALDINS:
        galdins = result.galdins or {}
        return Galdins(
            tricks=galdins.get("tricks", {}),
            points=galdins.get("points", {}),
            draw_loser=galdins.get("draw_loser"),
        )
    # A play is always stored with its tricks (result_fields); the column is nullable for the
    # other kinds.
    tricks = cast(int, result.tricks)
    return Play(Game(result.game), str(result.player_id), tricks=tricks, points=result.points)


class SeatPlace(Protocol):
    """What the sheet's order reads of a seat: a `Seat`, or a row read as one."""

    @property
    def position(self) -> int: ...

    @property
    def registration_id(self) -> int: ...


def seat_keys(seats: Sequence[SeatPlace]) -> tuple[str, ...]:
    return tuple(
        str(seat.registration_id) for seat in sorted(seats, key=lambda seat: seat.position)
    )


def engine_sheet(
    table: Table,
    *,
    seats: Sequence[SeatPlace],
    results: Iterable[DealResult],
    rules: Rules,
    extra: Sequence[SheetLine] = (),
    closed: bool = False,
) -> Sheet:
    """The engine's sheet of a table: its players in seat order, its current entries (plus any
    `extra` being added) under the rules of its round (`tournaments.rule_set`)."""
    players = seat_keys(seats)
    entries = [sheet_line(result) for result in current_results(results)]
    return Sheet(
        players=players,
        entries=(*entries, *extra),
        rules=rules,
        first_dealer=players[table.first_dealer_position - 1],
        closed=closed,
    )


def result_fields(line: SheetLine) -> dict[str, object]:
    """The DealResult fields that store a sheet line."""
    if isinstance(line, Pass):
        return {"kind": EntryKind.PASS}
    if isinstance(line, PenaltyPule):
        return {"kind": EntryKind.PENALTY, "player_id": int(line.player)}
    if isinstance(line, Galdins):
        galdins: dict[str, object] = {"tricks": dict(line.tricks), "points": dict(line.points)}
        if line.draw_loser is not None:  # a rondo galdiņš decided by the card draw
            galdins["draw_loser"] = line.draw_loser
        return {"kind": EntryKind.GALDINS, "galdins": galdins}
    return {
        "kind": EntryKind.PLAY,
        "game": line.game.value,
        "player_id": int(line.declarer),
        "points": line.points,
        "tricks": line.tricks,
    }


def sheet_names(seats: list[Seat], entries: dict[int, Registration]) -> dict[str, str]:
    """The players' names at one table, by registration id (as text). Namesakes at one table
    are told apart by their licence numbers, or by their registration ids when they have none."""
    names = {
        str(seat.registration_id): entries[seat.registration_id].player.full_name for seat in seats
    }
    repeated = {name for name, count in Counter(names.values()).items() if count > 1}
    for seat in seats:
        player = entries[seat.registration_id].player
        if player.full_name in repeated:
            label = player.licence_number or f"#{seat.registration_id}"
            names[str(seat.registration_id)] = f"{player.full_name} ({label})"
    return names
