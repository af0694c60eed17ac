"""Entry fees: the fee categories page, and the fee ticks the round's check-in carries."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from accounts.access import organiser_required
from core.http import AuthenticatedHttpRequest
from core.security import client_ip
from organise.forms.fees import FeeCategoryFormSet, FeeCategorySetForm, FeesPaidForm
from tournaments import selectors, services
from tournaments.models import Round, Tournament

# The marker the check-in form carries when its fee ticks are on screen: no tick at all then
# means nobody has paid.
FEES_ON_SCREEN = "fees_on_screen"


def fees_form(tournament: Tournament, data: object = None) -> FeesPaidForm | None:
    """The check-in's fee ticks, each player's fee beside his name; None without fee categories."""
    fees = selectors.registration_fees(tournament=tournament)
    if not any(fees.values()):
        return None
    labels = {pk: selectors.fee_text(category) for pk, category in fees.items() if category}
    initial = {"paid": selectors.fees_paid(tournament=tournament)}
    return FeesPaidForm(data, tournament=tournament, fee_labels=labels, initial=initial)


def save_fees_on_screen(
    request: AuthenticatedHttpRequest, round_: Round, *, announce: bool = True
) -> None:
    """Save the fee ticks sent with the check-in (any of its buttons), when they were on screen;
    `announce`: say how many have paid."""
    if FEES_ON_SCREEN not in request.POST:
        return
    form = fees_form(round_.tournament, request.POST)
    if form is None:
        return
    if not form.is_valid():
        messages.error(request, _("Tick the players who paid their fee."))
        return
    count = services.fees_paid_set(
        tournament=round_.tournament,
        paid=form.cleaned_data["paid"],
        by=request.user,
        ip_address=client_ip(request),
    )
    if announce:
        messages.success(
            request,
            ngettext("%(count)d fee paid.", "%(count)d fees paid.", count) % {"count": count},
        )


@organiser_required
@require_POST
def fee_category_set(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The entries page's ticks: the players ticked pay the fee of the category chosen."""
    tournament = get_object_or_404(Tournament, slug=slug)
    form = FeeCategorySetForm(request.POST, tournament=tournament)
    if not form.is_valid():
        messages.error(request, _("Tick the players and choose their fee category."))
        return redirect("organise:registrations", slug=slug)
    category = form.cleaned_data["category"]
    try:
        count = services.fee_category_set(
            tournament=tournament,
            registrations=form.cleaned_data["registrations"],
            category=category,
            by=request.user,
            ip_address=client_ip(request),
        )
    except services.ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            ngettext(
                "%(category)s: the fee of %(count)d player.",
                "%(category)s: the fee of %(count)d players.",
                count,
            )
            % {"category": category.name, "count": count},
        )
    return redirect("organise:registrations", slug=slug)


def _category_row(cleaned: dict[str, Any]) -> services.CategoryRow:
    """A row of the fees form as the service takes it. The form requires the fee of each
    category kept; a removed one's may be left empty, and is not read."""
    return services.CategoryRow(
        pk=cleaned.get("category"),
        name=cleaned["name"],
        amount=cleaned.get("amount"),
        delete=bool(cleaned.get("remove")),
    )


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def fee_categories(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The tournament's fee categories (the first is the standard fee) and the fund so far."""
    tournament = get_object_or_404(Tournament, slug=slug)
    initial = [
        {"category": category.pk, "name": category.name, "amount": category.amount}
        for category in selectors.fee_categories(tournament=tournament)
    ]
    formset = FeeCategoryFormSet(request.POST or None, initial=initial, prefix="fees")
    if request.method == "POST" and formset.is_valid():
        rows = [
            _category_row(form.cleaned_data)
            for form in formset.forms
            if form.cleaned_data.get("name") or form.cleaned_data.get("category")
        ]
        try:
            services.fee_categories_save(
                tournament=tournament, rows=rows, by=request.user, ip_address=client_ip(request)
            )
        except services.ServiceError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Fee categories saved."))
            return redirect("organise:fees", slug=slug)
    elif request.method == "POST":
        messages.error(request, _("Check the fee categories: something is missing or wrong."))
    return render(
        request,
        "organise/fees.html",
        {
            "tournament": tournament,
            "formset": formset,
            "fund": selectors.prize_fund(tournament=tournament),
        },
    )
