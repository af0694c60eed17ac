"""What a scored sheet says about each player at the table: the games he declared and how they
ended (by the payout table's bands), the deals he defended, the deals everyone passed, the pules
written, collected and paid. A `SeatTally` is one player's count at one table; tallies add up
to a tournament's, a season's or a career's (`tally_sum`), and the shares and per-deal figures
a page shows are read from the sum (`declarer_share`, `defender_share`, `per_deal`).

Every count comes from the engine's own scoring (`score_sheet`), so a statistic can never
disagree with the points: a lielais is won when the payout table pays the declarer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from fractions import Fraction

from engine.deals import Galdins, Pass, PenaltyPule, Play
from engine.rules import Band, Game, payout_band
from engine.sheet import PuleEvent, ScoredSheet

BANDED_GAMES = (Game.LIELAIS, Game.ZOLE)


@dataclass(frozen=True, slots=True)
class SeatTally:
    """One player's counts at one table (or, summed, at many). Every field is a count."""

    deals: int = 0  # deals he played in (a 4-player table's dealer sits his deal out)
    # Lielais and zole he declared, by how they ended (the payout table's bands).
    lielais_all_tricks: int = 0
    lielais_high_win: int = 0
    lielais_win: int = 0
    lielais_loss: int = 0
    lielais_low_loss: int = 0
    lielais_no_trick: int = 0
    zole_all_tricks: int = 0
    zole_high_win: int = 0
    zole_win: int = 0
    zole_loss: int = 0
    zole_low_loss: int = 0
    zole_no_trick: int = 0
    maza_zole_won: int = 0
    maza_zole_lost: int = 0
    defended: int = 0  # deals another declared while he played
    defended_won: int = 0  # ... and the declarer lost
    passed: int = 0  # deals everyone passed (galdiņš too) while he played
    common_written: int = 0  # common pules written in those deals
    common_collected: int = 0  # common pules his won lielais took
    personal_written: int = 0  # his lost lielais wrote him a personal pule
    penalty_written: int = 0  # the referee gave him a penalty pule
    own_collected: int = 0  # his won lielais crossed out his own pule
    personal_collected: int = 0  # his won lielais took another player's personal pule
    personal_paid: int = 0  # his personal pule another player's lielais took: he paid it
    settled: int = 0  # his personal pules still open when the round ended: paid at settlement

    def __add__(self, other: SeatTally) -> SeatTally:
        return SeatTally(
            **{
                name.name: getattr(self, name.name) + getattr(other, name.name)
                for name in fields(self)
            }
        )

    def band(self, game: Game, band: Band) -> int:
        count: int = getattr(self, f"{game.value}_{band.value}")
        return count

    def attempts(self, game: Game) -> int:
        if game is Game.MAZA_ZOLE:
            return self.maza_zole_won + self.maza_zole_lost
        return sum(self.band(game, band) for band in Band)

    def wins(self, game: Game) -> int:
        if game is Game.MAZA_ZOLE:
            return self.maza_zole_won
        return sum(self.band(game, band) for band in Band if band.won)

    @property
    def declared(self) -> int:
        return sum(self.attempts(game) for game in (*BANDED_GAMES, Game.MAZA_ZOLE))


TALLY_FIELDS = tuple(field.name for field in fields(SeatTally))


def tally_sum(tallies: Iterable[SeatTally]) -> SeatTally:
    total = SeatTally()
    for tally in tallies:
        total += tally
    return total


def share(part: int, whole: int) -> Fraction | None:
    """`part` of `whole` exactly; None when there is nothing to share (no attempt, no deal)."""
    return Fraction(part, whole) if whole else None


def declarer_share(tally: SeatTally, game: Game) -> Fraction | None:
    """The share of his `game`s he won."""
    return share(tally.wins(game), tally.attempts(game))


def defender_share(tally: SeatTally) -> Fraction | None:
    """The share of the deals he defended that the defenders won."""
    return share(tally.defended_won, tally.defended)


def seat_tallies(scored: ScoredSheet, *, closed: bool = True) -> dict[str, SeatTally]:
    """Each player's tally of one table's scored sheet; a closed sheet's settlement counts the
    personal pules still open at its end (an open one's are not paid yet)."""
    counts = {player: dict.fromkeys(TALLY_FIELDS, 0) for player in scored.players}
    for deal in scored.deals:
        entry = deal.entry
        if isinstance(entry, PenaltyPule):
            counts[entry.player]["penalty_written"] += 1
            continue
        playing = [player for player in scored.players if player != deal.sitting_out]
        for player in playing:
            counts[player]["deals"] += 1
        if isinstance(entry, Pass | Galdins):
            for player in playing:
                counts[player]["passed"] += 1
                counts[player]["common_written"] += deal.common_written
            continue
        won = _declarer_won(entry)
        counts[entry.declarer][_declared_field(entry)] += 1
        for player in playing:
            if player != entry.declarer:
                counts[player]["defended"] += 1
                counts[player]["defended_won"] += not won
        _count_pules(counts, deal.pule_event, declarer=entry.declarer, owner=deal.pule_owner)
    if closed:  # the settlement charges each personal pule still open at the end
        for player, open_pules in scored.open_personal_pules.items():
            counts[player]["settled"] += open_pules
    return {player: SeatTally(**values) for player, values in counts.items()}


def _declared_field(play: Play) -> str:
    if play.game is Game.MAZA_ZOLE:
        return "maza_zole_won" if play.tricks == 0 else "maza_zole_lost"
    band = payout_band(points=play.points or 0, tricks=play.tricks)
    return f"{play.game.value}_{band.value}"


def _declarer_won(play: Play) -> bool:
    if play.game is Game.MAZA_ZOLE:
        return play.tricks == 0  # mazā zole is won by taking no trick
    return payout_band(points=play.points or 0, tricks=play.tricks).won


def _count_pules(
    counts: Mapping[str, dict[str, int]],
    event: PuleEvent | None,
    *,
    declarer: str,
    owner: str | None,
) -> None:
    if event is PuleEvent.COMMON_COLLECTED:
        counts[declarer]["common_collected"] += 1
    elif event is PuleEvent.OWN_COLLECTED:
        counts[declarer]["own_collected"] += 1
    elif event is PuleEvent.PERSONAL_COLLECTED and owner is not None:
        counts[declarer]["personal_collected"] += 1
        counts[owner]["personal_paid"] += 1
    elif event is PuleEvent.PERSONAL_WRITTEN:
        counts[declarer]["personal_written"] += 1


def per_deal(value: int, deals: int) -> Fraction | None:
    """A count or a sum of points per deal played."""
    return share(value, deals)
