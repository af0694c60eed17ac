"""A small failure counter in Django's cache: after too many failed attempts from one client
address (bad passwords, unknown table links), the page answers 429 for a while.

Only failures count, so a venue of referees behind one address is never slowed by its own
good requests. The count lives in the cache: per process with the local memory cache (each
gunicorn worker then allows the number on its own), shared by every server with Redis."""

from __future__ import annotations

import ipaddress
import logging
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from zole_site.security import client_ip, refused

logger = logging.getLogger(__name__)


def client_address(request: HttpRequest) -> str:
    """The address failures are counted by: `client_ip`, except that an IPv6 client counts by
    its /64, which one household or phone holds whole."""
    address = client_ip(request)
    if address is None:
        return "unknown"
    parsed = ipaddress.ip_address(address)
    if parsed.version == 6:
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return address


@dataclass(frozen=True)
class FailureLimit:
    """settings.RATE_LIMITS[scope]: so many failures per address, counted from the first one
    for so many seconds."""

    scope: str
    refusal_title: Promise
    refusal_message: Promise  # lazy, singular and plural by %(minutes)d

    @property
    def failures(self) -> int:
        return settings.RATE_LIMITS[self.scope]["failures"]

    @property
    def seconds(self) -> int:
        return settings.RATE_LIMITS[self.scope]["seconds"]

    def _key(self, request: HttpRequest) -> str:
        return f"ratelimit:{self.scope}:{client_address(request)}"

    def refusal(self, request: HttpRequest) -> HttpResponse | None:
        """A 429 page when the address has used up its failures, else None."""
        try:
            count = cache.get(self._key(request), 0)
        except Exception:  # an unreachable cache must not lock everyone out
            logger.warning("rate limit %s: cache unavailable", self.scope, exc_info=True)
            return None
        if count < self.failures:
            return None
        minutes = -(-self.seconds // 60)
        response = refused(
            request,
            status=429,
            title=str(self.refusal_title),
            message=self.refusal_message % {"minutes": minutes},
        )
        response["Retry-After"] = str(self.seconds)
        return response

    def record_failure(self, request: HttpRequest) -> None:
        key = self._key(request)
        try:
            # The window starts at the first failure: add() sets the expiry, incr() keeps it.
            cache.add(key, 0, timeout=self.seconds)
            try:
                cache.incr(key)
            except ValueError:  # expired between the two calls
                cache.set(key, 1, timeout=self.seconds)
        except Exception:
            logger.warning("rate limit %s: cache unavailable", self.scope, exc_info=True)


# Lazy: translated when shown (refusal()), in the language of that request.
LOGIN_FAILURES = FailureLimit(
    scope="login",
    refusal_title=_("Too many attempts"),
    refusal_message=ngettext_lazy(
        "Too many failed sign-in attempts from your address. Try again in %(minutes)d minute.",
        "Too many failed sign-in attempts from your address. Try again in %(minutes)d minutes.",
        "minutes",
    ),
)

TABLE_LINK_FAILURES = FailureLimit(
    scope="table-link",
    refusal_title=_("Too many attempts"),
    refusal_message=ngettext_lazy(
        "Too many unknown or withdrawn table links were opened from your address. Try again "
        "in %(minutes)d minute, or ask the organiser for your table's link or QR code.",
        "Too many unknown or withdrawn table links were opened from your address. Try again "
        "in %(minutes)d minutes, or ask the organiser for your table's link or QR code.",
        "minutes",
    ),
)


class RateLimitedLoginView(LoginView):
    """django.contrib.auth's sign-in page; an address with too many failed attempts gets 429
    instead of another password check (the page itself still opens)."""

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        refusal = LOGIN_FAILURES.refusal(request)
        if refusal is not None:
            return refusal
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        LOGIN_FAILURES.record_failure(self.request)
        return super().form_invalid(form)
