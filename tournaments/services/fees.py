"""Entry fees: a tournament's fee categories and the fees ticked paid."""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.page_cache import tournament_changed
from engine.names import clean_name, same_name_key
from tournaments.models import AuditRecord, FeeCategory, Registration, Round, Tournament
from tournaments.services.audit import audit
from tournaments.services.refusal import ServiceError

CENT = Decimal("0.01")


@dataclass(frozen=True)
class CategoryRow:
    """A fee category as the organiser's form sends it: `pk` None for a new one, `amount`
    None only for one removed (its fee is not read)."""

    pk: int | None
    name: str
    amount: Decimal | None
    delete: bool = False


@transaction.atomic
def fee_categories_save(
    *,
    tournament: Tournament,
    rows: Sequence[CategoryRow],
    by: User | None,
    ip_address: str | None = None,
) -> list[FeeCategory]:
    """The tournament's fee categories, in the order given (the first is the standard fee).
    A category players are in cannot be removed; what changed goes to the audit log."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    existing = {category.pk: category for category in tournament.fee_categories.all()}
    before = [(category.name, str(category.amount)) for category in existing.values()]
    unknown = [row.pk for row in rows if row.pk is not None and row.pk not in existing]
    if unknown:
        raise ServiceError(_("This fee category is not one of this tournament's."))
    removed = [existing[row.pk] for row in rows if row.delete and row.pk is not None]
    in_use = [
        category.name
        for category in removed
        if category.registrations.exists()  # PROTECT would refuse it too, less clearly
    ]
    if in_use:
        raise ServiceError(
            _("Fee category %(name)s has players: give them another category first.")
            % {"name": ", ".join(in_use)}
        )
    for category in removed:
        category.delete()
    kept = [row for row in rows if not row.delete]
    # Two names that read alike (case, marks, a hidden or look-alike letter) are one name.
    names = [same_name_key(row.name) for row in kept]
    if len(set(names)) != len(names):
        raise ServiceError(_("Each fee category needs a name of its own."))
    # Names move to placeholders first: two categories may swap names in one save. (Random, so
    # that no name an organiser types meets one; no NUL: PostgreSQL's text refuses it.)
    for category in existing.values():
        if category not in removed:
            placeholder = f"~{category.pk}~{secrets.token_hex(8)}"
            FeeCategory.objects.filter(pk=category.pk).update(name=placeholder)
    saved = []
    for order, row in enumerate(kept):
        found = existing.get(row.pk) if row.pk is not None else None
        category = found if found is not None else FeeCategory(tournament=tournament)
        if row.amount is None:  # the form requires the fee of every category kept
            raise ValueError(f"fee category {row.name!r} is kept without its fee")
        category.name = clean_name(row.name)
        category.amount = row.amount.quantize(CENT)  # "15" is kept and logged as 15.00
        category.order = order
        category.save()
        saved.append(category)
    after = [(category.name, str(category.amount)) for category in saved]
    if after != before:
        audit(
            action=AuditRecord.Action.FEE_CATEGORIES,
            by=by,
            tournament=tournament,
            ip_address=ip_address,
            before=[f"{name} {amount}" for name, amount in before],
            after=[f"{name} {amount}" for name, amount in after],
        )
    tournament_changed(tournament.pk)
    return saved


@transaction.atomic
def fees_paid_set(
    *,
    tournament: Tournament,
    paid: Iterable[Registration],
    by: User | None,
    ip_address: str | None = None,
) -> int:
    """Exactly these registrations have paid their fee; returns how many have. A newly ticked
    fee records when and to whom it was paid; who was ticked or unticked goes to the audit log."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    chosen = {
        registration.pk for registration in paid if registration.tournament_id == tournament.pk
    }
    registrations = Registration.objects.filter(tournament=tournament)
    before = set(registrations.filter(fee_paid_at__isnull=False).values_list("pk", flat=True))
    user = by if by is not None and by.is_authenticated else None
    registrations.filter(pk__in=chosen - before).update(
        fee_paid_at=timezone.now(), fee_paid_to=user
    )
    registrations.filter(pk__in=before - chosen).update(fee_paid_at=None, fee_paid_to=None)
    if chosen != before:
        names = dict(
            registrations.filter(pk__in=chosen ^ before).values_list("pk", "player__full_name")
        )
        audit(
            action=AuditRecord.Action.FEES_PAID,
            by=by,
            tournament=tournament,
            ip_address=ip_address,
            paid=sorted(names[pk] for pk in chosen - before),
            unpaid=sorted(names[pk] for pk in before - chosen),
            paid_count=len(chosen),
        )
        tournament_changed(tournament.pk)
    return len(chosen)


@transaction.atomic
def fee_category_set(
    *,
    tournament: Tournament,
    registrations: Iterable[Registration],
    category: FeeCategory,
    by: User | None,
    ip_address: str | None = None,
) -> int:
    """Give these registrations the fee category, in one step; returns how many. Refused, with
    nothing written, for another tournament's category or player, or for nobody."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if category.tournament_id != tournament.pk:
        raise ServiceError(_("This fee category is not one of this tournament's."))
    chosen = {registration.pk: registration for registration in registrations}
    if not chosen:
        raise ServiceError(_("Tick the players who pay this fee."))
    if any(registration.tournament_id != tournament.pk for registration in chosen.values()):
        raise ServiceError(_("A player ticked is not registered in this tournament."))
    registrations = Registration.objects.filter(tournament=tournament, pk__in=chosen)
    names = sorted(registrations.values_list("player__full_name", flat=True))
    registrations.update(fee_category=category)
    audit(
        action=AuditRecord.Action.FEE_CATEGORY_SET,
        by=by,
        tournament=tournament,
        ip_address=ip_address,
        category=category.name,
        players=names,
    )
    tournament_changed(tournament.pk)
    return len(names)


@transaction.atomic
def fees_paid_by_present(*, round_: Round, by: User | None, ip_address: str | None = None) -> int:
    """Every player checked in for the round has paid his fee: the fees not yet ticked are
    ticked paid (when and to whom), in one step; returns how many were ticked now."""
    tournament = Tournament.objects.select_for_update().get(pk=round_.tournament_id)
    if not tournament.fee_categories.exists():
        raise ServiceError(_("The tournament has no fee categories: there is no fee to tick paid."))
    unpaid = Registration.objects.filter(
        tournament=tournament, check_ins__round=round_, fee_paid_at__isnull=True
    )
    names = sorted(unpaid.values_list("player__full_name", flat=True))
    user = by if by is not None and by.is_authenticated else None
    Registration.objects.filter(pk__in=list(unpaid.values_list("pk", flat=True))).update(
        fee_paid_at=timezone.now(), fee_paid_to=user
    )
    if names:
        audit(
            action=AuditRecord.Action.FEES_PAID,
            by=by,
            tournament=tournament,
            ip_address=ip_address,
            round=round_.number,
            paid=names,
            unpaid=[],
            paid_count=Registration.objects.filter(
                tournament=tournament, fee_paid_at__isnull=False
            ).count(),
        )
        tournament_changed(tournament.pk)
    return len(names)
