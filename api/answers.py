"""How the API answers: JSON bodies with an ETag (304 to If-None-Match), served from the pages'
cache under the same generations as the pages, pages of results with their links, and errors
that name the field.

- Why the ETag is the body's digest: a tournament's generation changes with every write the
  public sees, but not with what no write invalidates (a deal entered but not confirmed in the
  provisional standings, a player renamed): the pages bound those by the cache period, and an
  ETag of the generation alone would answer 304 to them for ever. The digest is computed once
  per render and stored with the answer, so a 304 from the cache costs no render.
- Why the cache of the pages (core.page_cache.cached_public_page): one confirmation invalidates
  the pages and the API's answers of its tournament at once, a thousand polls of the standings
  are one render, and the renders an address may ask for are the pages' (settings.RATE_LIMITS
  ["render"]), so the API opens no second door around that limit.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import urlencode
from ninja import Query
from ninja.responses import NinjaJSONEncoder
from pydantic import BaseModel

from core.page_cache import cached_public_page
from core.ratelimit import RENDERS
from core.security import api_refusal

# The largest id or number a query or path may hold: what a database integer holds.
NUMBER_MAX = 10**18 - 1
PER_PAGE = 100
PER_PAGE_MAX = 500  # the pages' own limit (core.query.MAX_ROWS_PER_PAGE)

# How every list reads which page it shows and how long a page is.
PageNumber = Query(1, ge=1, le=NUMBER_MAX, description="The page of the list, from 1.")
PageSize = Query(PER_PAGE, ge=1, le=PER_PAGE_MAX, description="Items a page.")


class ApiError(Exception):
    """A request the API refuses: its status, what is wrong, and the parameter it is about."""

    def __init__(self, status: int, detail: str, *, field: str | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.field = field


def error_response(status: int, detail: str, *, field: str | None = None) -> JsonResponse:
    return api_refusal(status, detail, field=field)


def _json_response(data: Any) -> HttpResponse:
    if isinstance(data, BaseModel):
        data = data.model_dump(mode="json")
    body = json.dumps(data, cls=NinjaJSONEncoder, ensure_ascii=False, separators=(",", ":"))
    content = body.encode()
    response = HttpResponse(content, content_type="application/json")
    response["ETag"] = f'"{hashlib.sha256(content).hexdigest()[:32]}"'
    return response


def _anonymous(request: HttpRequest) -> bool:
    """Neither signed in nor holding an API token (ninja's `request.auth`): what such a client
    reads may be another's, and is never stored for the public nor served from its cache."""
    if getattr(request, "auth", None) is not None:
        return False
    user = getattr(request, "user", None)
    return user is None or not user.is_authenticated


def answer(
    request: HttpRequest,
    build: Callable[[], Any],
    *,
    cached_under: int | None,
    params: Sequence[str] = (),
) -> HttpResponse:
    """`build()` (JSON data) as the answer, with its ETag, or 304 when the client holds it.

    `cached_under`: the tournament (or the ranking pages' number, ranking.ranking_page_cache)
    whose generation the answer is stored under, for anonymous clients (a signed-in user or a
    token's holder always gets a fresh answer, and is never limited); None: never cached
    (what no write invalidates: the tournament list, players, clubs), each render counted
    against the address's renders. `params`: the query parameters the answer reads; any other,
    or one of them given twice, is sent to the answer's own address first (302), as a page."""
    anonymous = _anonymous(request)
    if cached_under is None or not anonymous:
        if anonymous:
            refused = RENDERS.begin(request)  # JSON under /api/ (core.security.refused)
            if refused is not None:
                return refused
        response = _json_response(build())
    else:
        response = cached_public_page(
            request,
            tournament_id=cached_under,
            params=frozenset(params),
            render=lambda: _json_response(build()),
        )
    if response.status_code != 200:
        return response
    # Every client asks again (no-cache), and the ETag makes that a 304 when nothing changed;
    # what a signed-in user or a token's holder reads stays out of shared caches.
    if anonymous:
        patch_cache_control(response, no_cache=True, public=True)
    else:
        patch_cache_control(response, no_cache=True, private=True)
    # Given a response, Django returns it or a 304 in its place, never None.
    return get_conditional_response(request, etag=response["ETag"], response=response)  # type: ignore[return-value]


@dataclass(frozen=True)
class Page:
    """One page of a list: its items, how many there are in all, and the next and previous
    pages' addresses (None at either end)."""

    count: int
    next: str | None
    previous: str | None
    results: list[Any]

    def as_json(self, item: Callable[[Any], Any]) -> dict[str, Any]:
        return {
            "count": self.count,
            "next": self.next,
            "previous": self.previous,
            "results": [item(each) for each in self.results],
        }


# A query parameter an answer read (None: not given, left out of the links).
QueryValue = str | int | None


def _page_url(request: HttpRequest, values: Mapping[str, QueryValue], page: int) -> str:
    query = {name: value for name, value in values.items() if value is not None}
    if page > 1:
        query["page"] = page
    else:
        query.pop("page", None)
    path = request.build_absolute_uri(request.path)
    return f"{path}?{urlencode(query)}" if query else path


def page_of(
    request: HttpRequest,
    items: Sequence[Any],
    *,
    page: int,
    per_page: int,
    values: Mapping[str, QueryValue] | None = None,
) -> Page:
    """Page `page` of `items`, `per_page` a page; `values`: the other query parameters the
    answer read, kept in the links. A page past the last is refused, naming the last."""
    values = dict(values or {})
    if per_page != PER_PAGE:
        values["per_page"] = per_page
    last = max(1, -(-len(items) // per_page))
    if page > last:
        raise ApiError(404, f"page {page} does not exist: the last page is {last}", field="page")
    start = (page - 1) * per_page
    return Page(
        count=len(items),
        next=_page_url(request, values, page + 1) if page < last else None,
        previous=_page_url(request, values, page - 1) if page > 1 else None,
        results=list(items[start : start + per_page]),
    )
