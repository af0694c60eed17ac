"""Small builders that make engine tests read like the sheet a referee keeps."""

from __future__ import annotations

from engine import Galdins, Pass, PenaltyPule, Play, Rules, Sheet, score_sheet
from engine.rules import Game
from engine.sheet import ScoredSheet

THREE = ("A", "B", "C")
FOUR = ("A", "B", "C", "D")


def lielais(declarer: str, points: int, tricks: int) -> Play:
    return Play(Game.LIELAIS, declarer, tricks=tricks, points=points)


def zole(declarer: str, points: int, tricks: int) -> Play:
    return Play(Game.ZOLE, declarer, tricks=tricks, points=points)


def maza_zole(declarer: str, tricks: int) -> Play:
    return Play(Game.MAZA_ZOLE, declarer, tricks=tricks)


def everyone_passes() -> Pass:
    return Pass()


def galdins(
    tricks: dict[str, int], points: dict[str, int], draw_loser: str | None = None
) -> Galdins:
    return Galdins(tricks=tricks, points=points, draw_loser=draw_loser)


def penalty(player: str) -> PenaltyPule:
    return PenaltyPule(player)


def play(
    *entries,
    players: tuple[str, ...] = THREE,
    first_dealer: str | None = None,
    closed: bool = True,
    **rules,
) -> ScoredSheet:
    """Score a sheet of these entries at a table of `players` under these rule options."""
    return score_sheet(
        Sheet(
            players=players,
            entries=entries,
            rules=Rules(**rules),
            first_dealer=first_dealer,
            closed=closed,
        )
    )
