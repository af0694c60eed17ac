"""The request a page or endpoint gets once an account is known, for annotations."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest


class AuthenticatedHttpRequest(HttpRequest):
    """A request behind login_required, or behind the API's token (whose owner it makes the
    request's user): its user is an account, never the anonymous visitor. Django builds the
    request; this class only tells the type checker what the decorators already ensure."""

    user: User
