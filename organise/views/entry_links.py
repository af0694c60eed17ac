"""The organiser's side of table entry: a table's entry link issued anew or revoked, and a round
closed once every table is confirmed."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from core.security import client_ip
from scoring import services
from scoring.services import Writer
from scoring.sheet.door import table_role_required
from scoring.sheet.reader import DoorTable
from tournaments import permissions
from tournaments import services as tournament_services
from tournaments.access import organiser_required
from tournaments.models import Round, Table
from tournaments.services import ServiceError


def _round_page(table: Table) -> str:
    url = reverse("organise:round", args=[table.round.tournament.slug, table.round.number])
    return f"{url}#entry-links"


def _organises_table(user: object, table: Table) -> bool:
    return permissions.is_organiser(user, table.round.tournament)


ONLY_ORGANISERS = gettext_lazy("Only the tournament's organisers manage its entry links.")


@table_role_required(_organises_table, ONLY_ORGANISERS)
@require_POST
def table_link_new(request: HttpRequest, door: DoorTable) -> HttpResponse:
    """A new entry link for the table; the old one stops working."""
    table = door.table
    tournament_services.table_token_issue(
        table=table, by=request.user, ip_address=client_ip(request)
    )
    messages.success(
        request,
        _("Table %(number)d has a new entry link; the old one no longer works.")
        % {"number": table.number},
    )
    return redirect(_round_page(table))


@table_role_required(_organises_table, ONLY_ORGANISERS)
@require_http_methods(["GET", "HEAD", "POST"])
def table_link_revoke(request: HttpRequest, door: DoorTable) -> HttpResponse:
    """The table's entry link stops working (a lost phone, a leaked link). The list's button
    opens a page that asks first; only its form (`confirmed`) revokes, so a stray click or an
    old form resent does not cut a referee off mid-round."""
    table = door.table
    if request.method != "POST" or not request.POST.get("confirmed"):
        return render(request, "organise/link_revoke.html", {"table": table})
    revoked = tournament_services.table_token_revoke(
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


@organiser_required
@require_POST
def round_close(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Close a round once every table is confirmed: its results are final."""
    round_ = get_object_or_404(Round, tournament__slug=slug, number=number)
    try:
        services.round_close(
            round_=round_, writer=Writer(user=request.user, ip_address=client_ip(request))
        )
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Round %(number)d closed.") % {"number": number})
    return redirect("organise:round", slug=slug, number=number)
