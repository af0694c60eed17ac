"""The hall display's private link (it shows the round's check-in code): the organiser makes
it, renews it (the old one stops working) or withdraws it, from the round or tournament page."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.query import whole_number
from core.security import client_ip
from tournaments import services
from tournaments.access import organiser_required
from tournaments.models import Tournament


def _back(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """To the round page the form was on (`back`: its number), else the tournament page."""
    number = whole_number(request.POST.get("back"))
    if number is not None and tournament.rounds.filter(number=number).exists():
        url = reverse("organise:round", args=[tournament.slug, number])
    else:
        url = reverse("organise:detail", args=[tournament.slug])
    return redirect(f"{url}#hall-display")


@organiser_required
@require_POST
def display_link_new(request: HttpRequest, slug: str) -> HttpResponse:
    """A new private link of the hall display; the old one stops working."""
    tournament = get_object_or_404(Tournament, slug=slug)
    services.display_link_issue(
        tournament=tournament, by=request.user, ip_address=client_ip(request)
    )
    messages.success(
        request,
        _(
            "The hall display has a new private link: open it on the hall's screen. An old "
            "link no longer works."
        ),
    )
    return _back(request, tournament)


@organiser_required
@require_POST
def display_link_revoke(request: HttpRequest, slug: str) -> HttpResponse:
    """The private link stops working (a leaked link); the public display stays."""
    tournament = get_object_or_404(Tournament, slug=slug)
    revoked = services.display_link_revoke(
        tournament=tournament, by=request.user, ip_address=client_ip(request)
    )
    if revoked:
        messages.success(request, _("The hall display's private link no longer works."))
    else:
        messages.warning(request, _("The hall display had no working private link."))
    return _back(request, tournament)
