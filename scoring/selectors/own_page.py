"""The player's own page (his private link): his table in the round being played and who sits
with him, his results round by round with his tables' scores, his place in the standings, his
fee and his prize. Every figure is a stored result (SeatResult) or the engine's standings and
prize split; the reads run a fixed number of queries, whatever the rounds he has played."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from scoring.models import SeatResult, twelfths_fraction
from scoring.selectors.prize_standings import PrizeRow, prize_list
from scoring.selectors.public_results import (
    LIVE_STATUSES,
    PUBLIC_STATUSES,
    points_text,
    seat_place_text,
    tied_at_table,
)
from scoring.selectors.tournament_standings import StandingRow, tournament_standings
from tournaments.models import FeeCategory, Registration, Round, Seat
from tournaments.selectors.fees import cents, fee_categories, money_text


@dataclass(frozen=True)
class TableSeat:
    """A player at one of the player's tables, with his result once the table is confirmed."""

    position: int
    name: str
    is_own: bool  # the page's own player
    game_points: int | None = None
    place_points: Fraction | None = None
    place: str | None = None  # "2–3" when shared

    @property
    def place_points_text(self) -> str:
        return points_text(self.place_points)


@dataclass(frozen=True)
class OwnRound:
    """One round the player is seated in: his table, everyone at it and the results."""

    round_id: int
    round_number: int
    table_number: int
    live: bool  # published or in play: the round being played
    confirmed: bool  # the table's results are stored
    seats: tuple[TableSeat, ...]  # in seat order, his own among them

    @property
    def own(self) -> TableSeat:
        return next(seat for seat in self.seats if seat.is_own)

    @property
    def tablemates(self) -> tuple[TableSeat, ...]:
        return tuple(seat for seat in self.seats if not seat.is_own)


@dataclass(frozen=True)
class OwnFee:
    category: str
    amount_cents: int
    paid: bool

    @property
    def amount_text(self) -> str:
        return money_text(self.amount_cents)


@dataclass(frozen=True)
class OwnPage:
    registration: Registration
    rounds: tuple[OwnRound, ...]  # in round order
    current: OwnRound | None  # the latest round in play he is seated in
    current_round: Round | None  # its round, with the tournament (for the round clock)
    standing: StandingRow | None  # his line of the standings (confirmed results)
    standings_final: bool  # every planned round is closed
    fee: OwnFee | None  # None: the tournament has no fees
    prize: PrizeRow | None  # his prize in the final standings, when prizes are set

    @property
    def played(self) -> tuple[OwnRound, ...]:
        """The rounds with his table confirmed, the latest first."""
        return tuple(reversed([round_ for round_ in self.rounds if round_.confirmed]))


def own_rounds(*, registration: Registration) -> tuple[OwnRound, ...]:
    """Every public round the player is seated in, with his table's players and their stored
    results. Two queries."""
    his_tables = Seat.objects.filter(
        registration=registration, table__round__status__in=PUBLIC_STATUSES
    ).values("table_id")
    seats = (
        Seat.objects.filter(table_id__in=his_tables)
        .values_list(
            "table_id",
            "table__number",
            "table__round_id",
            "table__round__number",
            "table__round__status",
            "position",
            "registration_id",
            "registration__player__full_name",
        )
        .order_by("table__round__number", "position")
    )
    stored = (
        SeatResult.objects.filter(table_result__table_id__in=his_tables)
        .annotate(tied=tied_at_table())
        .values_list(
            "table_result__table_id",
            "registration_id",
            "game_points",
            "place_points_twelfths",
            "place",
            "tied",
        )
        .order_by()
    )
    results = {
        (table_id, registration_id): (
            game_points,
            twelfths_fraction(twelfths),
            seat_place_text(place, tied),
        )
        for table_id, registration_id, game_points, twelfths, place, tied in stored
    }
    tables: dict[int, list[tuple]] = defaultdict(list)
    for seat in seats:  # in round order: the dict keeps it
        tables[seat[0]].append(seat)
    rounds = []
    for table_id, table_seats in tables.items():
        _table, table_number, round_id, round_number, status = table_seats[0][:5]
        lines = tuple(
            TableSeat(
                position,
                name,
                registration_id == registration.pk,
                *results.get((table_id, registration_id), (None, None, None)),
            )
            for *_round, position, registration_id, name in table_seats
        )
        rounds.append(
            OwnRound(
                round_id=round_id,
                round_number=round_number,
                table_number=table_number,
                live=status in LIVE_STATUSES,
                confirmed=any((table_id, seat[6]) in results for seat in table_seats),
                seats=lines,
            )
        )
    return tuple(rounds)


def own_fee(*, registration: Registration) -> OwnFee | None:
    """The player's fee: his category (or the tournament's first), its amount, whether it is
    paid. One query; None when the tournament has no fees."""
    categories: list[FeeCategory] = fee_categories(tournament=registration.tournament)
    by_pk = {category.pk: category for category in categories}
    category = by_pk.get(registration.fee_category_id or 0, categories[0] if categories else None)
    if category is None:
        return None
    return OwnFee(
        category=category.name,
        amount_cents=cents(category.amount),
        paid=registration.fee_paid_at is not None,
    )


def own_page(*, registration: Registration) -> OwnPage:
    """What the player's own page shows. A fixed number of queries: the rounds he played add
    rows, never queries."""
    tournament = registration.tournament
    rounds = own_rounds(registration=registration)
    current = next((round_ for round_ in reversed(rounds) if round_.live), None)
    current_round = None
    if current is not None:
        current_round = Round.objects.filter(pk=current.round_id).first()
        if current_round is not None:
            current_round.tournament = tournament  # the clock reads the tournament's limit
    standings = tournament_standings(tournament=tournament)
    standing = next((row for row in standings.rows if row.registration_id == registration.pk), None)
    prize = None
    if tournament.prize_shares.strip() and standings.progress.is_finished:
        prizes = prize_list(tournament=tournament, standings=standings)
        prize = next((row for row in prizes.rows if row.registration_id == registration.pk), None)
    return OwnPage(
        registration=registration,
        rounds=rounds,
        current=current,
        current_round=current_round,
        standing=standing,
        standings_final=standings.progress.is_finished,
        fee=own_fee(registration=registration),
        prize=prize,
    )
