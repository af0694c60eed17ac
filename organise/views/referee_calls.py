"""The chief referee marks a table's call answered (the round page, his dashboard)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.access import lazy_tournament
from core.http import AuthenticatedHttpRequest
from core.security import client_ip
from hall.models import RefereeCall
from hall.services import referee_calls
from tournaments import permissions


def call_answerer_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The tournament's organisers and chief referees (tournaments.permissions.can_run_clock);
    visitors are sent to sign in, other accounts get 403, before the method is looked at."""

    @login_required
    @wraps(view)
    def wrapped(request: AuthenticatedHttpRequest, slug: str, **kwargs: object) -> HttpResponse:
        if not permissions.can_run_clock(request.user, lazy_tournament(slug)):
            raise PermissionDenied(
                _("Only the tournament's organisers and chief referees answer the tables' calls.")
            )
        return view(request, slug, **kwargs)

    return wrapped


@call_answerer_required
@require_POST
def referee_call_answer(request: AuthenticatedHttpRequest, slug: str, call_id: int) -> HttpResponse:
    """Mark the call answered; back to the round page (`back=round`) or the dashboard."""
    call = get_object_or_404(
        RefereeCall.objects.select_related("table__round"),
        pk=call_id,
        table__round__tournament__slug=slug,
    )
    referee_calls.referee_call_answer(call=call, by=request.user, ip_address=client_ip(request))
    messages.success(
        request,
        _("The call of table %(number)d is answered.") % {"number": call.table.number},
    )
    if request.POST.get("back") == "round":
        url = reverse("organise:round", args=[slug, call.table.round.number])
        return redirect(f"{url}#referee-calls")
    return redirect(f"{reverse('organise:dashboard')}#referee-calls")
