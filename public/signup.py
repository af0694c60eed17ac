"""A tournament's registration online: the form (while it is open) and the two lists."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from core.ratelimit import SIGNUPS
from core.security import client_ip
from public.forms import SignUpForm
from signups.models import SignUpStatus
from signups.selectors import signup_lists, signup_open
from signups.services import SignUpRefusedError, signup_create
from tournaments import selectors
from tournaments.models import Tournament


def _placed(place: tuple[str, int] | None) -> str:
    if place is None:
        return _("You are signed up.")
    status, number = place
    if status == SignUpStatus.WAITING:
        return _(
            "Every place is taken: you are number %(number)d on the waiting list. The "
            "organiser moves you to the list when a place frees."
        ) % {"number": number}
    return _("You are signed up: number %(number)d on the list of players.") % {"number": number}


# Not cached (core.page_cache): it carries a form with its CSRF token, and a player must see
# his place at once.
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    is_open = signup_open(tournament)
    form = SignUpForm(request.POST or None)
    status = 200
    if request.method == "POST":
        # Every registration sent counts, good or bad: a flood of good ones is a flood.
        refusal = SIGNUPS.begin(request)
        if refusal is not None:
            return refusal
        if not is_open:
            messages.error(request, _("Signing up online is closed for this tournament."))
            status = 400
        elif form.is_valid():
            data = form.cleaned_data
            try:
                signup = signup_create(
                    tournament=tournament,
                    full_name=data["full_name"],
                    club=data["club"],
                    licence_number=data["licence_number"],
                    contact=data["contact"],
                    by=request.user,
                    ip_address=client_ip(request),
                )
            except SignUpRefusedError as error:
                form.add_error(error.field, str(error))
            else:
                place = signup_lists(tournament=tournament).place_of(signup)
                messages.success(request, _placed(place))
                return redirect("public:signup", slug=tournament.slug)
    return render(
        request,
        "public/signup.html",
        {
            "tournament": tournament,
            "form": form if is_open else None,
            # Late sign-ups: the round a player accepted now plays from.
            "joins_round": selectors.round_to_join(tournament=tournament) if is_open else None,
            "lists": signup_lists(tournament=tournament),
            "fees": selectors.fee_texts(tournament=tournament),
        },
        status=status,
    )
