"""Table sizes: how many tables of 3 and of 4 a field needs (SEATING.md)."""

from __future__ import annotations

from engine.errors import SheetError, gettext_noop, shown


def table_sizes(player_count: int) -> tuple[int, ...]:
    """The table sizes for `player_count` players: N mod 3 tables of 4 (listed first), the rest of
    3. Fewer than 3 players, or 5, cannot be seated."""
    if isinstance(player_count, bool) or not isinstance(player_count, int):
        raise SheetError(
            f"players: the number of players must be a whole number, got {shown(player_count)}",
            field="players",
        )
    if player_count < 3:
        raise SheetError(
            gettext_noop(
                "players: too few players to seat (%(count)s): a table needs 3 or 4 players"
            ),
            field="players",
            count=player_count,
        )
    if player_count == 5:
        raise SheetError(
            gettext_noop("players: 5 players cannot be seated at tables of 3 and 4"),
            field="players",
        )
    fours = player_count % 3
    return (4,) * fours + (3,) * ((player_count - 4 * fours) // 3)
