"""A player's statistics from a scored sheet: each game he declared by its payout band, the
deals he defended, the deals everyone passed and every pule's way, counted as the sheet scored
them."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, given, settings

from engine import score_sheet
from engine.rules import Band, Game
from engine.statistics import (
    SeatTally,
    declarer_share,
    defender_share,
    per_deal,
    seat_tallies,
    tally_sum,
)
from tests.engine.factories import (
    FOUR,
    everyone_passes,
    lielais,
    maza_zole,
    penalty,
    play,
    zole,
)
from tests.sheet_strategies import sheet_cases

PROPERTY_SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def round_at_three():
    """A round of six deals at a table of three, under pules and mazā zole, with A dealing
    first:
    1. everyone passes: a common pule is written;
    2. C's lielais of 20 points (2 tricks) is lost while the pule is open: C's personal pule;
    3. A's lielais of 75 wins and takes the common pule;
    4. B's lielais of 95 wins and takes C's personal pule (C pays it);
    then the referee gives A a penalty pule;
    5. B's zole takes every trick;
    6. C's mazā zole takes a trick and is lost.
    The round ends with A's penalty pule open: A pays it at the settlement."""
    return play(
        everyone_passes(),
        lielais("C", 20, 2),
        lielais("A", 75, 5),
        lielais("B", 95, 6),
        penalty("A"),
        zole("B", 120, 8),
        maza_zole("C", 1),
        small_zole=True,
    )


def test_each_declared_game_counts_in_its_band():
    tallies = seat_tallies(round_at_three())
    assert tallies["A"].band(Game.LIELAIS, Band.WIN) == 1
    assert tallies["B"].band(Game.LIELAIS, Band.HIGH_WIN) == 1
    assert tallies["B"].band(Game.ZOLE, Band.ALL_TRICKS) == 1
    assert tallies["C"].band(Game.LIELAIS, Band.LOW_LOSS) == 1
    assert tallies["C"].maza_zole_lost == 1
    assert [tallies[p].declared for p in "ABC"] == [1, 2, 2]


def test_attempts_wins_and_the_share_won():
    tally = seat_tallies(round_at_three())["B"]
    assert (tally.attempts(Game.LIELAIS), tally.wins(Game.LIELAIS)) == (1, 1)
    assert declarer_share(tally, Game.ZOLE) == 1
    assert declarer_share(tally, Game.MAZA_ZOLE) is None  # never tried: no share at all
    c = seat_tallies(round_at_three())["C"]
    assert declarer_share(c, Game.LIELAIS) == 0


def test_defenders_win_the_deals_the_declarer_loses():
    tallies = seat_tallies(round_at_three())
    # A defended C's two lost games and B's two won ones.
    assert (tallies["A"].defended, tallies["A"].defended_won) == (4, 2)
    assert defender_share(tallies["A"]) == Fraction(1, 2)
    # B defended C's two lost games and A's won lielais.
    assert (tallies["B"].defended, tallies["B"].defended_won) == (3, 2)


def test_passed_deals_and_the_common_pules_they_write():
    tallies = seat_tallies(round_at_three())
    assert all(tallies[p].passed == 1 and tallies[p].common_written == 1 for p in "ABC")
    assert all(tallies[p].deals == 6 for p in "ABC")  # the penalty uses no deal


def test_every_pule_is_counted_where_it_went():
    tallies = seat_tallies(round_at_three())
    assert tallies["A"].common_collected == 1
    assert tallies["C"].personal_written == 1
    assert (tallies["B"].personal_collected, tallies["C"].personal_paid) == (1, 1)
    assert tallies["A"].penalty_written == 1
    assert tallies["A"].settled == 1  # still open at the end
    assert tallies["C"].settled == 0  # B took it


def test_an_open_sheet_settles_nothing_yet():
    sheet = play(penalty("A"), everyone_passes(), closed=False)
    assert seat_tallies(sheet, closed=False)["A"].settled == 0


def test_a_won_lielais_crosses_out_his_own_pule_first():
    tallies = seat_tallies(play(penalty("A"), lielais("A", 70, 4)))
    assert (tallies["A"].own_collected, tallies["A"].settled) == (1, 0)


def test_the_dealer_at_a_table_of_four_sits_his_deal_out():
    # A deals the first deal and sits it out; B deals the second.
    tallies = seat_tallies(play(lielais("B", 70, 4), zole("A", 40, 3), players=FOUR))
    assert [tallies[p].deals for p in FOUR] == [1, 1, 2, 2]
    # A sat deal 1 out and declared deal 2; B declared deal 1 and sat deal 2 out.
    assert [tallies[p].defended for p in FOUR] == [0, 0, 2, 2]
    assert tallies["C"].defended_won == 1  # A's zole of 40 is lost


def test_tallies_add_up_and_figures_are_per_deal():
    tallies = seat_tallies(round_at_three())
    total = tally_sum([tallies["A"], tallies["A"]])
    assert total.deals == 12 and total.penalty_written == 2
    assert tally_sum([]) == SeatTally()
    assert per_deal(9, 12) == Fraction(3, 4)
    assert per_deal(5, 0) is None


@PROPERTY_SETTINGS
@given(sheet_cases())
def test_every_deal_is_declared_once_or_passed_by_all(case):
    scored = score_sheet(case.to_sheet())
    tallies = seat_tallies(scored, closed=case.closed)
    deals = [deal for deal in scored.deals if deal.number is not None]
    passed = [deal for deal in deals if deal.entry.game in (Game.PASS, Game.GALDINS)]
    assert sum(tally.declared for tally in tallies.values()) + len(passed) == len(deals)
    playing = len(scored.players) - (len(scored.players) == 4)
    assert sum(tally.deals for tally in tallies.values()) == playing * len(deals)
    assert sum(tally.defended for tally in tallies.values()) == (playing - 1) * (
        len(deals) - len(passed)
    )


@PROPERTY_SETTINGS
@given(sheet_cases())
def test_every_personal_pule_written_is_still_open_or_went_one_way(case):
    scored = score_sheet(case.to_sheet())
    total = tally_sum(seat_tallies(scored, closed=True).values())
    written = total.personal_written + total.penalty_written
    taken = total.own_collected + total.personal_paid
    assert written == taken + sum(scored.open_personal_pules.values())
    assert total.settled == sum(scored.open_personal_pules.values())
    assert total.personal_collected == total.personal_paid
    common_written = sum(deal.common_written for deal in scored.deals)
    assert common_written == total.common_collected + scored.open_common_pules
