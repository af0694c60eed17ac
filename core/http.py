"""What a page's request carries beyond Django's own, for annotations."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class AuthenticatedHttpRequest(HttpRequest):
    """A request behind login_required, or behind the API's token (whose owner it makes the
    request's user): its user is an account, never the anonymous visitor. Django builds the
    request; this class only tells the type checker what the decorators already ensure."""

    user: User


class HtmxHttpRequest(HttpRequest):
    """A request through django-htmx's middleware (every page's): `htmx` says whether htmx
    sent it, to answer with a page's live part rather than the whole page."""

    htmx: HtmxDetails
