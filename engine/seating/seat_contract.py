"""The JSON contract of `python -m engine seat` (README, "The engine's command line"): a request
in, rounds and warnings out."""

from __future__ import annotations

from typing import Any

from engine.errors import SheetError, shown
from engine.seating.checks import SeatingPlayer
from engine.seating.seat import seat_players

SEAT_FIELDS = frozenset(
    {"mode", "seed", "table_size", "avoid_same_club", "rounds", "players", "history"}
)
PLAYER_FIELDS = frozenset({"id", "club", "score", "fixed_table"})


def _player_from_json(data: object, number: int) -> SeatingPlayer:
    where = f"players: entry {number}"
    if not isinstance(data, dict):
        raise SheetError(f"{where} must be a JSON object, got {shown(data)}", field="players")
    for name in data:
        if name not in PLAYER_FIELDS:
            raise SheetError(f"{where}: unknown field {shown(name)}", field="players")
    if "id" not in data:
        raise SheetError(f"{where}: id is missing", field="players")
    score = data.get("score", 0.0)
    if score is None:
        score = 0.0
    return SeatingPlayer(
        id=data["id"],
        club=data.get("club"),
        score=score,
        fixed_table=data.get("fixed_table"),
    )


def seat_json(data: object) -> dict[str, Any]:
    """Seat from the command line's JSON (parsed); raises `SheetError` on bad input."""
    if not isinstance(data, dict):
        raise SheetError(f"the input must be a JSON object, got {shown(data)}", field="input")
    for name in data:
        if name not in SEAT_FIELDS:
            raise SheetError(f"unknown field {shown(name)}", field=str(name))
    if "players" not in data:
        raise SheetError("players is missing", field="players")
    players = data["players"]
    if not isinstance(players, list):
        raise SheetError(f"players must be a list, got {shown(players)}", field="players")
    history = data.get("history", [])
    if history is None:
        history = []
    plan = seat_players(
        [_player_from_json(entry, number) for number, entry in enumerate(players, start=1)],
        mode=data.get("mode", "random"),
        seed=data.get("seed", 0),
        avoid_same_club=data.get("avoid_same_club", False),
        rounds=data.get("rounds", 1),
        history=history,
        table_size=data.get("table_size", 3),
    )
    return {
        "rounds": [[list(table.players) for table in tables] for tables in plan.rounds],
        "warnings": list(plan.warnings),
    }
