"""The JSON contracts of the command line (README, "The engine's command line"): a sheet in, a
scored sheet out (`score_json`); one table's round results in, its places and place points out
(`places_json`).

This module only maps JSON shapes to the engine's dataclasses and back; every rule is checked
where it lives (`engine.rules`, `engine.deals`, `engine.sheet`, `engine.standings`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from engine.deals import Galdins, Pass, PenaltyPule, Play, SheetLine
from engine.errors import SheetError, shown
from engine.rules import Game, Rules
from engine.sheet import ScoredSheet, Sheet, score_sheet
from engine.standings import PlaceScheme, place_labels, place_points, span_from_text

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


def entry_from_json(data: object) -> SheetLine:
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


def entry_to_json(entry: SheetLine, names: Mapping[str, str] | None = None) -> dict[str, Any]:
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


PLACES_FIELDS = frozenset({"points", "shared", "results"})
TABLES = {"3": 3, "4": 4}  # the keys of "points" and "shared": table sizes


def _per_table(data: dict[str, Any], key: str) -> dict[int, Any]:
    """ "points" or "shared": an object keyed by table size, "3" and/or "4"."""
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise SheetError(
            f'{key} must be an object keyed by "3" and "4", got {shown(value)}', field=key
        )
    for size in value:
        if size not in TABLES:
            raise SheetError(
                f'{key}: a table has 3 or 4 players ("3" or "4"), got {shown(size)}', field=key
            )
    return {TABLES[size]: table for size, table in value.items()}


def _place_scheme(data: dict[str, Any]) -> PlaceScheme:
    """The scheme of a places request: "points" per table size (default 6,4,2 and 6,4,2,0) and
    "shared" values per table size ({"4": {"1-4": 2}}, default none)."""
    points = _per_table(data, "points")
    shared = _per_table(data, "shared")
    default = PlaceScheme()
    for size, table in points.items():
        if not isinstance(table, list):
            raise SheetError(
                f"points.{size} must be a list of {size} whole numbers, got {shown(table)}",
                field=f"points.{size}",
            )
    spans: dict[int, dict[tuple[int, int], Any]] = {}
    for size, table in shared.items():
        if not isinstance(table, dict):
            raise SheetError(
                f'shared.{size} must be an object like {{"1-{size}": 2}}, got {shown(table)}',
                field=f"shared.{size}",
            )
        spans[size] = {span_from_text(span, size): value for span, value in table.items()}
    return PlaceScheme(
        three=tuple(points.get(3, default.three)),
        four=tuple(points.get(4, default.four)),
        shared_three=spans.get(3, {}),
        shared_four=spans.get(4, {}),
    )


def places_json(data: object) -> dict[str, Any]:
    """One table's places and place points from its round results, exact values as text
    ("5/2"); raises `SheetError` naming the field."""
    if not isinstance(data, dict):
        raise SheetError(
            f"a places request must be a JSON object, got {shown(data)}", field="places"
        )
    _check_fields(data, {"results"}, PLACES_FIELDS)
    results = data["results"]
    if not isinstance(results, dict) or len(results) not in TABLES.values():
        raise SheetError(
            f"results must be an object of 3 or 4 players' game points, got {shown(results)}",
            field="results",
        )
    for player, game_points in results.items():
        if isinstance(game_points, bool) or not isinstance(game_points, int):
            raise SheetError(
                f"results.{player} must be a whole number, got {shown(game_points)}",
                field="results",
            )
    points = place_points(results, _place_scheme(data))
    return {
        "places": place_labels(results),
        "place_points": {player: str(value) for player, value in points.items()},
    }
