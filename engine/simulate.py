"""Random but valid deals and sheets, for simulations, demos and benchmarks.

The odds are a club table's: mostly Lielais, some zole, passes now and then. Every generated
entry passes `validate_entry`; the tests check that."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.deals import Deal, Galdins, Pass, PenaltyPule, Play, SheetLine, galdins_draw_needed
from engine.rules import (
    IMPOSSIBLE_POINTS,
    MAX_PENALTY_PULES,
    MAX_TALON_POINTS,
    TOTAL_POINTS,
    TRICKS_PER_DEAL,
    Game,
    Rules,
)
from engine.sheet import Sheet, dealer_for

PASS_ODDS = 0.15
ZOLE_ODDS = 0.08
MAZA_ZOLE_ODDS = 0.03
PENALTY_ODDS = 0.01


def _points_near(rng: random.Random, target: float, low: int, high: int) -> int:
    points = round(rng.gauss(target, 12))
    points = min(max(points, low), high)
    while points in IMPOSSIBLE_POINTS:
        points += 1 if points < TOTAL_POINTS // 2 else -1
    return points


def _declarer_result(rng: random.Random, game: Game) -> tuple[int, int]:
    """Tricks and card points that go together, as the declarer's side of a real deal."""
    tricks = min(max(round(rng.gauss(5, 1.7)), 0), TRICKS_PER_DEAL)
    if tricks == TRICKS_PER_DEAL:
        points = TOTAL_POINTS if game is Game.LIELAIS else _points_near(rng, 110, 98, 120)
    elif tricks == 0:
        points = _points_near(rng, 8, 0, MAX_TALON_POINTS) if game is Game.LIELAIS else 0
    else:
        points = _points_near(rng, tricks * 14 + 4, 0, TOTAL_POINTS)
    return tricks, points


def _galdins(rng: random.Random, playing: Sequence[str], rules: Rules) -> Galdins:
    cuts = sorted(rng.randint(0, TRICKS_PER_DEAL) for _ in range(len(playing) - 1))
    tricks = [b - a for a, b in zip([0, *cuts], [*cuts, TRICKS_PER_DEAL], strict=True)]
    points = []
    left = TOTAL_POINTS
    for count in tricks:
        value = 0 if count == 0 else min(_points_near(rng, count * 15, 0, left), left)
        if value in IMPOSSIBLE_POINTS:  # only when 1 point was left to take
            value = 0
        points.append(value)
        left -= value
    galdins = Galdins(
        tricks=dict(zip(playing, tricks, strict=True)),
        points=dict(zip(playing, points, strict=True)),
    )
    tied = galdins_draw_needed(galdins, rules)
    if tied is None:
        return galdins
    return Galdins(galdins.tricks, galdins.points, draw_loser=rng.choice(tied))


def random_deal(
    rng: random.Random, *, players: Sequence[str], dealer: str, rules: Rules | None = None
) -> Deal:
    """A valid random deal for this table and dealer."""
    rules = rules or Rules()
    playing = [name for name in players if len(players) == 3 or name != dealer]
    roll = rng.random()
    if roll < PASS_ODDS:
        return Pass() if rules.allows(Game.PASS) else _galdins(rng, playing, rules)
    declarer = rng.choice(playing)
    if rules.small_zole and roll < PASS_ODDS + MAZA_ZOLE_ODDS:
        return Play(Game.MAZA_ZOLE, declarer, tricks=0 if rng.random() < 0.6 else 1)
    game = Game.ZOLE if roll < PASS_ODDS + MAZA_ZOLE_ODDS + ZOLE_ODDS else Game.LIELAIS
    tricks, points = _declarer_result(rng, game)
    return Play(game, declarer, tricks=tricks, points=points)


def random_sheet(
    rng: random.Random,
    *,
    players: Sequence[str],
    deals: int = 24,
    rules: Rules | None = None,
    first_dealer: str | None = None,
    penalties: bool = True,
) -> Sheet:
    """A valid random sheet of `deals` deals, with an occasional penalty pule (at most 3 for a
    player)."""
    rules = rules or Rules()
    entries: list[SheetLine] = []
    for index in range(deals):
        if penalties and rules.pules and rng.random() < PENALTY_ODDS:
            player = rng.choice(players)
            if entries.count(PenaltyPule(player)) < MAX_PENALTY_PULES:
                entries.append(PenaltyPule(player))
        dealer = dealer_for(players, first_dealer, index)
        entries.append(random_deal(rng, players=players, dealer=dealer, rules=rules))
    return Sheet(
        players=tuple(players), entries=tuple(entries), rules=rules, first_dealer=first_dealer
    )
