"""Public pages served from Django's cache, invalidated per tournament.

Each tournament has a *generation* in the cache: an opaque random value that every write
changing what the public sees replaces (`tournament_changed`, called by the services once the
write commits). A cached page is stored under the generation it was rendered with, so one
write makes every page of the tournament unreachable at once (every page number, sort order,
round filter, export format and search) without knowing their keys; the orphans age out.

- Why a random value and not a counter: a generation lost from the cache (evicted, a Redis
  restart) is replaced by a new one that no old page was stored under, so a lost generation can
  never bring back a stale page; and two concurrent writes need no atomic increment.
- Why the generation is read before the page is built: a write that commits while the page is
  rendered replaces the generation, so what was rendered from the older data is stored under
  the older generation, where nobody looks again.
- Why whole responses: rendering the standings table is most of the page's cost, and the same
  few pages are what a thousand spectators poll.
- Why anonymous requests only: a signed-in page carries the user's name, sign-out form and
  CSRF token; organisers are few and always see the database.
- Why one render per page after a write (the stampede guard): a confirmation invalidates every
  page at once, and the next poll of every viewer would miss together, each rendering the same
  standings. The first request to miss a page takes a short lock (`cache.add`, atomic in local
  memory and in Redis) and renders it; a request for the same page meanwhile gets that page as
  it stood one write before (the previous generation, remembered under the new one, so a lost
  generation never leads back to it), or, if there is none, waits for the render to be stored
  (at most PAGE_WAIT_SECONDS, then renders it itself: a crashed render never blocks anyone).
- Every entry also expires after settings.PUBLIC_PAGE_CACHE_SECONDS (the standings' refresh
  period): this bounds what no write here invalidates: another gunicorn worker's local memory
  cache (Redis shares one generation between them all), a player renamed, a deal entered but
  not yet confirmed (the provisional standings).
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
import time
from collections.abc import Callable
from functools import partial

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.utils import translation

logger = logging.getLogger(__name__)

# A page's stored form: status, body, headers.
StoredPage = tuple[int, bytes, list[tuple[str, str]]]


# The stampede guard: how long a render may hold its page's lock (longer than any render),
# and how long another request for the page waits for it, polling the cache every PAGE_POLL.
PAGE_LOCK_SECONDS = 30
PAGE_WAIT_SECONDS = 5.0
PAGE_POLL_SECONDS = 0.05


def _generation_key(tournament_id: int) -> str:
    return f"zole:tournament:{tournament_id}:generation"


def _previous_key(tournament_id: int, generation: str) -> str:
    """Where the generation that `generation` replaced is remembered."""
    return f"zole:tournament:{tournament_id}:before:{generation}"


def _new_generation() -> str:
    return secrets.token_hex(8)


def tournament_generation(tournament_id: int) -> str:
    """The tournament's current generation, created if the cache has none."""
    key = _generation_key(tournament_id)
    generation = cache.get(key)
    if generation is None:
        fresh = _new_generation()
        cache.add(key, fresh, timeout=None)  # add(): concurrent readers agree on one
        generation = cache.get(key, fresh)
    return generation


def _replace_generation(tournament_id: int) -> None:
    try:
        key = _generation_key(tournament_id)
        previous = cache.get(key)
        generation = _new_generation()
        if previous is not None:
            # The pages of the previous generation are what a request is served while another
            # renders the new one; they expire on their own, so does this.
            cache.set(
                _previous_key(tournament_id, generation),
                previous,
                timeout=settings.PUBLIC_PAGE_CACHE_SECONDS,
            )
        cache.set(key, generation, timeout=None)
    except Exception:  # the write is committed already: never fail it for the cache
        logger.warning(
            "cache unavailable: tournament %s not invalidated", tournament_id, exc_info=True
        )


def tournament_changed(tournament_id: int) -> None:
    """What the public sees of the tournament changed: its cached pages are served no more.

    Takes effect when the current transaction commits (at once outside one): a page rendered
    before the commit would otherwise be stored under the new generation with the old data."""
    transaction.on_commit(partial(_replace_generation, tournament_id))


