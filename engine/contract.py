"""The JSON contract of the command line (DESIGN.md): a sheet in, a scored sheet out.

This module only maps JSON shapes to the engine's dataclasses and back; every rule is checked
where it lives (`engine.rules`, `engine.deals`, `engine.sheet`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from engine.deals import Entry, Galdins, Pass, PenaltyPule, Play
from engine.errors import SheetError, shown
from engine.rules import Game, Rules
from engine.sheet import ScoredSheet, Sheet, score_sheet

SHEET_FIELDS = frozenset({"rules", "players", "first_dealer", "deals", "closed"})
RULE_FIELDS = frozenset(option.name for option in fields(Rules))
DEAL_FIELDS = {
    Game.LIELAIS: ({"declarer", "points", "tricks"}, set()),
    Game.ZOLE: ({"declarer", "points", "tricks"}, set()),
    Game.MAZA_ZOLE: ({"declarer", "tricks"}, {"points"}),
    Game.PASS: (set(), set()),
    Game.GALDINS: ({"tricks", "points"}, {"draw_loser"}),
}
PENALTIES = ("personal_pule",)


def _check_fields(
    data: dict[str, Any], required: set[str] | frozenset[str], allowed: set[str] | frozenset[str]
) -> None:
    for name in sorted(required):
        if name not in data:
            raise SheetError(f"{name} is missing", field=name)
    for name in data:
        if name not in allowed:
            raise SheetError(f"unknown field {shown(name)}", field=name)


def entry_from_json(data: object) -> Entry:
    """One element of a sheet's `deals` (raises `SheetError` without a deal number)."""
    if not isinstance(data, dict):
        raise SheetError(f"each deal must be a JSON object, got {shown(data)}", field="deal")
    if "penalty" in data:
        _check_fields(data, {"penalty", "player"}, {"penalty", "player"})
        if data["penalty"] not in PENALTIES:
            raise SheetError(
                f'penalty must be "personal_pule", got {shown(data["penalty"])}',
                field="penalty",
            )
        return PenaltyPule(player=data["player"])
    if "game" not in data:
        raise SheetError('game is missing (or "penalty" for a penalty pule)', field="game")
    try:
        game = Game(data["game"])
    except (ValueError, TypeError):
        choices = ", ".join(member.value for member in Game)
        raise SheetError(
            f"game must be one of {choices}, got {shown(data['game'])}", field="game"
        ) from None
    required, optional = DEAL_FIELDS[game]
    _check_fields(data, required, required | optional | {"game"})
    if game is Game.PASS:
        return Pass()
    if game is Game.GALDINS:
        return Galdins(
            tricks=data["tricks"], points=data["points"], draw_loser=data.get("draw_loser")
        )
    return Play(
        game=game, declarer=data["declarer"], tricks=data["tricks"], points=data.get("points")
    )


def rules_from_json(data: object) -> Rules:
    if not isinstance(data, dict):
        raise SheetError(f"rules must be a JSON object, got {shown(data)}", field="rules")
    for name in data:
        if name not in RULE_FIELDS:
            raise SheetError(f"rules: unknown option {shown(name)}", field=f"rules.{name}")
    return Rules(**data)


def sheet_from_json(data: object) -> Sheet:
    """A `Sheet` from the JSON contract; raises `SheetError` naming the deal and the field."""
    if not isinstance(data, dict):
        raise SheetError(f"a sheet must be a JSON object, got {shown(data)}", field="sheet")
    _check_fields(data, {"players"}, SHEET_FIELDS)
    players = data["players"]
    if not isinstance(players, list):
        raise SheetError(f"players must be a list of names, got {shown(players)}", field="players")
    closed = data.get("closed", True)
    if not isinstance(closed, bool):
        raise SheetError(f"closed must be true or false, got {shown(closed)}", field="closed")
    deals = data.get("deals", [])
    if not isinstance(deals, list):
        raise SheetError(f"deals must be a list, got {shown(deals)}", field="deals")
    entries = []
    for number, deal in enumerate(deals, start=1):
        try:
            entries.append(entry_from_json(deal))
        except SheetError as error:
            raise error.at_deal(number) from None
    return Sheet(
        players=tuple(players),
        entries=tuple(entries),
        rules=rules_from_json(data.get("rules", {})),
        first_dealer=data.get("first_dealer"),
        closed=closed,
    )


def scored_sheet_to_json(scored: ScoredSheet) -> dict[str, Any]:
    return {
        "players": list(scored.players),
        "deals": [{"dealer": deal.dealer, "scores": deal.scores} for deal in scored.deals],
        "settlement": scored.settlement,
        "totals": scored.totals,
        "open_pules": {
            "common": scored.open_common_pules,
            "personal": scored.open_personal_pules,
        },
    }


def score_json(data: object) -> dict[str, Any]:
    """Score one sheet given as parsed JSON; raises `SheetError` on bad input."""
    return scored_sheet_to_json(score_sheet(sheet_from_json(data)))


def rules_to_json(rules: Rules) -> dict[str, Any]:
    """Every option, as the contract writes it."""
    return {
        "all_pass": rules.all_pass.value,
        "small_zole": rules.small_zole,
        "personal_pule_payment": rules.personal_pule_payment.value,
        "four_table_pass_pules": rules.four_table_pass_pules,
        "galdins_scoring": rules.galdins_scoring.value,
        "small_zole_loss": rules.small_zole_loss,
    }


def entry_to_json(entry: Entry, names: Mapping[str, str] | None = None) -> dict[str, Any]:
    """One entry of a sheet in the contract; `names` renames the players (keys) if given."""
    name = names.__getitem__ if names is not None else str
    if isinstance(entry, PenaltyPule):
        return {"penalty": "personal_pule", "player": name(entry.player)}
    if isinstance(entry, Pass):
        return {"game": "pass"}
    if isinstance(entry, Galdins):
        galdins: dict[str, Any] = {
            "game": "galdins",
            "tricks": {name(key): tricks for key, tricks in entry.tricks.items()},
            "points": {name(key): points for key, points in entry.points.items()},
        }
        if entry.draw_loser is not None:  # only when the card draw was needed
            galdins["draw_loser"] = name(entry.draw_loser)
        return galdins
    deal: dict[str, Any] = {"game": entry.game.value, "declarer": name(entry.declarer)}
    if entry.points is not None:  # mazā zole may go without
        deal["points"] = entry.points
    deal["tricks"] = entry.tricks
    return deal


def sheet_to_json(sheet: Sheet, names: Mapping[str, str] | None = None) -> dict[str, Any]:
    """A sheet in the contract (the input of `score_json` and of the command line), the
    inverse of `sheet_from_json`; `names` renames the players (keys) if given."""
    name = names.__getitem__ if names is not None else str
    data: dict[str, Any] = {
        "rules": rules_to_json(sheet.rules),
        "players": [name(key) for key in sheet.players],
        "deals": [entry_to_json(entry, names) for entry in sheet.entries],
        "closed": sheet.closed,
    }
    if sheet.first_dealer is not None:  # the contract's default is the first player
        data["first_dealer"] = name(sheet.first_dealer)
    return data
