"""What the apps built on scoring do when scoring writes, without scoring importing them.

Scoring sits below the ranking: the ranking reads confirmed tables, so scoring may not call it.
An app above registers its reaction here once, in its `AppConfig.ready` (ranking/apps.py rates
the players of a confirmed table); scoring's services call every registered reaction inside the
same transaction as their own write, so a reaction that fails undoes the write and nobody sees
one without the other. The reactions are plain functions taking keyword arguments, listed here
by the write they follow.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the models import nothing from here; the names are for the signatures only
    from scoring.models import TableResult
    from tournaments.models import Round, Tournament

TableReaction = Callable[..., None]  # called as reaction(table_result=...)
RoundReaction = Callable[..., None]  # called as reaction(round_=...)
TournamentReaction = Callable[..., None]  # called as reaction(tournament=...)

_table_confirmed: list[TableReaction] = []
_table_unlocked: list[TableReaction] = []
_round_closed: list[RoundReaction] = []
_tournament_imported: list[TournamentReaction] = []


def on_table_confirmed(reaction: TableReaction) -> None:
    """`reaction(table_result=...)` after a table's result is written (the seats' results too)."""
    if reaction not in _table_confirmed:
        _table_confirmed.append(reaction)


def on_table_unlocked(reaction: TableReaction) -> None:
    """`reaction(table_result=...)` just before a confirmed table's result is deleted."""
    if reaction not in _table_unlocked:
        _table_unlocked.append(reaction)


def on_round_closed(reaction: RoundReaction) -> None:
    """`reaction(round_=...)` after a round is marked closed."""
    if reaction not in _round_closed:
        _round_closed.append(reaction)


def on_tournament_imported(reaction: TournamentReaction) -> None:
    """`reaction(tournament=...)` after a whole tournament is written from an archive: its
    tables confirmed and rounds closed with none of the reactions above."""
    if reaction not in _tournament_imported:
        _tournament_imported.append(reaction)


def table_confirmed(*, table_result: TableResult) -> None:
    for reaction in _table_confirmed:
        reaction(table_result=table_result)


def table_unlocked(*, table_result: TableResult) -> None:
    for reaction in _table_unlocked:
        reaction(table_result=table_result)


def round_closed(*, round_: Round) -> None:
    for reaction in _round_closed:
        reaction(round_=round_)


def tournament_imported(*, tournament: Tournament) -> None:
    for reaction in _tournament_imported:
        reaction(tournament=tournament)
