"""The organisers' pages of the ranking: the qualification list of a final with its
invitations (its organisers), the seasons' rules (federation staff). Views stay thin: forms check
input, selectors read, services write."""

from __future__ import annotations

import datetime
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.access import organiser_required
from core.http import AuthenticatedHttpRequest
from core.query import id_param
from core.security import client_ip
from organise.forms.seasons import InvitationForm, SeasonForm
from ranking import selectors, services
from ranking.models import Invitation, Season
from tournaments import permissions
from tournaments.models import Player, Tournament
from tournaments.services import ServiceError


def _qualification_season(
    request: AuthenticatedHttpRequest, tournament: Tournament
) -> Season | None:
    seasons = selectors.season_list()
    season_id = id_param(request, "season")
    if season_id is None:
        return selectors.default_season(seasons, tournament.starts_on)
    season = selectors.season_by_id(seasons, season_id)
    if season is None:
        raise Http404(_("No such season."))
    return season


def _qualification_url(tournament: Tournament, season: Season | None) -> str:
    url = reverse("organise:qualification", args=[tournament.slug])
    return f"{url}?{urlencode({'season': season.pk})}" if season is not None else url


def _search_query(request: AuthenticatedHttpRequest) -> str:
    """The player search of the invitation form (?q=, or the POSTed q it was made from)."""
    text = request.POST.get("q") if request.method == "POST" else request.GET.get("q")
    return (text or "").strip()[:80]


def _invitation_form(
    request: AuthenticatedHttpRequest, season: Season, *, query: str
) -> InvitationForm:
    players = selectors.invitable_players(query=query)
    if request.method == "POST":
        # The chosen player stays in the list when the form comes back with an error.
        chosen = request.POST.get("player", "")
        if chosen.isascii() and chosen.isdigit() and len(chosen) <= 18:
            known = {player.pk for player in players}
            extra = Player.objects.select_related("club").filter(pk=int(chosen)).first()
            if extra is not None and extra.pk not in known:
                players = [extra, *players]
    return InvitationForm(
        request.POST if request.method == "POST" else None,
        players=players,
        season=season,
        whole_season=permissions.is_federation_staff(request.user),
    )


def _qualification_page(
    request: AuthenticatedHttpRequest,
    tournament: Tournament,
    season: Season | None,
    *,
    form: InvitationForm | None = None,
) -> HttpResponse:
    query = _search_query(request)
    result = None
    invitations: list[Invitation] = []
    if season is not None:
        result = selectors.qualification(tournament=tournament, season=season)
        invitations = selectors.final_invitations(season=season, final=tournament)
        if form is None:
            form = _invitation_form(request, season, query=query)
    return render(
        request,
        "organise/qualification.html",
        {
            "tournament": tournament,
            "season": season,
            "seasons": selectors.season_list(),
            "qualification": result,
            "invitations": invitations,
            "form": form,
            "query": query,
            "found": form.found if form is not None else 0,
        },
    )


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def qualification(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The final's qualifiers by the season's rules and its invitations; a POST registers the
    qualifiers not registered yet (the invited players too)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    season = _qualification_season(request, tournament)
    if request.method != "POST":
        return _qualification_page(request, tournament, season)
    if season is None:
        messages.error(request, _("There is no season to qualify from."))
        return redirect("organise:qualification", slug=tournament.slug)
    result = selectors.qualification(tournament=tournament, season=season)
    try:
        count = services.qualifiers_register(
            tournament=tournament,
            season=season,
            players=result.to_register,
            by=request.user,
            ip_address=client_ip(request),
        )
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            ngettext("%(count)s qualifier registered.", "%(count)s qualifiers registered.", count)
            % {"count": count},
        )
    return redirect(_qualification_url(tournament, season))


