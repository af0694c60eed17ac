"""The site's own system checks (`manage.py check --deploy`)."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.checks import CheckMessage, Tags, Warning, register


@register(Tags.caches, deploy=True)
def shared_cache_check(app_configs: object = None, **kwargs: object) -> list[CheckMessage]:
    """Production keeps the public pages in a cache that every process shares (Redis): a write
    replaces the tournament's generation there, for every server at once. A local memory cache
    is one per gunicorn process, and another process's copy of a page goes stale until it
    expires (core.page_cache)."""
    if settings.DEBUG or not isinstance(caches["default"], LocMemCache):
        return []
    return [
        Warning(
            "No shared cache: each gunicorn process keeps its own, so live pages may lag by up "
            f"to {settings.PUBLIC_PAGE_CACHE_SECONDS} seconds (PUBLIC_PAGE_CACHE_SECONDS) "
            "across processes and servers.",
            hint="Set REDIS_URL so that every process and server shares one cache.",
            id="zole_site.W001",
        )
    ]
