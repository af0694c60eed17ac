"""A round's page: check-in, seating (generate, swap), publication and the round clock."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST, require_safe

from accounts.access import organiser_required, round_or_404
from core.http import AuthenticatedHttpRequest
from core.query import whole_number
from core.security import client_ip
from hall.selectors import (
    SELF_METHODS,
    confirmed_check_ins,
    display_link,
    last_check_in_id,
    round_referee_calls,
)
from organise.forms.rounds import CheckInForm, GenerateSeatingForm, SwapForm
from organise.views.fees import FEES_ON_SCREEN, fees_form, save_fees_on_screen
from scoring import selectors as scoring_selectors
from scoring import services as scoring_services
from tournaments import permissions, selectors, services
from tournaments.models import Round, RoundStatus, SeatingMode, Tournament
from tournaments.round_clock import round_clock


@organiser_required
@require_POST
def round_create(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    try:
        new_round = services.round_create(
            tournament=tournament, by=request.user, ip_address=client_ip(request)
        )
    except services.ServiceError as error:
        messages.error(request, str(error))
        return redirect("organise:detail", slug=slug)
    return redirect("organise:round", slug=slug, number=new_round.number)


@organiser_required
@require_safe
def round_detail(request: AuthenticatedHttpRequest, slug: str, number: int) -> HttpResponse:
    return _round_page(request, round_or_404(slug, number))


def _round_page(
    request: AuthenticatedHttpRequest,
    round_: Round,
    *,
    check_in_form: CheckInForm | None = None,
    generate_form: GenerateSeatingForm | None = None,
) -> HttpResponse:
    """The round page; after a refused generation or publication, with the forms as they were
    sent (the ticks on screen stay, and the differences are those of the ticks)."""
    clock = round_clock(round_)
    tables = selectors.round_tables(round_=round_)
    if check_in_form is None:
        present = selectors.checked_in(round_=round_)
        check_in_form = CheckInForm(round_=round_, initial={"registrations": present})
    elif check_in_form.is_valid():
        present = [registration.pk for registration in check_in_form.cleaned_data["registrations"]]
    else:
        present = None  # the saved check-in
    # Seated by rank: each player's rank beside his seat, to check against the standings.
    by_rank = bool(tables) and round_.seating_mode == SeatingMode.RANKED
    ranks = (
        scoring_selectors.rank_labels_before(
            tournament=round_.tournament, before_round=round_.number
        )
        if by_rank
        else {}
    )
    # Each table with its seats, a seat beside its player's rank ("" when not seated by rank).
    seated_tables = [
        (view, [(seat, ranks.get(seat.registration_id, "")) for seat in view.seats])
        for view in tables
    ]
    check_ins_made = confirmed_check_ins(round_=round_)
    attendance = selectors.attendance_difference(
        round_=round_,
        present=present,
        seated=[seat.registration_id for view in tables for seat in view.seats],
    )
    return render(
        request,
        "organise/round_detail.html",
        {
            "tournament": round_.tournament,
            "round": round_,
            "tables": tables,
            "seated_tables": seated_tables,
            "uneven_dealing": selectors.uneven_dealing(round_=round_, tables=tables),
            "check_in_form": check_in_form,
            "fees_form": fees_form(round_.tournament),
            "fees_on_screen": FEES_ON_SCREEN,
            "attendance": attendance,
            "generate_form": generate_form
            or GenerateSeatingForm(initial={"mode": round_.seating_mode}),
            "swap_form": SwapForm(round_=round_),
            "confirmation": services.regenerate_confirmation(round_),
            "is_draft": round_.status == RoundStatus.DRAFT,
            "is_published": round_.status == RoundStatus.PUBLISHED,
            "clock": clock,
            "by_rank": by_rank,
            # A clock started by mistake is reset, unless a table was confirmed short by it.
            "clock_can_reset": clock.can_reset
            and not scoring_selectors.tables_confirmed_short(round_=round_),
            # Self check-in and the tables' calls to the chief referee.
            "check_in_open": round_.status == RoundStatus.DRAFT and not tables,
            "check_ins_made": check_ins_made,
            "self_check_in_count": sum(
                check_in.method in SELF_METHODS for check_in in check_ins_made
            ),
            "display_link": display_link(round_.tournament),
            "referee_calls": round_referee_calls(round_=round_),
            "check_ins_shown": last_check_in_id(round_=round_),
        },
    )


# --- The round clock -----------------------------------------------------------------------------

CLOCK_ACTIONS: dict[str, tuple[Callable[..., Round], Promise]] = {
    "start": (
        services.round_clock_start,
        gettext_lazy("The clock of round %(number)d is running."),
    ),
    "call": (
        services.round_time_call,
        gettext_lazy(
            "Time is called in round %(number)d: each table finishes the deal under way and "
            "confirms."
        ),
    ),
    "reset": (
        scoring_services.round_clock_reset,
        gettext_lazy("The clock of round %(number)d is stopped and back to not started."),
    ),
}


def clock_keeper_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Views of a round's clock: its tournament's organisers and chief referees
    (tournaments.permissions.can_run_clock). Visitors are sent to sign in, other accounts get 403,
    before the method is looked at. The view receives the round, with its tournament."""

    @login_required
    @wraps(view)
    def wrapped(request: AuthenticatedHttpRequest, slug: str, number: int) -> HttpResponse:
        round_ = round_or_404(slug, number)
        if not permissions.can_run_clock(request.user, round_.tournament):
            raise PermissionDenied(
                _("Only the tournament's organisers and chief referees keep the round clock.")
            )
        return view(request, round_=round_)

    return wrapped