@organiser_required
@require_POST
def invitation_add(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Invite a player to the final (?season= the page's season): back to the page, or the page
    again with the form's error."""
    tournament = get_object_or_404(Tournament, slug=slug)
    season = _qualification_season(request, tournament)
    if season is None:
        messages.error(request, _("There is no season to invite to."))
        return redirect("organise:qualification", slug=tournament.slug)
    form = _invitation_form(request, season, query=_search_query(request))
    if form.is_valid():
        player = form.cleaned_data["player"]
        try:
            services.invitation_create(
                season=season,
                final=tournament,
                player=player,
                whole_season=form.whole_season,
                reason=form.cleaned_data["reason"],
                by=request.user,
                ip_address=client_ip(request),
            )
        except ServiceError as error:
            form.add_error("player", str(error))
        else:
            messages.success(request, _("%(name)s is invited.") % {"name": player.full_name})
            return redirect(_qualification_url(tournament, season))
    return _qualification_page(request, tournament, season, form=form)


@organiser_required
@require_POST
def invitation_withdraw(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Take back an invitation to this final (one to every final of the season: federation
    staff only)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    season = _qualification_season(request, tournament)
    text = request.POST.get("invitation", "")
    invitation = None
    if season is not None and text.isascii() and text.isdigit() and len(text) <= 18:
        invitation = (
            services.invitations_covering(season=season, final=tournament)
            .select_related("player", "season")
            .filter(pk=int(text))
            .first()
        )
    if invitation is None:
        messages.error(request, _("No such invitation to this final: it may be withdrawn already."))
        return redirect(_qualification_url(tournament, season))
    if invitation.tournament_id is None and not permissions.is_federation_staff(request.user):
        raise PermissionDenied(
            _("Only federation staff withdraw an invitation to every final of the season.")
        )
    name = invitation.player.full_name
    try:
        registered = services.invitation_withdraw(
            invitation=invitation, final=tournament, by=request.user, ip_address=client_ip(request)
        )
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("The invitation of %(name)s is withdrawn.") % {"name": name})
        if registered:
            messages.warning(
                request,
                _(
                    "%(name)s stays registered for the final: withdraw the registration on the "
                    "registrations page if he should not play."
                )
                % {"name": name},
            )
    return redirect(_qualification_url(tournament, season))


# -- Seasons (federation staff) -------------------------------------------------------------------
# `organiser_required` on a page of no tournament lets federation staff only.


@organiser_required
@require_safe
def season_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    return render(request, "organise/season_list.html", {"seasons": selectors.season_list()})


def _new_season_initial(seasons: list[Season]) -> dict[str, object]:
    """A new season: the year after the latest one (this year if there is none)."""
    year = max((season.ends_on.year + 1 for season in seasons), default=timezone.localdate().year)
    return {
        "name": str(year),
        "starts_on": datetime.date(year, 1, 1),
        "ends_on": datetime.date(year, 12, 31),
    }


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def season_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = SeasonForm(
        request.POST if request.method == "POST" else None,
        initial=_new_season_initial(selectors.season_list()),
    )
    if request.method == "POST" and form.is_valid():
        try:
            season = services.season_create(
                **form.season_values(), by=request.user, ip_address=client_ip(request)
            )
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Season %(name)s created.") % {"name": season.name})
            return redirect("organise:seasons")
    return render(request, "organise/season_form.html", {"form": form, "season": None})


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def season_edit(request: AuthenticatedHttpRequest, season_id: int) -> HttpResponse:
    season = get_object_or_404(Season, pk=season_id)
    # The form works on a copy: the season itself changes only through the service.
    form = SeasonForm(
        request.POST if request.method == "POST" else None,
        instance=Season.objects.get(pk=season.pk),
    )
    if request.method == "POST" and form.is_valid():
        try:
            changed = services.season_update(
                season=season,
                **form.season_values(),
                by=request.user,
                ip_address=client_ip(request),
            )
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            if changed:
                messages.success(request, _("Season %(name)s saved.") % {"name": season.name})
            else:
                messages.info(request, _("Nothing changed."))
            return redirect("organise:seasons")
    return render(request, "organise/season_form.html", {"form": form, "season": season})
