"""The organiser's page of the registrations made online: accept, move, refuse."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from accounts.access import organiser_required
from core.http import AuthenticatedHttpRequest
from core.security import client_ip
from organise.forms.signups import SignUpActionForm, SignUpsAcceptForm
from signups import services as signup_services
from signups.models import SignUp, SignUpStatus
from signups.selectors import organiser_signups, signup_lists, signup_open
from tournaments import selectors, services
from tournaments.models import Tournament

# Lazy: translated when shown, in the language of that request.
DONE = {
    "accept": gettext_lazy("%(name)s: sign-up accepted, registered in the tournament."),
    "listed": gettext_lazy("%(name)s: moved to the list of players."),
    "waiting": gettext_lazy("%(name)s: moved to the waiting list."),
    "refuse": gettext_lazy("%(name)s: sign-up refused."),
}


def _act(request: AuthenticatedHttpRequest, signup: SignUp, action: str) -> None:
    by, ip_address = request.user, client_ip(request)
    if action == "accept":
        signup_services.signup_accept(signup=signup, by=by, ip_address=ip_address)
    elif action == "refuse":
        signup_services.signup_refuse(signup=signup, by=by, ip_address=ip_address)
    else:
        signup_services.signup_move(signup=signup, to=action, by=by, ip_address=ip_address)


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def signups(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    if request.method == "POST":
        form = SignUpActionForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Choose a sign-up and what to do with it."))
            return redirect("organise:signups", slug=slug)
        signup = get_object_or_404(SignUp, pk=form.cleaned_data["signup"], tournament=tournament)
        action = form.cleaned_data["action"]
        try:
            _act(request, signup, action)
        except services.ServiceError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, str(DONE[action]) % {"name": signup.full_name})
        return redirect("organise:signups", slug=slug)
    lists = signup_lists(tournament=tournament)
    every = organiser_signups(tournament=tournament)
    numbers = {
        line.signup.pk: line.number for line in (*lists.registered, *lists.waiting) if line.signup
    }
    # Each sign-up beside its number on its list (None: on neither).
    numbered = [(numbers.get(signup.pk), signup) for signup in every]
    return render(
        request,
        "organise/signups.html",
        {
            "tournament": tournament,
            "lists": lists,
            "is_open": signup_open(tournament),
            "joins_round": selectors.round_to_join(tournament=tournament),
            "listed": [(n, s) for n, s in numbered if s.status == SignUpStatus.LISTED],
            "waiting": [(n, s) for n, s in numbered if s.status == SignUpStatus.WAITING],
            "done": [
                (n, s)
                for n, s in numbered
                if s.status in (SignUpStatus.ACCEPTED, SignUpStatus.REFUSED)
            ],
            # A place is free and someone waits: the organiser moves him (never done silently).
            "first_waiting": lists.waiting[0] if lists.waiting and lists.free_places else None,
            # Accepting several at once: as many as the places take (the whole list when they
            # take none: accepting then says why it cannot).
            "accept_form": SignUpsAcceptForm(
                initial={"count": lists.acceptable or lists.listed_online}
            ),
        },
    )


@organiser_required
@require_POST
def signups_accept(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Accept the first N of the online list in one step; then the registrations page, where the
    players now are."""
    tournament = get_object_or_404(Tournament, slug=slug)
    form = SignUpsAcceptForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give how many to accept: a whole number from 1."))
        return redirect("organise:signups", slug=slug)
    try:
        accepted = signup_services.signups_accept(
            tournament=tournament,
            count=form.cleaned_data["count"],
            by=request.user,
            ip_address=client_ip(request),
        )
    except services.ServiceError as error:
        messages.error(request, str(error))
        return redirect("organise:signups", slug=slug)
    messages.success(
        request,
        ngettext(
            "%(count)d player accepted and registered.",
            "%(count)d players accepted and registered.",
            len(accepted),
        )
        % {"count": len(accepted)},
    )
    return redirect("organise:registrations", slug=slug)
