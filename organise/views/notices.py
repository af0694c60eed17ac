"""Messages to the players: how many receive them on their phones, how the last ones went,
and the organiser's short announcement to all of them ("Lunch: 30 minutes")."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from accounts.access import organiser_required
from core.http import AuthenticatedHttpRequest
from core.security import client_ip
from notices.push import push_configured
from notices.selectors import notice_reach, recent_announcements
from notices.services import announcement_send
from notices.services.records import ANNOUNCEMENT_MAX_LENGTH
from tournaments.models import Tournament
from tournaments.services import ServiceError


class AnnouncementForm(forms.Form):
    text = forms.CharField(
        label=gettext_lazy("Announcement"),
        max_length=ANNOUNCEMENT_MAX_LENGTH,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
        help_text=gettext_lazy(
            "At most 200 characters, sent at once to every player whose phone receives "
            "messages, e.g. “Lunch: 30 minutes”."
        ),
    )


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def notices(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    form = AnnouncementForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                announcement_send(
                    tournament=tournament,
                    text=form.cleaned_data["text"],
                    by=request.user,
                    ip_address=client_ip(request),
                )
            except ServiceError as refusal:
                form.add_error("text", str(refusal))
            else:
                messages.success(request, _("The announcement is on its way to the players."))
                return redirect("organise:notices", slug=slug)
        status = 400
    return render(
        request,
        "organise/notices.html",
        {
            "tournament": tournament,
            "form": form,
            "reach": notice_reach(tournament=tournament),
            "announcements": recent_announcements(tournament=tournament),
            "push_configured": push_configured(),
        },
        status=status,
    )
