"""The ranking pages' cache: the scheme of core/page_cache.py, with a generation for the season
ranking's pages and one for the rating list's.

The two change at different times. The season ranking counts finished tournaments only: it
changes when a tournament's last round is closed (its placings), everything is recomputed, or
a season is created or edited. The rating list changes with every table confirmed or unlocked
anywhere, and when a re-rating job finishes. So a national final's confirmations, one every
few seconds, replace the rating list's generation and leave the season ranking's pages served
from the cache. Each write replaces its generation after the commit. What none of them
invalidates (a player renamed) shows after settings.PUBLIC_PAGE_CACHE_SECONDS at most.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from core.page_cache import cached_public_page, tournament_changed

# No tournament has the primary key 0 or -1: the ranking pages' generations live under them.
SEASON_PAGES = 0
RATING_PAGES = -1


def season_ranking_changed() -> None:
    """A season's placings or rules changed: its pages are served from the cache no more once
    this commits."""
    tournament_changed(SEASON_PAGES)


def ratings_changed() -> None:
    """Ratings changed (or who has a public page): the rating list is served anew once this
    commits."""
    tournament_changed(RATING_PAGES)


def ranking_changed() -> None:
    """Placings and ratings both changed (a round closed, everything recomputed)."""
    season_ranking_changed()
    ratings_changed()


def cached_ranking_page(
    request: HttpRequest,
    *,
    pages: int,
    params: frozenset[str],
    render: Callable[[], HttpResponse],
) -> HttpResponse:
    """A ranking page from the cache of `pages` (SEASON_PAGES or RATING_PAGES), or `render()`."""
    return cached_public_page(request, tournament_id=pages, params=params, render=render)
