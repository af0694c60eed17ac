"""Site-wide views: the health check, the language switcher, the documentation pages and the
server error page. The home page is the public tournament list (public.views). Views stay
thin; reads go to selectors."""

import sys

from django.conf import settings
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from core.dropped_connections import (
    CONNECTION_ERRORS,
    connection_dropped,
    database_unavailable,
)
from zole_site.documentation import doc_page

LANGUAGE_CODES = frozenset(code for code, _name in settings.LANGUAGES)


@never_cache
@require_safe
def language_switch(request: HttpRequest, language: str) -> HttpResponseRedirect:
    """Show the site in `language` from now on, on this device (a cookie), and go back to the
    page the visitor was on (`?next=`, a path of this site only).

    A plain link rather than Django's POST `set_language`: the public pages are served from a
    shared cache, so they carry no CSRF token a form could use; choosing a language changes
    nothing but how this visitor's own pages read."""
    if language not in LANGUAGE_CODES:
        raise Http404("no such language")
    next_url = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = reverse("home")
    response = HttpResponseRedirect(next_url)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        # One of set_cookie's values; the setting is typed as any str.
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,  # type: ignore[arg-type]
    )
    return response


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    # A real round trip, so a monitor learns the database is reachable, not only the process.
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return JsonResponse({"status": "ok", "database": connection.vendor})


@require_safe
def documentation(request: HttpRequest, page: str) -> HttpResponse:
    """A page of docs/ (the rules, running a tournament), rendered from its Markdown file."""
    return render(request, "public/doc_page.html", {"doc": doc_page(page), "page": page})


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500. A dropped database connection met outside a view (in a middleware, or in the
    view's own retry) means the database is away for a moment: 503, try again. Anything else is
    Django's plain 500."""
    error = sys.exc_info()[1]
    if isinstance(error, CONNECTION_ERRORS) and connection_dropped():
        return database_unavailable()
    return defaults.server_error(request)
