"""The prize list: the fund (the fees paid), its costs share, and each prized place's prize
from the current standings, split by the engine (engine.prizes), tied players sharing."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from core.engine_text import error_text
from engine import SheetError
from engine.prizes import parse_prize_shares, split_prize_fund
from engine.standings import place_text
from scoring.selectors.tournament_standings import Standings, tournament_standings
from tournaments.models import Tournament
from tournaments.selectors.fees import Fund, money_text, percent_text, prize_fund


@dataclass(frozen=True)
class PrizeRow:
    registration_id: int
    place: str  # "2–3" when shared
    name: str
    club: str
    cents: int
    shared: bool

    @property
    def amount_text(self) -> str:
        return money_text(self.cents)


@dataclass(frozen=True)
class PrizeList:
    fund: Fund
    costs_percent: Decimal
    costs_cents: int
    shares: tuple[Decimal, ...]  # the places' percentages; empty: no prizes set
    rows: tuple[PrizeRow, ...]  # the players of the prized places, in the standings order
    scored_rounds: int  # rounds with a confirmed result in the standings
    finished: bool = False  # every planned round is closed: the list is final
    problem: str = ""  # why there is no list (the percentages stored cannot be read)

    @property
    def pool_cents(self) -> int:
        return self.fund.total_cents - self.costs_cents

    @property
    def costs_percent_text(self) -> str:
        return percent_text(self.costs_percent)

    @property
    def costs_text(self) -> str:
        return money_text(self.costs_cents)

    @property
    def pool_text(self) -> str:
        return money_text(self.pool_cents)

    @property
    def prizes_cents(self) -> int:
        return sum(row.cents for row in self.rows)

    @property
    def prizes_text(self) -> str:
        return money_text(self.prizes_cents)

    @property
    def shares_text(self) -> str:
        return " · ".join(
            f"{place}. {percent_text(share)}" for place, share in enumerate(self.shares, 1)
        )


def prize_list(*, tournament: Tournament, standings: Standings | None = None) -> PrizeList:
    """The prizes as the confirmed standings give them now (`standings`: those standings, when
    the caller has them already)."""
    fund = prize_fund(tournament=tournament)
    costs_percent = tournament.prize_costs_percent
    try:
        shares = parse_prize_shares(tournament.prize_shares)
    except SheetError as error:
        return PrizeList(fund, costs_percent, 0, (), (), 0, problem=error_text(error))
    if standings is None:
        standings = tournament_standings(tournament=tournament)
    scored = max(
        (number for row in standings.rows for number in row.rounds),
        default=0,
    )
    if not shares:
        split = split_prize_fund(fund.total_cents, costs_percent, (), [])
        return PrizeList(
            fund, costs_percent, split.costs_cents, (), (), scored, standings.progress.is_finished
        )
    split = split_prize_fund(
        fund.total_cents,
        costs_percent,
        shares,
        [(str(row.registration_id), row.rank) for row in standings.rows],
    )
    by_player = {row.registration_id: row for row in standings.rows}
    rows = tuple(
        PrizeRow(
            registration_id=int(prize.player),
            place=place_text(prize.first_place, prize.last_place),
            name=by_player[int(prize.player)].name,
            club=by_player[int(prize.player)].club,
            cents=prize.cents,
            shared=prize.last_place > prize.first_place,
        )
        for prize in split.prizes
        if prize.first_place <= len(shares)
    )
    return PrizeList(
        fund, costs_percent, split.costs_cents, shares, rows, scored, standings.progress.is_finished
    )
