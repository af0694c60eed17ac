"""The ranking's receivers of scoring's signals (scoring.reactions), connected in
ranking/apps.py: each hands what scoring wrote to the ranking's service, inside the write's
transaction, so a rating that fails undoes the write."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ranking import services

if TYPE_CHECKING:
    from scoring.models import TableResult
    from tournaments.models import Round, Tournament


def table_confirmed(*, table_result: TableResult, **_signal: Any) -> None:
    services.rating_apply_table(table_result=table_result)


def table_unlocked(*, table_result: TableResult, **_signal: Any) -> None:
    services.rating_remove_table(table_result=table_result)


def round_closed(*, round_: Round, **_signal: Any) -> None:
    services.ranking_round_closed(round_=round_)


def tournament_imported(*, tournament: Tournament, **_signal: Any) -> None:
    services.ranking_tournament_imported(tournament=tournament)
