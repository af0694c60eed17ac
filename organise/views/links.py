"""The private links the organiser hands out: a table's entry link for its referee's phone
(issued anew, revoked), and the hall display's link that shows the round's check-in code (made,
renewed, withdrawn), from the round or tournament page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from accounts.access import organiser_required
from core.http import AuthenticatedHttpRequest
from core.query import whole_number
from core.security import client_ip
from hall.services import display_links
from scoring.sheet.door import table_role_required
from scoring.sheet.reader import DoorTable
from tournaments import permissions, services
from tournaments.models import Table, Tournament


def _round_page(table: Table) -> str:
    url = reverse("organise:round", args=[table.round.tournament.slug, table.round.number])
    return f"{url}#entry-links"


def _organises_table(user: User, table: Table) -> bool:
    return permissions.is_organiser(user, table.round.tournament)


ONLY_ORGANISERS = gettext_lazy("Only the tournament's organisers manage its entry links.")


@table_role_required(_organises_table, ONLY_ORGANISERS)
@require_POST
def table_link_new(request: AuthenticatedHttpRequest, door: DoorTable) -> HttpResponse:
    """A new entry link for the table; the old one stops working."""
    table = door.seated_table
    services.table_token_issue(table=table, by=request.user, ip_address=client_ip(request))
    messages.success(
        request,
        _("Table %(number)d has a new entry link; the old one no longer works.")
        % {"number": table.number},
    )
    return redirect(_round_page(table))


@table_role_required(_organises_table, ONLY_ORGANISERS)
@require_http_methods(["GET", "HEAD", "POST"])
def table_link_revoke(request: AuthenticatedHttpRequest, door: DoorTable) -> HttpResponse:
    """The table's entry link stops working (a lost phone, a leaked link). The list's button
    opens a page that asks first; only its form (`confirmed`) revokes, so a stray click or an
    old form resent does not cut a referee off mid-round."""
    table = door.seated_table
    if request.method != "POST" or not request.POST.get("confirmed"):
        return render(request, "organise/link_revoke.html", {"table": table})
    revoked = services.table_token_revoke(
        table=table, by=request.user, ip_address=client_ip(request)
    )
    if revoked:
        messages.success(
            request,
            _("The entry link of table %(number)d no longer works.") % {"number": table.number},
        )
    else:
        messages.warning(
            request, _("Table %(number)d had no working entry link.") % {"number": table.number}
        )
    return redirect(_round_page(table))


def _back(request: AuthenticatedHttpRequest, tournament: Tournament) -> HttpResponse:
    """To the round page the form was on (`back`: its number), else the tournament page."""
    number = whole_number(request.POST.get("back"))
    if number is not None and tournament.rounds.filter(number=number).exists():
        url = reverse("organise:round", args=[tournament.slug, number])
    else:
        url = reverse("organise:detail", args=[tournament.slug])
    return redirect(f"{url}#hall-display")


@organiser_required
@require_POST
def display_link_new(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """A new private link of the hall display; the old one stops working."""
    tournament = get_object_or_404(Tournament, slug=slug)
    display_links.display_link_issue(
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
def display_link_revoke(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The private link stops working (a leaked link); the public display stays."""
    tournament = get_object_or_404(Tournament, slug=slug)
    revoked = display_links.display_link_revoke(
        tournament=tournament, by=request.user, ip_address=client_ip(request)
    )
    if revoked:
        messages.success(request, _("The hall display's private link no longer works."))
    else:
        messages.warning(request, _("The hall display had no working private link."))
    return _back(request, tournament)