@clock_keeper_required
@require_POST
def round_clock_action(request: AuthenticatedHttpRequest, round_: Round) -> HttpResponse:
    """Start the round's clock, call time or reset it (the form's `action`); back to the round
    page (an organiser) or the dashboard (a chief referee) with what happened."""
    action = CLOCK_ACTIONS.get(request.POST.get("action", ""))
    if action is None:
        messages.error(request, _("That request is not understood: reload the page."))
    else:
        service, done = action
        try:
            service(round_=round_, by=request.user, ip_address=client_ip(request))
        except services.ServiceError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, str(done) % {"number": round_.number})
    tournament = round_.tournament
    if permissions.is_organiser(request.user, tournament):
        url = reverse("organise:round", args=[tournament.slug, round_.number])
        return redirect(f"{url}#round-clock")
    return redirect(f"{reverse('organise:dashboard')}#round-{round_.pk}")


@organiser_required
@require_POST
def round_check_in(request: AuthenticatedHttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = round_or_404(slug, number)
    save_fees_on_screen(request, round_)
    form = CheckInForm(request.POST, round_=round_)
    if form.is_valid():
        _save_check_in(request, round_, form)
    else:
        messages.error(request, _("Choose the players who are present."))
    return redirect("organise:round", slug=slug, number=number)


def _save_check_in(request: AuthenticatedHttpRequest, round_: Round, form: CheckInForm) -> bool:
    """The check-in as ticked on screen, saved; False (and why, in a message) when refused."""
    try:
        count = services.check_in_set(
            round_=round_,
            registrations=form.cleaned_data["registrations"],
            by=request.user,
            ip_address=client_ip(request),
            shown_until=check_ins_shown(request),
        )
    except services.ServiceError as error:
        messages.error(request, str(error))
        return False
    messages.success(
        request,
        ngettext("%(count)d player checked in.", "%(count)d players checked in.", count)
        % {"count": count},
    )
    return True


@organiser_required
@require_POST
def round_fees_paid_present(
    request: AuthenticatedHttpRequest, slug: str, number: int
) -> HttpResponse:
    """Everyone present has paid: the check-in on screen is saved (the fee ticks with it), then
    every player checked in is ticked paid."""
    round_ = round_or_404(slug, number)
    back = redirect(f"{reverse('organise:round', args=[slug, number])}#fees-paid")
    attendance = _attendance_on_screen(request, round_)
    if attendance is not None and not attendance.is_valid():
        messages.error(request, _("Choose the players who are present."))
        return back
    save_fees_on_screen(request, round_, announce=False)
    if attendance is not None and not _save_check_in(request, round_, attendance):
        return back
    try:
        services.fees_paid_by_present(round_=round_, by=request.user, ip_address=client_ip(request))
    except services.ServiceError as error:
        messages.error(request, str(error))
        return back
    count = len(selectors.fees_paid(tournament=round_.tournament))
    messages.success(
        request,
        ngettext(
            "Everyone present has paid: %(count)d fee paid in all.",
            "Everyone present has paid: %(count)d fees paid in all.",
            count,
        )
        % {"count": count},
    )
    return back


def check_ins_shown(request: AuthenticatedHttpRequest) -> int | None:
    """The last check-in the organiser's screen showed (self check-in goes on meanwhile)."""
    return whole_number(request.POST.get("check_ins_shown"))


def _attendance_on_screen(request: AuthenticatedHttpRequest, round_: Round) -> CheckInForm | None:
    """The check-in list as sent with the round's form (its `attendance` marker says the list
    was on screen: no tick at all then means nobody is present); None without it."""
    if "attendance" not in request.POST:
        return None
    return CheckInForm(request.POST, round_=round_)


@organiser_required
@require_POST
def round_generate(request: AuthenticatedHttpRequest, slug: str, number: int) -> HttpResponse:
    """Seat the players ticked on screen: the check-in is saved with the seating."""
    round_ = round_or_404(slug, number)
    save_fees_on_screen(request, round_)
    form = GenerateSeatingForm(request.POST)
    attendance = _attendance_on_screen(request, round_)
    if not form.is_valid():
        messages.error(request, _("Choose a seating mode and a whole-number seed."))
        return _round_page(request, round_, check_in_form=attendance, generate_form=form)
    if attendance is not None and not attendance.is_valid():
        messages.error(request, _("Choose the players who are present."))
        return _round_page(request, round_, check_in_form=attendance, generate_form=form)
    try:
        round_ = scoring_services.round_generate_seating(
            round_=round_,
            mode=form.cleaned_data["mode"],
            seed=form.cleaned_data["seed"],
            confirmation=form.cleaned_data["confirmation"],
            by=request.user,
            ip_address=client_ip(request),
            present=attendance.cleaned_data["registrations"] if attendance is not None else None,
            shown_until=check_ins_shown(request),
        )
    except services.ServiceError as error:
        messages.error(request, str(error))
        return _round_page(request, round_, check_in_form=attendance, generate_form=form)
    messages.success(request, _("Seating generated with seed %(seed)s.") % {"seed": round_.seed})
    return redirect("organise:round", slug=slug, number=number)


@organiser_required
@require_POST
def round_swap(request: AuthenticatedHttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = round_or_404(slug, number)
    form = SwapForm(request.POST, round_=round_)
    if not form.is_valid():
        messages.error(request, _("Choose two seated players to swap."))
        return redirect("organise:round", slug=slug, number=number)
    try:
        warnings = services.round_swap_players(
            round_=round_,
            first=form.cleaned_data["first"],
            second=form.cleaned_data["second"],
            by=request.user,
            ip_address=client_ip(request),
        )
    except services.ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Players swapped."))
        for warning in warnings:
            messages.warning(request, warning)
    return redirect("organise:round", slug=slug, number=number)


@organiser_required
@require_POST
def round_publish(request: AuthenticatedHttpRequest, slug: str, number: int) -> HttpResponse:
    """Publish with the check-in on screen (saved with it); refused while the seated players
    are not the present ones, unless the organiser ticks that it is published as it is."""
    round_ = round_or_404(slug, number)
    save_fees_on_screen(request, round_)
    attendance = _attendance_on_screen(request, round_)
    if attendance is not None and not attendance.is_valid():
        messages.error(request, _("Choose the players who are present."))
        return _round_page(request, round_, check_in_form=attendance)
    try:
        services.round_publish(
            round_=round_,
            by=request.user,
            ip_address=client_ip(request),
            present=attendance.cleaned_data["registrations"] if attendance is not None else None,
            attendance_confirmed=bool(request.POST.get("attendance_confirmed")),
            shown_until=check_ins_shown(request),
        )
    except services.ServiceError as error:
        messages.error(request, str(error))
        if attendance is not None:
            return _round_page(request, round_, check_in_form=attendance)
    else:
        messages.success(request, _("Round %(number)d published.") % {"number": number})
    return redirect("organise:round", slug=slug, number=number)


@organiser_required
@require_POST
def round_close(request: AuthenticatedHttpRequest, slug: str, number: int) -> HttpResponse:
    """Close a round once every table is confirmed: its results are final."""
    round_ = get_object_or_404(Round, tournament__slug=slug, number=number)
    try:
        scoring_services.round_close(
            round_=round_,
            writer=scoring_services.Writer(user=request.user, ip_address=client_ip(request)),
        )
    except services.ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Round %(number)d closed.") % {"number": number})
    return redirect("organise:round", slug=slug, number=number)
