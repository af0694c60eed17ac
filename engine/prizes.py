"""The prize fund's split: a share for costs, the rest to places 1..N by percentages, tied
players sharing the prizes of the places they cover. Money is whole cents, never a float: the
costs and every prize add up to the fund exactly.

The rule (docs/rules.md, "Prizes"):
- the costs share is the fund times its percentage, rounded down to a cent; the prize pool is
  the rest;
- each prized place gets the pool times its percentage, rounded down to a cent, and the cents
  left over go one each to places 1, 2, 3, ... in turn; when fewer players than prized places
  play, only the places players take are paid, their percentages scaled up to pay the whole pool;
- players tied at a place share the prizes of the places they cover equally, rounded down to a
  cent, and the cents left over go one each to the tied players in the standings order.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from engine.errors import SheetError, gettext_noop, shown

MAX_PRIZED_PLACES = 100
HUNDRED = Decimal(100)
_PERCENT = re.compile(r"\d{1,3}([.,]\d{1,2})?")


@dataclass(frozen=True)
class Prize:
    """One player's prize: the places he covers (2, 3 when tied for 2nd-3rd) and the cents."""

    player: str
    first_place: int
    last_place: int
    cents: int


@dataclass(frozen=True)
class PrizeSplit:
    fund_cents: int
    costs_cents: int
    prizes: tuple[Prize, ...]  # every ranked player, in the standings order (0 beyond the prizes)
    # The pool when nobody is ranked: no one to pay it to. Always 0 when someone plays.
    unpaid_cents: int = 0

    @property
    def pool_cents(self) -> int:
        return self.fund_cents - self.costs_cents


def parse_percent(text: str, *, field: str) -> Decimal:
    """A percentage as organisers write it: "40", "12.5" or "12,5" (a Latvian decimal comma),
    0-100 with at most two decimals."""
    if not isinstance(text, str) or not _PERCENT.fullmatch(text.strip()):
        raise SheetError(
            gettext_noop("a percentage must be a number from 0 to 100, got %(value)s"),
            field=field,
            value=shown(text),
        )
    value = Decimal(text.strip().replace(",", "."))
    if value > HUNDRED:
        raise SheetError(
            gettext_noop("a percentage must be a number from 0 to 100, got %(value)s"),
            field=field,
            value=shown(text),
        )
    return value


def parse_prize_shares(text: str) -> tuple[Decimal, ...]:
    """The places' percentages, written "40 25 15 10 5 5" (spaces between the places), adding up
    to 100 and never growing with the place. Empty: no prizes."""
    items = text.split() if isinstance(text, str) else None
    if items is None:
        raise SheetError(gettext_noop("the prizes must be percentages separated by spaces"))
    if not items:
        return ()
    if len(items) > MAX_PRIZED_PLACES:
        raise SheetError(
            gettext_noop("at most %(count)s places get a prize, got %(value)s"),
            field="prize_shares",
            count=MAX_PRIZED_PLACES,
            value=len(items),
        )
    shares = tuple(parse_percent(item, field="prize_shares") for item in items)
    check_prize_shares(shares)
    return shares


def check_prize_shares(shares: Sequence[Decimal]) -> None:
    total = sum(shares, Decimal(0))
    if total != HUNDRED:
        raise SheetError(
            gettext_noop("the places' percentages must add up to 100, they add up to %(total)s"),
            field="prize_shares",
            total=f"{total.normalize():f}",
        )
    for place, (better, worse) in enumerate(itertools.pairwise(shares), start=1):
        if worse > better:
            raise SheetError(
                gettext_noop(
                    "place %(place)s must not get a larger percentage than place %(better)s"
                ),
                field="prize_shares",
                place=place + 1,
                better=place,
            )


def _check_places(places: Sequence[tuple[str, int]]) -> list[list[str]]:
    """The players grouped by shared place, from (player, rank) in the standings order: ranks as
    the standings give them (1, 2, 2, 4: tied players share the rank of their first place)."""
    groups: list[list[str]] = []
    expected = 1
    seen: set[str] = set()
    for player, rank in places:
        if player in seen:
            raise SheetError(
                gettext_noop("player %(player)s is ranked twice"), player=shown(player)
            )
        seen.add(player)
        if groups and rank == expected - len(groups[-1]):
            groups[-1].append(player)
            expected += 1
            continue
        if rank != expected:
            raise SheetError(
                gettext_noop("place %(place)s follows place %(previous)s: not a ranking"),
                place=rank,
                previous=expected - 1,
            )
        groups.append([player])
        expected += 1
    return groups


