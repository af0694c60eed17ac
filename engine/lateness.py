"""Late and absent players (docs/rules.md, "Late and absent players").

A tournament may give a late player a waiting time in minutes: coming later than that costs him
one personal penalty pule. It may also name the deal by which a late player is out of the round:
his table of 4 then plays the round as a table of 3 without him, and he has no result for it.
A table of 3 cannot play on with two players.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from engine.errors import SheetError, gettext_noop, shown

SECONDS_PER_MINUTE = 60
TABLE_THAT_PLAYS_ON = 4  # only a table of 4 keeps three players when one is out


def minutes_late(started_at: datetime.datetime, arrived_at: datetime.datetime) -> int:
    """Whole minutes a player came after the round started (0 when he came in time): a player
    who came 3 min 59 s late is 3 minutes late."""
    seconds = (arrived_at - started_at).total_seconds()
    return max(0, int(seconds // SECONDS_PER_MINUTE))


def late_pule_due(minutes: int, wait_minutes: int | None) -> bool:
    """A late player gets one personal penalty pule when he came after the waiting time (not at
    it: 3 minutes late with 3 minutes' grace is in time). No waiting time set: no pule."""
    if wait_minutes is None:
        return False
    return minutes > wait_minutes


def out_of_round_due(hall_deals: int, out_deal: int) -> bool:
    """A late player is out of the round once he is not there by deal `out_deal`, counted in the
    hall (his own table waits for him): when the round's furthest table has played the deals
    before it, so that deal is under way."""
    return hall_deals >= out_deal - 1


@dataclass(frozen=True, slots=True)
class TableWithout:
    """The table that plays on when a player is out: its players in seat order, each still to
    the left of the previous, and who deals first."""

    players: tuple[str, ...]
    first_dealer: str


def table_without(players: Sequence[str], first_dealer: str, out: str) -> TableWithout:
    """A table of 4 plays on as a table of 3 without the player who is out: the others keep
    their order round the table, and the first dealer stays, unless he is the one out, when the
    player to his left deals first. A table of 3 cannot play on with two."""
    players = tuple(players)
    if out not in players:
        raise SheetError(
            gettext_noop("player %(player)s is not at this table"),
            field="player",
            player=shown(out),
        )
    if len(players) != TABLE_THAT_PLAYS_ON:
        raise SheetError(
            gettext_noop(
                "a table of %(count)s cannot play on without a player: only a table of 4 plays on "
                "as a table of 3"
            ),
            field="player",
            count=len(players),
        )
    if first_dealer not in players:
        raise SheetError(
            gettext_noop("first_dealer %(player)s is not one of the players"),
            field="first_dealer",
            player=shown(first_dealer),
        )
    seat = players.index(out)
    remaining = players[seat + 1 :] + players[:seat]  # from his left, round the table
    order = tuple(name for name in players if name != out)
    dealer = first_dealer if first_dealer != out else remaining[0]
    return TableWithout(players=order, first_dealer=dealer)
