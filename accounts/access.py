"""Who reaches a tournament's pages: the decorators the views of every audience wear (the
organiser's pages, the printed documents, the public pages from the cache); the rules themselves
are tournaments.permissions."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import cast

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _

from core.page_cache import cached_public_page, canonical_redirect
from tournaments import permissions
from tournaments.models import Round, Tournament
from tournaments.selectors.rounds import tournament_id_of


def lazy_tournament(slug: str) -> Tournament:
    """The URL's tournament, loaded only if a check needs it (staff pass without a query);
    an unknown address is a 404."""
    # The proxy stands in for the tournament, attribute for attribute; the stubs' proxy type
    # is not generic, so only a cast can say what it stands in for.
    return cast(Tournament, SimpleLazyObject(lambda: get_object_or_404(Tournament, slug=slug)))


def cached_tournament_page(
    request: HttpRequest,
    slug: str,
    *,
    params: frozenset[str],
    render: Callable[[Tournament], HttpResponse],
) -> HttpResponse:
    """A public page of the URL's tournament, from the cache (core.page_cache.cached_public_page),
    or `render(tournament)`; an unknown address is a 404. A query string that is not the
    page's own is redirected before the tournament is read."""
    redirect = canonical_redirect(request, params)
    if redirect is not None:
        return redirect
    tournament_id = tournament_id_of(slug)
    if tournament_id is None:
        raise Http404
    return cached_public_page(
        request,
        tournament_id=tournament_id,
        params=params,
        render=lambda: render(Tournament.objects.get(pk=tournament_id)),
    )


def organiser_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Pages of one tournament (a slug in the URL): federation staff and its organisers. Pages
    of no tournament (the player register, a new tournament): federation staff. Visitors are
    sent to sign in; other accounts get 403. The check runs before the method check, so every
    refusal is the same whatever the request."""

    @login_required
    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        slug = kwargs.get("slug")
        if slug is None:
            allowed = permissions.is_federation_staff(request.user)
        else:
            allowed = permissions.is_organiser(request.user, lazy_tournament(slug))
        if not allowed:
            raise PermissionDenied(_("Only organisers may do this."))
        return view(request, *args, **kwargs)

    return wrapped


def role_manager_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A tournament's people page: whoever gives or takes away one of its roles (federation
    staff, its organisers, its chief referees: tournaments.permissions.manageable_roles)."""

    @login_required
    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not permissions.manageable_roles(request.user, lazy_tournament(kwargs["slug"])):
            raise PermissionDenied(
                _("Only the tournament's organisers and chief referees may do this.")
            )
        return view(request, *args, **kwargs)

    return wrapped


def role_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Any account with a role somewhere (organiser, chief referee, table referee, staff)."""

    @login_required
    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not permissions.has_any_role(request.user):
            raise PermissionDenied(
                _("This account has no role in any tournament yet: ask the organiser.")
            )
        return view(request, *args, **kwargs)

    return wrapped


def round_or_404(slug: str, number: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("tournament"), tournament__slug=slug, number=number
    )
