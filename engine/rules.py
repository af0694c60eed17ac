"""The rules of Zole as data: cards, game types, payout bands, rule-set options (docs/rules.md).

Every option of `Rules` defaults to the classic rules; an organiser's preset (classic, lzf,
lzf-rondo) is only a choice of these values."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.errors import SheetError, gettext_noop, shown

TOTAL_POINTS = 120  # card points (acis) in the 26-card pack
TRICKS_PER_DEAL = 8  # every player holds 8 cards
MAX_TALON_POINTS = 22  # the two talon cards can hold at most A + 10 + ... = 22 (two aces)
IMPOSSIBLE_POINTS = frozenset({1, 119})  # no set of Zole cards is worth 1, so neither is 119
WIN_POINTS = 61  # 61 wins, 60 loses
HIGH_WIN_POINTS = 91  # 91 or more is the higher win band
LOW_LOSS_POINTS = 30  # 30 or fewer is the low loss band ("jaņos")
TABLE_SIZES = (3, 4)


class Game(StrEnum):
    """What happened in a deal (partija)."""

    LIELAIS = "lielais"
    ZOLE = "zole"
    MAZA_ZOLE = "maza_zole"
    PASS = "pass"
    GALDINS = "galdins"


class AllPass(StrEnum):
    """What happens when everyone passes."""

    PULE = "pule"  # a common pule is written, no points move (the classic rule)
    GALDINS = "galdins"  # galdiņš is played, everyone for himself; no pules
    GALDINS_PULE = "galdins_pule"  # galdiņš is played and a common pule is written too


class GaldinsScoring(StrEnum):
    """Who loses galdiņš and what moves."""

    TRICKS = "tricks"  # the most tricks loses and pays 2 to every other seated player
    RONDO = "rondo"  # the most card points loses and pays each winner 3, 2 or 1


class PersonalPulePayment(StrEnum):
    """What the owner of a personal pule pays the Lielais who collects it."""

    N_MINUS_1 = "N-1"
    N = "N"


@dataclass(frozen=True, slots=True)
class PayoutBands:
    """The unit u each other seated player pays (or, when negative, receives from) the declarer."""

    all_tricks: int
    high_win: int  # 91 or more
    win: int  # 61-90
    loss: int  # 31-60
    low_loss: int  # 30 or fewer
    no_trick: int

    def unit(self, *, points: int, tricks: int) -> int:
        value: int = getattr(self, payout_band(points=points, tricks=tricks).value)
        return value


class Band(StrEnum):
    """The declarer's result in lielais or zole, as the payout table reads it."""

    ALL_TRICKS = "all_tricks"
    HIGH_WIN = "high_win"  # 91 or more
    WIN = "win"  # 61-90
    LOSS = "loss"  # 31-60
    LOW_LOSS = "low_loss"  # 30 or fewer, a trick at least
    NO_TRICK = "no_trick"

    @property
    def won(self) -> bool:
        return self in (Band.ALL_TRICKS, Band.HIGH_WIN, Band.WIN)


def payout_band(*, points: int, tricks: int) -> Band:
    """The band of a lielais or zole from the declarer's card points and tricks."""
    # "All tricks" and "no trick" are decided by tricks, never by points.
    if tricks == TRICKS_PER_DEAL:
        return Band.ALL_TRICKS
    if tricks == 0:
        return Band.NO_TRICK
    if points >= HIGH_WIN_POINTS:
        return Band.HIGH_WIN
    if points >= WIN_POINTS:
        return Band.WIN
    if points > LOW_LOSS_POINTS:
        return Band.LOSS
    return Band.LOW_LOSS


LIELAIS_PAYOUT = PayoutBands(all_tricks=3, high_win=2, win=1, loss=-2, low_loss=-3, no_trick=-4)
ZOLE_PAYOUT = PayoutBands(all_tricks=7, high_win=6, win=5, loss=-6, low_loss=-7, no_trick=-8)
MAZA_ZOLE_WIN = 6  # the declarer took no trick
SMALL_ZOLE_LOSSES = (7, 6)  # u of a lost mazā zole (option small_zole_loss), the default first
GALDINS_LOSS = 2  # "tricks" galdiņš: each loser pays this to every other seated player
RONDO_NO_TRICK = 3  # rondo galdiņš: a winner who took no trick receives this from the loser
RONDO_LOW_POINTS = 2  # ... a winner with 30 card points or fewer ("jaņos")
RONDO_HIGH_POINTS = 1  # ... a winner with more than 30
COMMON_PULE_UNIT = 1  # each other seated player pays this to the Lielais who collects a common pule
SETTLEMENT_UNIT = 1  # an open personal pule at the end of the round costs its owner this per player
FOUR_TABLE_PASS_PULES = (1, 2)  # common pules an all-pass writes at an empty 4-table (option)
MAX_PENALTY_PULES = 3  # per player per round: a third warning means disqualification


