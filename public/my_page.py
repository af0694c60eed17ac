"""The player's own page, by his secret link (/t/<slug>/me/<token>/): his table and tablemates
in the round being played, the round clock, his results round by round with his tables'
scores, his place in the standings, check-in with one tap while it is open, his fee and prize.

Never cached by anyone but the phone's own service worker (served from /t/<slug>/me/, so its
scope is the players' pages of that tournament): the page opens with no network from its last
copy, saying so. Unknown links count against the address (core.ratelimit.CHECK_IN_FAILURES)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from core.ratelimit import CHECK_IN_FAILURES
from core.security import CSP_HEADER, client_ip
from core.web_app import app_manifest
from hall.selectors import open_check_in_round, registration_by_check_in_token, round_check_in
from hall.services.check_in import self_check_in
from notices.push import push_configured
from public.player_check_in import player_status
from scoring import selectors
from tournaments import services
from tournaments.models import CheckInMethod, Registration, Round
from tournaments.round_clock import round_clock

# Every static file the page uses: the worker keeps them for the page's offline copy.
MY_PAGE_ASSETS = (
    "css/site.css",
    "js/htmx.min.js",
    "js/round-clock.js",
    "js/my-page.js",
    "js/notices/my-notices.js",
    "js/notices/push-state.js",
    "img/table-icon.svg",
)


def my_page_assets() -> list[str]:
    """The assets' addresses as the page names them (hashed where collected: a deployment with
    a changed file changes the worker, which renews its copies)."""
    return [static(name) for name in MY_PAGE_ASSETS]


def _link_registration(request: HttpRequest, slug: str, token: str) -> Registration | HttpResponse:
    """The link's registration, or the rate limit's 429 for an address that guessed too often;
    an unknown link is a 404, counted against the address."""
    registration = registration_by_check_in_token(slug=slug, token=token)
    if registration is None:
        refusal = CHECK_IN_FAILURES.begin(request)  # only unknown links count
        if refusal is not None:
            return refusal
        raise Http404(_("This check-in link is not known: ask the organiser for yours."))
    return registration


def my_page_context(
    registration: Registration, round_: Round | None, *, error: str = ""
) -> dict[str, Any]:
    """Everything the page shows (one place, for every section the page has)."""
    tournament = registration.tournament
    page = selectors.own_page(registration=registration)
    check_in_now, checked_out = (
        round_check_in(round_=round_, registration=registration)
        if round_ is not None
        else (None, False)
    )
    clock = round_clock(page.current_round) if page.current_round is not None else None
    return {
        "tournament": tournament,
        "registration": registration,
        "page": page,
        "clock": clock if clock is not None and clock.is_timed and clock.round_is_open else None,
        "round": round_,
        "status": player_status(check_in_now, checked_out) if round_ else "",
        "can_check_in": round_ is not None
        and not checked_out
        and (check_in_now is None or check_in_now.method == CheckInMethod.ROUND),
        "saved_at": timezone.now(),
        # The site's Web Push key, for the page's "receive messages" button (none: no button).
        "push_key": settings.VAPID_PUBLIC_KEY if push_configured() else "",
        "error": error,
    }


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def my_check_in(request: HttpRequest, slug: str, player_token: str) -> HttpResponse:
    """The player's own page; a POST checks him in for the open round with one tap."""
    registration = _link_registration(request, slug, player_token)
    if isinstance(registration, HttpResponse):
        return registration
    if request.GET:  # the link is the player's: no other address of it is kept or shared
        return redirect(request.path)
    round_ = open_check_in_round(registration.tournament)
    error = ""
    status = 200
    if request.method == "POST":
        try:
            checked_in = self_check_in(
                registration=registration,
                method=CheckInMethod.LINK,
                ip_address=client_ip(request),
            )
        except services.ServiceError as refused:
            error, status = str(refused), 409
        else:
            messages.success(
                request,
                _("You are checked in for round %(number)d. Thank you!")
                % {"number": checked_in.round.number},
            )
            return redirect(request.path)
    response = render(
        request,
        "public/my_page.html",
        my_page_context(registration, round_, error=error),
        status=status,
    )
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@require_http_methods(["GET", "HEAD"])
def my_page_worker(request: HttpRequest, slug: str) -> HttpResponse:
    """The players' pages' service worker: served from /t/<slug>/me/, its scope is the own
    pages of this tournament's players, and nothing else of the site."""
    assets_json = json.dumps(my_page_assets())
    script = render_to_string(
        "public/my-page-worker.js",
        {
            "assets_json": mark_safe(assets_json),  # JSON of our own static paths
            "version": hashlib.sha256(assets_json.encode()).hexdigest()[:12],
        },
    )
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    # The browser compares the worker with the server's on each visit: never an old copy.
    response["Cache-Control"] = "no-cache"
    # A worker's own policy is its script's header: the same strict policy as the pages.
    if settings.CONTENT_SECURITY_POLICY:
        response[CSP_HEADER] = settings.CONTENT_SECURITY_POLICY
    return response


@never_cache
@require_http_methods(["GET", "HEAD"])
def my_page_manifest(request: HttpRequest, slug: str, player_token: str) -> HttpResponse:
    """The player's page as an app on his phone's home screen: it opens his page."""
    registration = _link_registration(request, slug, player_token)
    if isinstance(registration, HttpResponse):
        return registration
    name = f"{registration.player.full_name} · {registration.tournament.name}"
    page = reverse("public:my_check_in", args=[slug, player_token])
    return app_manifest(request, name=name, short_name=registration.tournament.name, page=page)
