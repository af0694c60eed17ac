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
- Why a page has one address: a page is stored under the values it reads (`params`, the last
  of repeated values, as Django's QueryDict.get reads them), never the raw query string, so a
  made-up parameter or another order of the same parameters finds the stored page. A query
  string with a parameter the page does not read, or with one it reads given twice, is sent to
  that address (302) before anything is read or rendered: what the page is rendered from (its
  links, django-tables2's sort and page links, which copy the query string) is then exactly
  what its key says.
- Why renders are counted per address: a new value of a parameter the page reads (a search, a
  sort) is a new page, rendered. An anonymous client whose renders here pass
  settings.RATE_LIMITS["render"] gets 429 (core.ratelimit.RENDERS), or the page as it stood one
  write before when the cache still holds it: a venue's spectators may share one address, and
  a page the last write invalidated is rendered for them by whoever asks first. What the cache
  holds is served to everyone, limited or not. Signed-in users are never limited: they are few
  and must not be locked out by the crowd on their address.
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
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils import translation
from django.utils.encoding import escape_uri_path
from django.utils.http import urlencode

from core.ratelimit import RENDERS

logger = logging.getLogger(__name__)

# A page's stored form: status, body, headers.
StoredPage = tuple[int, bytes, list[tuple[str, str]]]


# The stampede guard: how long a render may hold its page's lock (longer than any render),
# and how long another request for the page waits for it, polling the cache every PAGE_POLL.
PAGE_LOCK_SECONDS = 30
PAGE_WAIT_SECONDS = 5.0
PAGE_POLL_SECONDS = 0.05

# The pages read from every tournament at once (the calendar feed) are stored under this
# generation: no tournament has the primary key -2 (the ranking's pages have 0 and -1), and
# every tournament's write replaces it with the tournament's own.
EVERY_TOURNAMENT = -2


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
    before the commit would otherwise be stored under the new generation with the old data.
    A tournament's write (a primary key, not the ranking's pages) renews EVERY_TOURNAMENT's."""
    transaction.on_commit(partial(_replace_generation, tournament_id))
    if tournament_id > 0:
        transaction.on_commit(partial(_replace_generation, EVERY_TOURNAMENT))


def read_values(request: HttpRequest, params: frozenset[str]) -> list[tuple[str, str]]:
    """The query parameters the page reads, as it reads them (the last of repeated values:
    QueryDict.get), by name."""
    return sorted((name, request.GET[name]) for name in params if name in request.GET)


def canonical_redirect(request: HttpRequest, params: frozenset[str]) -> HttpResponse | None:
    """A redirect to the page's own address when the query string holds a parameter the page
    does not read or one it reads given more than once; else None."""
    if all(name in params and len(request.GET.getlist(name)) == 1 for name in request.GET):
        return None
    query = urlencode(read_values(request, params))
    return HttpResponseRedirect(escape_uri_path(request.path) + (f"?{query}" if query else ""))


def _anonymous(request: HttpRequest) -> bool:
    user = getattr(request, "user", None)
    return user is None or not user.is_authenticated


def _cacheable_request(request: HttpRequest) -> bool:
    if request.method not in ("GET", "HEAD") or not _anonymous(request):
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


def page_key(
    request: HttpRequest, *, tournament_id: int, generation: str, params: frozenset[str]
) -> str:
    """The page's key: its path and the values it reads (`read_values`), never the raw query
    string. JSON of the decoded pairs: a name or value holding "&" or "=" (sent escaped) can
    never spell the key of other parameters, as joining them unescaped would let it."""
    query = json.dumps([request.path, read_values(request, params)])
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


def _previous_page(
    request: HttpRequest, *, tournament_id: int, generation: str, params: frozenset[str]
) -> StoredPage | None:
    """The page as it stood one write before, if the cache holds it."""
    previous = cache.get(_previous_key(tournament_id, generation))
    if previous is None:
        return None
    return cache.get(
        page_key(request, tournament_id=tournament_id, generation=previous, params=params)
    )


def _while_another_renders(
    request: HttpRequest, *, tournament_id: int, generation: str, key: str, params: frozenset[str]
) -> StoredPage | None:
    """What a request gets while another renders its page: the page of the previous generation,
    else the new page once stored (None if it is not within PAGE_WAIT_SECONDS)."""
    stored = _previous_page(
        request, tournament_id=tournament_id, generation=generation, params=params
    )
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

    `params`: the query parameters the page reads: the page is stored under their values, and
    a query string with any other parameter, or with one of them repeated, is sent to the
    page's own address (`canonical_redirect`). A render for an anonymous client counts against
    its address's limit (RENDERS)."""
    redirect = canonical_redirect(request, params)
    if redirect is not None:
        return redirect
    if not _cacheable_request(request):
        return render()
    locked = False
    try:
        generation = tournament_generation(tournament_id)
        key = page_key(request, tournament_id=tournament_id, generation=generation, params=params)
        stored = cache.get(key)
        if stored is None:
            locked = cache.add(_lock_key(key), 1, timeout=PAGE_LOCK_SECONDS)
            if not locked:
                stored = _while_another_renders(
                    request,
                    tournament_id=tournament_id,
                    generation=generation,
                    key=key,
                    params=params,
                )
    except Exception:  # an unreachable cache: serve from the database
        logger.warning("cache unavailable: page rendered uncached", exc_info=True)
        return render()
    if stored is not None:
        return _response(stored)
    try:
        refusal = RENDERS.begin(request)
        if refusal is not None:
            try:
                stored = _previous_page(
                    request, tournament_id=tournament_id, generation=generation, params=params
                )
            except Exception:
                logger.warning("cache unavailable: no previous page", exc_info=True)
            return refusal if stored is None else _response(stored)
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
