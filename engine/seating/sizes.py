"""Table sizes: how many tables of 3 and of 4 a field needs.

The `table_size` option names the usual size; the other size is the *odd* one, whose tables are
the fewest and are taken in turns: with tables of 3, the N mod 3 tables of 4; with tables of 4,
the tables of 3 (N mod 4 = 1: 3 of them, 2: 2, 3: 1)."""

from __future__ import annotations

from engine.errors import SheetError, gettext_noop, shown


def checked_table_size(table_size: object) -> int:
    """`table_size` if it is 3 or 4; otherwise a `SheetError` naming the field."""
    # 4.0 and true are no table sizes, though Python finds them equal to 4 and 1.
    if isinstance(table_size, int) and not isinstance(table_size, bool) and table_size in (3, 4):
        return table_size
    raise SheetError(f"table_size must be 3 or 4, got {shown(table_size)}", field="table_size")


def odd_size(table_size: int) -> int:
    """The size of the odd tables: 4 with tables of 3, 3 with tables of 4."""
    return 7 - table_size


def is_odd_table(size: int, table_size: int) -> bool:
    """Whether a table of `size` players is a turn at the odd size (a table of history may hold
    fewer or more players than 3 and 4: it counts on the side of the usual size it is on)."""
    return size > 3 if table_size == 3 else size < 4


def table_sizes(player_count: int, table_size: int = 3) -> tuple[int, ...]:
    """The table sizes for `player_count` players, tables of 4 listed first. With `table_size` 3:
    N mod 3 tables of 4, the rest of 3; with 4: the fewest tables of 3 (listed last), the rest
    of 4. Fewer than 3 players, or 5, cannot be seated."""
    table_size = checked_table_size(table_size)
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
    if table_size == 3:
        fours = player_count % 3
        threes = (player_count - 4 * fours) // 3
    else:
        threes = -player_count % 4  # N mod 4 = 1: 3 tables of 3, 2: 2, 3: 1
        fours = (player_count - 3 * threes) // 4
    return (4,) * fours + (3,) * threes