def _share_out(total: int, weights: Sequence[Fraction]) -> list[int]:
    """`total` cents by `weights` (adding up to 1): each rounded down, the cents left over one
    each to the first ones in turn."""
    amounts = [int(total * weight) for weight in weights]  # int() of a Fraction ≥ 0 rounds down
    left = total - sum(amounts)
    for index in range(left):
        amounts[index % len(amounts)] += 1
    return amounts


def split_prize_fund(
    fund_cents: int,
    costs_percent: Decimal,
    shares_percent: Sequence[Decimal],
    places: Sequence[tuple[str, int]],
) -> PrizeSplit:
    """Split `fund_cents` (the fees paid): the costs share, then the places' prizes to the players
    as `places` ranks them ((player, rank) in the standings order)."""
    if isinstance(fund_cents, bool) or not isinstance(fund_cents, int) or fund_cents < 0:
        raise SheetError(
            gettext_noop("the fund must be a whole number of cents, 0 or more, got %(value)s"),
            field="fund",
            value=shown(fund_cents),
        )
    if not isinstance(costs_percent, Decimal) or not Decimal(0) <= costs_percent <= HUNDRED:
        raise SheetError(
            gettext_noop("a percentage must be a number from 0 to 100, got %(value)s"),
            field="costs_percent",
            value=shown(str(costs_percent)),
        )
    shares = tuple(shares_percent)
    if not shares:
        shares = (HUNDRED,)  # no places set: the winners take the pool
    if any(not isinstance(share, Decimal) or share < 0 for share in shares):
        raise SheetError(gettext_noop("a percentage must not be negative"), field="prize_shares")
    check_prize_shares(shares)
    groups = _check_places(places)

    costs = int(Fraction(fund_cents) * Fraction(costs_percent) / 100)
    pool = fund_cents - costs
    if not groups:
        return PrizeSplit(fund_cents, costs, (), unpaid_cents=pool)
    players = sum(len(group) for group in groups)
    paid = [Fraction(share) for share in shares[:players]]
    # Place 1's share is never 0 (the shares add up to 100 and never grow), so `paid` adds up to
    # more than 0.
    place_amounts = _share_out(pool, [share / sum(paid) for share in paid])

    prizes: list[Prize] = []
    first = 1
    for group in groups:
        last = first + len(group) - 1
        total = sum(place_amounts[first - 1 : last])
        each = _share_out(total, [Fraction(1, len(group))] * len(group))
        prizes.extend(
            Prize(player, first, last, cents) for player, cents in zip(group, each, strict=True)
        )
        first = last + 1
    return PrizeSplit(fund_cents, costs, tuple(prizes))


def prize_json(request: object) -> dict[str, object]:
    """The command line's `prizes`: {"fund_cents": 9000, "costs_percent": "20", "shares": "40 25
    15 10 5 5", "places": [[NAME, rank], ...]} → {"costs_cents": ..., "prizes": {NAME: cents}}."""
    if not isinstance(request, dict):
        raise SheetError(gettext_noop("a prize request must be a JSON object"))
    places = request.get("places", [])
    if not isinstance(places, list) or not all(
        isinstance(item, list)
        and len(item) == 2
        and isinstance(item[0], str)
        and isinstance(item[1], int)
        and not isinstance(item[1], bool)
        for item in places
    ):
        raise SheetError(gettext_noop("places must be a list of [name, rank] pairs"))
    costs = parse_percent(str(request.get("costs_percent", "0")), field="costs_percent")
    split = split_prize_fund(
        # Any JSON value: split_prize_fund refuses what is not a whole number of cents.
        request.get("fund_cents"),  # type: ignore[arg-type]
        costs,
        parse_prize_shares(request.get("shares", "")),
        [(name, rank) for name, rank in places],
    )
    return {
        "costs_cents": split.costs_cents,
        "prizes": {prize.player: prize.cents for prize in split.prizes},
        "unpaid_cents": split.unpaid_cents,
    }
