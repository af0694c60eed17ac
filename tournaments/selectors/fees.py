"""Entry fees: each registration's fee, whether it is paid, and the fund (the fees paid)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.utils.formats import number_format

from tournaments.models import FeeCategory, Registration, Tournament

CENT = Decimal("0.01")


def cents(amount: Decimal) -> int:
    """A stored amount (a Decimal of two places) as whole cents."""
    return int((amount / CENT).to_integral_value())


def money_text(amount_cents: int) -> str:
    """Cents as people read money in the active language: "15,00 €" in Latvian."""
    euros = Decimal(amount_cents) / 100
    return f"{number_format(euros, decimal_pos=2, force_grouping=True)}\u00a0€"


def percent_text(percent: Decimal) -> str:
    """A percentage as the active language writes it: "12,5 %" in Latvian, "20 %"."""
    return f"{number_format(percent.normalize())}\u00a0%"


@dataclass(frozen=True)
class CategoryFund:
    """One fee category's part of the fund."""

    name: str
    amount_cents: int
    paid: int  # players who paid
    unpaid: int
    paid_cents: int

    @property
    def amount_text(self) -> str:
        return money_text(self.amount_cents)

    @property
    def paid_text(self) -> str:
        return money_text(self.paid_cents)


@dataclass(frozen=True)
class Fund:
    categories: tuple[CategoryFund, ...]
    total_cents: int  # the fees paid: the prize fund before costs
    paid: int
    unpaid: int

    @property
    def has_categories(self) -> bool:
        return bool(self.categories)

    @property
    def total_text(self) -> str:
        return money_text(self.total_cents)


def fee_categories(*, tournament: Tournament) -> list[FeeCategory]:
    return list(tournament.fee_categories.all())


def fee_text(category: FeeCategory) -> str:
    """A fee category as people read it: "Dāmām 10,00 €"."""
    return f"{category.name} {money_text(cents(category.amount))}"


def fee_texts(*, tournament: Tournament) -> list[str]:
    """What a player pays, category by category."""
    return [fee_text(category) for category in fee_categories(tournament=tournament)]


def registration_fees(
    *, tournament: Tournament, categories: list[FeeCategory] | None = None
) -> dict[int, FeeCategory | None]:
    """Each registration's fee category: its own, or the tournament's first (None: no fees)."""
    if categories is None:
        categories = fee_categories(tournament=tournament)
    by_pk = {category.pk: category for category in categories}
    first = categories[0] if categories else None
    return {
        pk: by_pk.get(category_id, first) if category_id else first
        for pk, category_id in Registration.objects.filter(tournament=tournament)
        .values_list("pk", "fee_category_id")
        .order_by()
    }


def fees_paid(*, tournament: Tournament) -> list[int]:
    """The registrations whose fee is paid."""
    return list(
        Registration.objects.filter(tournament=tournament, fee_paid_at__isnull=False)
        .values_list("pk", flat=True)
        .order_by()
    )


def prize_fund(*, tournament: Tournament) -> Fund:
    """The fund: each category's fee times the players of it who paid. Three queries."""
    categories = fee_categories(tournament=tournament)
    fees = registration_fees(tournament=tournament, categories=categories)
    paid = set(fees_paid(tournament=tournament))
    counts = {category.pk: [0, 0] for category in categories}  # paid, not paid
    for registration_id, category in fees.items():
        if category is not None:
            counts[category.pk][0 if registration_id in paid else 1] += 1
    rows = tuple(
        CategoryFund(
            name=category.name,
            amount_cents=cents(category.amount),
            paid=counts[category.pk][0],
            unpaid=counts[category.pk][1],
            paid_cents=cents(category.amount) * counts[category.pk][0],
        )
        for category in categories
    )
    return Fund(
        categories=rows,
        total_cents=sum(row.paid_cents for row in rows),
        paid=sum(row.paid for row in rows),
        unpaid=sum(row.unpaid for row in rows),
    )
