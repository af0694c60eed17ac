"""A small failure counter: after too many failed attempts from one client address (bad
passwords, unknown table links), the page answers 429 for a while.

Only failures count, so a venue of referees behind one address is never slowed by its own
good requests. The count must be one for every gunicorn worker and server, or each would allow
the limit on its own: it lives in the database (`FailureCount`, one row per scope and address,
incremented in place), or in the cache when that cache is shared (Redis: settings.REDIS_URL,
settings.RATE_LIMIT_STORE)."""

from __future__ import annotations

import contextlib
import datetime
import ipaddress
import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from core.models import FailureCount
from core.security import client_ip, refused

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
    # Where the count lives: a name of STORES, or settings.RATE_LIMIT_STORE when None.
    store: str | None = None

    @property
    def failures(self) -> int:
        return settings.RATE_LIMITS[self.scope]["failures"]

    @property
    def seconds(self) -> int:
        return settings.RATE_LIMITS[self.scope]["seconds"]

    def refusal(self, request: HttpRequest) -> HttpResponse | None:
        """A 429 page when the address has used up its failures, else None."""
        try:
            count = _store(self).count(self, client_address(request))
        except Exception:  # an unreachable store must not lock everyone out
            logger.warning("rate limit %s: count unavailable", self.scope, exc_info=True)
            return None
        return self._refused(request) if count >= self.failures else None

    def begin(self, request: HttpRequest, key: str | None = None) -> HttpResponse | None:
        """Take one of the tries of `key` (the request's address unless given: a table, a
        round) before the attempt is checked, or a 429 page (and no try taken) once they are
        used up. Counted first, in one atomic step, so that parallel requests each take their
        own try: checking the count and recording the failure after the (slow) password check
        let every request in flight pass. The try stays a failure unless `succeeded` gives it
        back."""
        if self.spend(client_address(request) if key is None else key):
            return None
        return self._refused(request)

    def succeeded(self, request: HttpRequest, key: str | None = None) -> None:
        """The attempt `begin` counted was good: it gives its try back."""
        self._give_back(client_address(request) if key is None else key)

    def _give_back(self, address: str) -> None:
        try:
            _store(self).remove_failure(self, address)
        except Exception:
            logger.warning("rate limit %s: count unavailable", self.scope, exc_info=True)

    def _refused(self, request: HttpRequest) -> HttpResponse:
        minutes = -(-self.seconds // 60)
        response = refused(
            request,
            status=429,
            title=str(self.refusal_title),
            message=self.refusal_message % {"minutes": minutes},
        )
        response["Retry-After"] = str(self.seconds)
        return response

    def spend(self, key: str) -> bool:
        """Count one try under `key` (an address, or an API token's key); False, and that one
        not counted (a refused attempt is not a try: the count stays at the limit), once the
        limit is used up."""
        try:
            count = _store(self).add_failure(self, key)
        except Exception:  # an unreachable store must not lock everyone out
            logger.warning("rate limit %s: count unavailable", self.scope, exc_info=True)
            return True
        if count <= self.failures:
            return True
        self._give_back(key)
        return False

    def record_failure(self, request: HttpRequest) -> None:
        try:
            _store(self).add_failure(self, client_address(request))
        except Exception:
            logger.warning("rate limit %s: count unavailable", self.scope, exc_info=True)


class CacheStore:
    """The count in Django's cache: shared by every process only when the cache is (Redis)."""

    @staticmethod
    def _key(limit: FailureLimit, address: str) -> str:
        return f"ratelimit:{limit.scope}:{address}"

    def count(self, limit: FailureLimit, address: str) -> int:
        return cache.get(self._key(limit, address), 0)

    def add_failure(self, limit: FailureLimit, address: str) -> int:
        """Count one more failure; the count with it."""
        key = self._key(limit, address)
        # The window starts at the first failure: add() sets the expiry, incr() keeps it.
        cache.add(key, 0, timeout=limit.seconds)
        try:
            return cache.incr(key)
        except ValueError:  # expired between the two calls
            cache.set(key, 1, timeout=limit.seconds)
            return 1

    def remove_failure(self, limit: FailureLimit, address: str) -> None:
        with contextlib.suppress(ValueError):  # the window ended: nothing to give back
            cache.decr(self._key(limit, address))


class DatabaseStore:
    """The count in the database, one row per scope and address: every worker and server
    reads the same one. A failure is one UPDATE ... SET count = count + 1, atomic whatever
    runs beside it; the first failure of a window deletes the windows that have ended."""

    def count(self, limit: FailureLimit, address: str) -> int:
        counts = FailureCount.objects.filter(
            scope=limit.scope, address=address, expires_at__gt=timezone.now()
        ).values_list("count", flat=True)
        return next(iter(counts), 0)

    def add_failure(self, limit: FailureLimit, address: str) -> int:
        """Count one more failure; the count with it (read under the row lock the UPDATE
        holds until the end of its transaction, so no other worker's failure is in it)."""
        now = timezone.now()
        window = FailureCount.objects.filter(scope=limit.scope, address=address)
        # Savepoints: a failed statement leaves a caller's transaction usable (PostgreSQL).
        with transaction.atomic():
            if window.filter(expires_at__gt=now).update(count=F("count") + 1):
                return window.values_list("count", flat=True).get()
            FailureCount.objects.filter(expires_at__lte=now).delete()  # this address's too
        try:
            with transaction.atomic():
                FailureCount.objects.create(
                    scope=limit.scope,
                    address=address,
                    count=1,
                    expires_at=now + datetime.timedelta(seconds=limit.seconds),
                )
                return 1
        except IntegrityError:  # another worker started the window meanwhile
            with transaction.atomic():
                window.update(count=F("count") + 1)
                return window.values_list("count", flat=True).get()

    def remove_failure(self, limit: FailureLimit, address: str) -> None:
        FailureCount.objects.filter(
            scope=limit.scope, address=address, expires_at__gt=timezone.now(), count__gt=0
        ).update(count=F("count") - 1)


STORES: dict[str, CacheStore | DatabaseStore] = {
    "cache": CacheStore(),
    "database": DatabaseStore(),
}


def _store(limit: FailureLimit) -> CacheStore | DatabaseStore:
    return STORES[limit.store or settings.RATE_LIMIT_STORE]


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

# Self check-in: wrong round codes and unknown check-in links typed from one address. A code
# has about ten million values: this many tries in the window never find one.
CHECK_IN_FAILURES = FailureLimit(
    scope="check-in",
    refusal_title=_("Too many attempts"),
    refusal_message=ngettext_lazy(
        "Too many wrong check-in codes or links were sent from your address. Try again in "
        "%(minutes)d minute, or ask the organiser to check you in.",
        "Too many wrong check-in codes or links were sent from your address. Try again in "
        "%(minutes)d minutes, or ask the organiser to check you in.",
        "minutes",
    ),
)

# Wrong self check-in codes typed for one round, from whatever address: a guesser spread over
# many addresses gets no more tries than this in the window. Then the round takes no code for
# a while (the players' own links and the organiser's ticks still work).
CHECK_IN_ROUND_FAILURES = FailureLimit(
    scope="check-in-round",
    refusal_title=_("Too many attempts"),
    refusal_message=ngettext_lazy(
        "Too many wrong check-in codes were typed for this round. Check in with your own link, "
        "ask the organiser to check you in, or try the code again in %(minutes)d minute.",
        "Too many wrong check-in codes were typed for this round. Check in with your own link, "
        "ask the organiser to check you in, or try the code again in %(minutes)d minutes.",
        "minutes",
    ),
)

# Calls to the chief referee made by one table (its link or its signed-in door), counted per
# table, not per address: a venue's phones share one. A press refused as too soon (the table's
# call is a minute old at most) gives its try back.
REFEREE_CALLS = FailureLimit(
    scope="referee-call",
    refusal_title=_("Too many calls"),
    refusal_message=ngettext_lazy(
        "This table has called the chief referee too many times. Try again in %(minutes)d "
        "minute, or go to him.",
        "This table has called the chief referee too many times. Try again in %(minutes)d "
        "minutes, or go to him.",
        "minutes",
    ),
)

# Not failures: renders of public pages the cache did not hold (core.page_cache), each one counted.
# In the cache whatever RATE_LIMIT_STORE says: a write to the database for every render would
# compete with the referees' deals (SQLite has one writer); with local memory each gunicorn
# worker counts on its own, so an address gets the limit once per worker.
RENDERS = FailureLimit(
    scope="render",
    refusal_title=_("Too many pages asked for"),
    refusal_message=ngettext_lazy(
        "Too many pages, exports or documents that had to be prepared anew were asked for from "
        "your address. Try again in %(minutes)d minute; pages already prepared still open.",
        "Too many pages, exports or documents that had to be prepared anew were asked for from "
        "your address. Try again in %(minutes)d minutes; pages already prepared still open.",
        "minutes",
    ),
    store="cache",
)

# Not failures: every request an API token makes (api.token_auth), counted per token whatever
# address it comes from. In the cache, as RENDERS: a row written per request would compete with
# the referees' deals.
API_TOKEN_REQUESTS = FailureLimit(
    scope="api-token",
    refusal_title=_("Too many requests"),
    refusal_message=ngettext_lazy(
        "Too many requests were made with this API token. Try again in %(minutes)d minute.",
        "Too many requests were made with this API token. Try again in %(minutes)d minutes.",
        "minutes",
    ),
    store="cache",
)

# Unknown or revoked API tokens sent from one address (api.token_auth): a program left with a
# revoked token, or someone guessing, is refused for a while, every token with it.
API_TOKEN_FAILURES = FailureLimit(
    scope="api-token-failures",
    refusal_title=_("Too many attempts"),
    refusal_message=ngettext_lazy(
        "Too many unknown or revoked API tokens were sent from your address. Try again in "
        "%(minutes)d minute.",
        "Too many unknown or revoked API tokens were sent from your address. Try again in "
        "%(minutes)d minutes.",
        "minutes",
    ),
)

# Not failures: every registration sent from one address on a tournament's public registration
# page, accepted or not: a club's secretary registers his members, a bot floods.
# Push subscriptions given or taken back on one player's page, counted per player, whatever the
# address: a script cannot fill the table or make the server post to many push addresses.
PUSH_CHANGES = FailureLimit(
    scope="push",
    refusal_title=_("Too many attempts"),
    refusal_message=ngettext_lazy(
        "Messages were switched on and off too often on this page. Try again in %(minutes)d "
        "minute.",
        "Messages were switched on and off too often on this page. Try again in %(minutes)d "
        "minutes.",
        "minutes",
    ),
)

SIGNUPS = FailureLimit(
    scope="signup",
    refusal_title=_("Too many sign-ups"),
    refusal_message=ngettext_lazy(
        "Too many sign-ups were sent from your address. Try again in %(minutes)d minute, or "
        "ask the organiser to register you.",
        "Too many sign-ups were sent from your address. Try again in %(minutes)d minutes, or "
        "ask the organiser to register you.",
        "minutes",
    ),
)


class RateLimitedLoginView(LoginView):
    """django.contrib.auth's sign-in page; an address with too many failed attempts gets 429
    instead of another password check (the page itself still opens)."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        refusal = LOGIN_FAILURES.begin(request)  # a failure until the password is right
        if refusal is not None:
            return refusal
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        LOGIN_FAILURES.succeeded(self.request)
        return super().form_valid(form)