def _cacheable_request(request: HttpRequest, params: frozenset[str]) -> bool:
    if request.method != "GET" or any(name not in params for name in request.GET):
        return False  # an unknown parameter: served, but never fills the cache
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return False
    # A message waiting to be shown (once) belongs to this visitor alone.
    return len(get_messages(request)) == 0


def _cacheable_response(request: HttpRequest, response: HttpResponse) -> bool:
    return (
        response.status_code == 200
        and not response.streaming
        and not response.cookies
        # The page used a CSRF token: it is this visitor's.
        and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
        and "private" not in response.get("Cache-Control", "")
    )


def page_key(request: HttpRequest, *, tournament_id: int, generation: str) -> str:
    # JSON of the decoded pairs: a name or value holding "&" or "=" (sent escaped) can never
    # spell the key of other parameters, as joining them unescaped would let it.
    pairs = sorted((name, value) for name, values in request.GET.lists() for value in values)
    query = json.dumps([request.path, pairs])
    digest = hashlib.sha256(query.encode()).hexdigest()[:32]
    htmx = "htmx" if getattr(request, "htmx", False) else "page"
    language = translation.get_language() or settings.LANGUAGE_CODE
    return f"zole:page:{tournament_id}:{generation}:{language}:{htmx}:{digest}"


def _stored(response: HttpResponse) -> StoredPage:
    return response.status_code, response.content, list(response.items())


def _response(stored: StoredPage) -> HttpResponse:
    status, content, headers = stored
    response = HttpResponse(content, status=status)
    for name, value in headers:
        response[name] = value
    return response


def _pause(seconds: float) -> None:
    time.sleep(seconds)


def _lock_key(key: str) -> str:
    return f"{key}:rendering"


def _while_another_renders(
    request: HttpRequest, *, tournament_id: int, generation: str, key: str
) -> StoredPage | None:
    """What a request gets while another renders its page: the page of the previous generation,
    else the new page once stored (None if it is not within PAGE_WAIT_SECONDS)."""
    previous = cache.get(_previous_key(tournament_id, generation))
    if previous is not None:
        stored = cache.get(page_key(request, tournament_id=tournament_id, generation=previous))
        if stored is not None:
            return stored
    waited = 0.0
    while waited < PAGE_WAIT_SECONDS:
        _pause(PAGE_POLL_SECONDS)
        waited += PAGE_POLL_SECONDS
        stored = cache.get(key)
        if stored is not None:
            return stored
        if cache.get(_lock_key(key)) is None:
            return None  # the render ended without storing the page: render it here
    return None


def cached_public_page(
    request: HttpRequest,
    *,
    tournament_id: int,
    params: frozenset[str],
    render: Callable[[], HttpResponse],
) -> HttpResponse:
    """The page from the cache, or `render()` stored there for the next visitor; one render at a
    time per page (see the module's docstring: the stampede guard).

    `params`: the query parameters the page reads. A request with any other parameter is
    rendered but not stored, so made-up query strings cannot flood the cache."""
    if not _cacheable_request(request, params):
        return render()
    try:
        generation = tournament_generation(tournament_id)
        key = page_key(request, tournament_id=tournament_id, generation=generation)
        stored = cache.get(key)
        if stored is None:
            locked = cache.add(_lock_key(key), 1, timeout=PAGE_LOCK_SECONDS)
            if not locked:
                stored = _while_another_renders(
                    request, tournament_id=tournament_id, generation=generation, key=key
                )
    except Exception:  # an unreachable cache: serve from the database
        logger.warning("cache unavailable: page rendered uncached", exc_info=True)
        return render()
    if stored is not None:
        return _response(stored)
    try:
        response = render()
        if _cacheable_response(request, response):
            try:
                cache.set(key, _stored(response), timeout=settings.PUBLIC_PAGE_CACHE_SECONDS)
            except Exception:
                logger.warning("cache unavailable: page not stored", exc_info=True)
    finally:
        if locked:
            try:
                cache.delete(_lock_key(key))
            except Exception:
                logger.warning("cache unavailable: page lock left to expire", exc_info=True)
    return response