def declarer_unit(
    game: Game, *, points: int | None, tricks: int, small_zole_loss: int = SMALL_ZOLE_LOSSES[0]
) -> int:
    """The unit u of a played game, from the declarer's result (positive: the declarer won)."""
    if game is Game.LIELAIS:
        return LIELAIS_PAYOUT.unit(points=points or 0, tricks=tricks)
    if game is Game.ZOLE:
        return ZOLE_PAYOUT.unit(points=points or 0, tricks=tricks)
    if game is Game.MAZA_ZOLE:
        return MAZA_ZOLE_WIN if tricks == 0 else -small_zole_loss
    raise ValueError(f"{game} has no declarer")


def rondo_winnings(*, points: int, tricks: int) -> int:
    """What one winner of a rondo galdiņš receives from the loser, from his own tricks and points.

    No trick is decided by tricks, never by points (a 0-point trick is a trick)."""
    if tricks == 0:
        return RONDO_NO_TRICK
    if points <= LOW_LOSS_POINTS:
        return RONDO_LOW_POINTS
    return RONDO_HIGH_POINTS


# One template per option (the choices are the contract's words, not translated).
_RULE_CHOICES = {
    "all_pass": gettext_noop(
        'rules.all_pass must be "pule", "galdins" or "galdins_pule", got %(value)s'
    ),
    "personal_pule_payment": gettext_noop(
        'rules.personal_pule_payment must be "N-1" or "N", got %(value)s'
    ),
    "galdins_scoring": gettext_noop(
        'rules.galdins_scoring must be "tricks" or "rondo", got %(value)s'
    ),
    "four_table_pass_pules": gettext_noop(
        "rules.four_table_pass_pules must be 1 or 2, got %(value)s"
    ),
    "small_zole_loss": gettext_noop("rules.small_zole_loss must be 7 or 6, got %(value)s"),
}
_CHOICE_OPTIONS = (
    ("all_pass", AllPass),
    ("personal_pule_payment", PersonalPulePayment),
    ("galdins_scoring", GaldinsScoring),
)
_NUMBER_OPTIONS = (
    ("four_table_pass_pules", FOUR_TABLE_PASS_PULES),
    ("small_zole_loss", SMALL_ZOLE_LOSSES),
)


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule-set options of a table (docs/rules.md); the defaults are the classic rules."""

    all_pass: AllPass = AllPass.PULE
    small_zole: bool = False
    personal_pule_payment: PersonalPulePayment = PersonalPulePayment.N_MINUS_1
    four_table_pass_pules: int = FOUR_TABLE_PASS_PULES[0]
    galdins_scoring: GaldinsScoring = GaldinsScoring.TRICKS
    small_zole_loss: int = SMALL_ZOLE_LOSSES[0]

    def __post_init__(self) -> None:
        # Accept the plain strings and numbers of the JSON contract, refuse anything else by name.
        for name, kind in _CHOICE_OPTIONS:
            value = getattr(self, name)
            try:
                object.__setattr__(self, name, kind(value))
            except (ValueError, TypeError):
                raise SheetError(
                    _RULE_CHOICES[name], field=f"rules.{name}", value=shown(value)
                ) from None
        for name, choices in _NUMBER_OPTIONS:
            value = getattr(self, name)
            # True == 1 in Python, but not in the contract.
            if isinstance(value, bool) or not isinstance(value, int) or value not in choices:
                raise SheetError(_RULE_CHOICES[name], field=f"rules.{name}", value=shown(value))
        if not isinstance(self.small_zole, bool):
            raise SheetError(
                gettext_noop("rules.small_zole must be true or false, got %(value)s"),
                field="rules.small_zole",
                value=shown(self.small_zole),
            )

    @property
    def pules(self) -> bool:
        """Pules are kept only when everyone passing writes a common pule."""
        return self.all_pass in (AllPass.PULE, AllPass.GALDINS_PULE)

    @property
    def rondo(self) -> bool:
        """Galdiņš is scored by the rondo rules: the most card points loses."""
        return self.galdins_scoring is GaldinsScoring.RONDO

    def allows(self, game: Game) -> bool:
        if game is Game.MAZA_ZOLE:
            return self.small_zole
        if game is Game.PASS:
            return self.all_pass is AllPass.PULE
        if game is Game.GALDINS:
            return self.all_pass in (AllPass.GALDINS, AllPass.GALDINS_PULE)
        return True

    def personal_pule_units(self, table_size: int) -> int:
        """What the owner alone pays when a Lielais collects his personal pule: N-1 or N."""
        if self.personal_pule_payment is PersonalPulePayment.N:
            return table_size
        return table_size - 1

    def common_pules_written(self, table_size: int, *, pule_open: bool) -> int:
        """How many common pules everyone passing writes: two at a 4-table under
        four_table_pass_pules = 2 when no pule of any kind is open, otherwise one."""
        if table_size == 4 and not pule_open:
            return self.four_table_pass_pules
        return 1


def deals_per_round_fits(deals: int, table_sizes: tuple[int, ...] = TABLE_SIZES) -> bool:
    """Everyone deals equally often only when the deal count is a multiple of every table size."""
    return deals > 0 and all(deals % size == 0 for size in table_sizes)
