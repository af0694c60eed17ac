"""A database blip costs a request a retry, never a 500.

When PostgreSQL restarts (a fraction of a second) or the network drops a connection, the
requests in flight meet a connection that broke, and the ones arriving meanwhile find no server
to connect to. Such a request is run once more, on a new connection: every read, and the writes
a view declares safe to repeat (`repeatable_posts`: the entry page's submissions carry a client
key, so a repeat records nothing twice). Where a request cannot be repeated, or the repeat fails
too, the visitor gets a plain "try again" page: 503 with Retry-After (the entry page's script
then sends the same submission again by itself).

Any other database error (a deadlock, a statement timeout, a missing table) is a fault of the
code, not of the connection, and stays a 500: an error counts as a dropped connection only when
the connection is unusable afterwards."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable

from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError, connections
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.template.response import SimpleTemplateResponse
from django.utils.cache import add_never_cache_headers

logger = logging.getLogger(__name__)

CONNECTION_ERRORS = (OperationalError, InterfaceError)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# A repeat waits this long at most for the database to take a connection again (a restart
# takes a fraction of a second), trying every RECONNECT_PAUSE_SECONDS.
RECONNECT_PATIENCE_SECONDS = 2.0
RECONNECT_PAUSE_SECONDS = 0.1
# When the "try again" page asks the browser (and the entry page's script) to come back.
RETRY_AFTER_SECONDS = 3

PostPredicate = Callable[[HttpRequest], bool]


def repeatable_posts(when: PostPredicate) -> Callable[[Callable], Callable]:
    """Marks a view whose POST requests `when(request)` accepts as safe to run twice: the second
    run records nothing the first one did (an entry's client key). Applied outermost."""

    def mark(view: Callable) -> Callable:
        view.repeatable_post = when  # type: ignore[attr-defined]
        return view

    return mark


def connection_dropped() -> bool:
    """Whether the database error just raised came from a connection that broke or could not be
    made, rather than from the query itself (then the connection is still usable)."""
    for connection in connections.all(initialized_only=True):
        if connection.connection is None or not connection.is_usable():
            return True
    return False


def reconnect() -> None:
    """Let go of every connection and wait, briefly, until the database takes a new one;
    raises the connection error if it does not."""
    for connection in connections.all(initialized_only=True):
        # Closing a broken connection may complain; it is let go of all the same.
        with contextlib.suppress(*CONNECTION_ERRORS):
            connection.close()
    deadline = time.monotonic() + RECONNECT_PATIENCE_SECONDS
    while True:
        try:
            connections[DEFAULT_DB_ALIAS].ensure_connection()
            return
        except CONNECTION_ERRORS:
            if time.monotonic() >= deadline:
                raise
            time.sleep(RECONNECT_PAUSE_SECONDS)


def database_unavailable() -> HttpResponse:
    """The plain "try again" page. It is rendered without the request's context, as the 500
    page is: the header's account links would ask the database that just failed."""
    response = HttpResponse(render_to_string("503.html"), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    add_never_cache_headers(response)
    return response


def may_repeat(request: HttpRequest, view: Callable) -> bool:
    if request.method in SAFE_METHODS:
        return True
    when: PostPredicate | None = getattr(view, "repeatable_post", None)
    return request.method == "POST" and when is not None and when(request)


class DroppedConnectionMiddleware:
    """Runs the view itself (from process_view) so that it can run it once more after a dropped
    connection. It comes last in MIDDLEWARE: every other middleware's process_view (the CSRF
    check) has run by then. The project has no ATOMIC_REQUESTS and no process_exception hooks,
    which a view run from here would skip."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable, args: tuple, kwargs: dict
    ) -> HttpResponse:
        def attempt() -> HttpResponse:
            response = view(request, *args, **kwargs)
            if isinstance(response, SimpleTemplateResponse):
                # A template response reads the database as it renders: within the attempt.
                response.render()
            return response

        try:
            return attempt()
        except CONNECTION_ERRORS as error:
            if not connection_dropped():
                raise  # the query's own fault: a 500, never hidden
            if not may_repeat(request, view):
                logger.warning(
                    "%s %s: the database connection dropped (%s); a write that cannot be "
                    "repeated: answered 503",
                    request.method,
                    request.path,
                    error,
                )
                return database_unavailable()
            logger.warning(
                "%s %s: the database connection dropped (%s); repeated on a new connection",
                request.method,
                request.path,
                error,
            )
        try:
            reconnect()
            return attempt()
        except CONNECTION_ERRORS:
            if not connection_dropped():
                raise
            logger.exception(
                "%s %s: the database is still unreachable: answered 503",
                request.method,
                request.path,
            )
            return database_unavailable()
