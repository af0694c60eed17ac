"""Self check-in by the round's code: the tournament's check-in page (find yourself by name,
type the round's code from the hall display); the player's own page (public/my_page.py) checks
him in with one tap. Never cached: each answer is the visitor's own. Wrong codes count against
the address (core.ratelimit.CHECK_IN_FAILURES) and against the round too, whatever the address
(CHECK_IN_ROUND_FAILURES)."""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from core.page_cache import canonical_redirect
from core.query import whole_number
from core.ratelimit import CHECK_IN_FAILURES, CHECK_IN_ROUND_FAILURES
from core.security import client_ip
from engine.names import search_key
from hall.selectors import (
    check_in_matches,
    open_check_in_round,
)
from hall.services.check_in import WrongCodeError, self_check_in
from tournaments import services
from tournaments.models import CheckIn, CheckInMethod, Registration, Round, Tournament

SEARCH_MAX_LENGTH = 80  # a name; longer input is cut, never an error
SEARCH_MIN_LENGTH = 2  # one letter would list half the field
MATCHES_SHOWN = 12


class CodeForm(forms.Form):
    code = forms.CharField(
        label=gettext_lazy("Check-in code"),
        max_length=20,
        strip=True,
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "class": "check-in-code-input",
                "size": 8,
            }
        ),
    )


def player_status(check_in: CheckIn | None, checked_out: bool) -> str:
    """What the player's line says about his check-in for the open round."""
    if checked_out:
        return _("marked absent by the organiser")
    if check_in is None:
        return _("not checked in")
    when = timezone.localtime(check_in.checked_in_at).strftime("%H:%M")
    if check_in.method in (CheckInMethod.CODE, CheckInMethod.LINK):
        return _("checked in by yourself at %(time)s") % {"time": when}
    if check_in.method == CheckInMethod.ORGANISER:
        return _("checked in by the organiser")
    return _("not confirmed yet")


@dataclass(frozen=True)
class CheckInMatch:
    """A player the search found, with what his line says and whether he is done."""

    registration: Registration
    status: str
    confirmed: bool  # checked in (not only seated) or marked absent: nothing left to do here


def found(tournament: Tournament, round_: Round, query: str) -> list[CheckInMatch]:
    """The players of the round the search finds."""
    if len(search_key(query).replace(" ", "")) < SEARCH_MIN_LENGTH:
        return []
    registrations = check_in_matches(
        tournament=tournament, round_=round_, query=query, limit=MATCHES_SHOWN
    )
    matches = []
    for registration in registrations:
        check_in, checked_out = registration.check_in, registration.checked_out
        confirmed = checked_out or (check_in is not None and check_in.method != CheckInMethod.ROUND)
        matches.append(
            CheckInMatch(
                registration=registration,
                status=player_status(check_in, checked_out),
                confirmed=confirmed,
            )
        )
    return matches


def _code_check_in(
    request: HttpRequest, chosen: Registration, round_: Round | None, code: str
) -> CheckIn | HttpResponse | tuple[str, int]:
    """The player checks in by the code: his check-in, a 429 page (the round has taken its
    wrong codes), or the refusal's message and status. The address's try (taken by the
    caller) and the round's stay counted for a wrong code only."""
    counted = f"round:{round_.pk}" if round_ is not None else None
    if counted is not None:
        refusal = CHECK_IN_ROUND_FAILURES.begin(request, key=counted)  # any address's guess
        if refusal is not None:
            CHECK_IN_FAILURES.succeeded(request)
            return refusal
    try:
        checked_in = self_check_in(
            registration=chosen,
            method=CheckInMethod.CODE,
            code=code,
            ip_address=client_ip(request),
        )
    except WrongCodeError as refused:  # both tries stay counted
        return str(refused), 400
    except services.ServiceError as refused:
        outcome: CheckIn | tuple[str, int] = (str(refused), 409)
    else:
        outcome = checked_in
    CHECK_IN_FAILURES.succeeded(request)
    if counted is not None:
        CHECK_IN_ROUND_FAILURES.succeeded(request, key=counted)
    return outcome


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def check_in(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's check-in page: a search by name, then the round's code."""
    if request.method != "POST":
        redirect_to = canonical_redirect(request, frozenset({"q"}))
        if redirect_to is not None:
            return redirect_to
    tournament = get_object_or_404(Tournament, slug=slug)
    round_ = open_check_in_round(tournament)
    source = request.POST if request.method == "POST" else request.GET
    query = source.get("q", "").strip()[:SEARCH_MAX_LENGTH]
    form = CodeForm()
    error = ""
    status = 200
    chosen = None
    if request.method == "POST":
        refusal = CHECK_IN_FAILURES.begin(request)  # counted first: parallel guesses too
        if refusal is not None:
            return refusal
        form = CodeForm(request.POST)
        chosen_id = whole_number(request.POST.get("registration"))
        chosen = (
            tournament.registrations.select_related("player", "tournament")
            .filter(pk=chosen_id)
            .first()
            if chosen_id is not None
            else None
        )
        if chosen is None:
            CHECK_IN_FAILURES.succeeded(request)  # no guess of a code
            error, status = _("Find your name first, then type the code beside it."), 400
        elif not form.is_valid():
            CHECK_IN_FAILURES.succeeded(request)
            error, status = _("Type the check-in code the hall display shows."), 400
        else:
            outcome = _code_check_in(request, chosen, round_, form.cleaned_data["code"])
            if isinstance(outcome, HttpResponse):
                return outcome
            if isinstance(outcome, CheckIn):
                messages.success(
                    request,
                    _("%(name)s is checked in for round %(number)d. Thank you!")
                    % {"name": chosen.player.full_name, "number": outcome.round.number},
                )
                url = reverse("public:check_in", args=[slug])
                return redirect(f"{url}?{urlencode({'q': query})}" if query else url)
            error, status = outcome
    return render(
        request,
        "public/check_in.html",
        {
            "tournament": tournament,
            "round": round_,
            "query": query,
            "matches": found(tournament, round_, query) if round_ is not None else [],
            "query_too_short": bool(query)
            and len(search_key(query).replace(" ", "")) < SEARCH_MIN_LENGTH,
            "form": form,
            "chosen": chosen,
            "error": error,
        },
        status=status,
    )
