"""The ranking pages' cache: the scheme of core/cache.py, with one generation for all of them.

The season ranking and the rating list change when any table is confirmed or unlocked, a round
is closed, everything is recomputed or a season is created or edited (its pages or the admin):
each of these replaces the one generation (after the commit). What none of them invalidates (a
player renamed) shows after settings.PUBLIC_PAGE_CACHE_SECONDS at most.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from core.cache import cached_public_page, tournament_changed

# No tournament has the primary key 0: the ranking pages' generation lives under it.
RANKING_PAGES = 0


def ranking_changed() -> None:
    """What the ranking pages show changed: served no more from the cache once this commits."""
    tournament_changed(RANKING_PAGES)


def cached_ranking_page(
    request: HttpRequest, *, params: frozenset[str], render: Callable[[], HttpResponse]
) -> HttpResponse:
    return cached_public_page(request, tournament_id=RANKING_PAGES, params=params, render=render)
