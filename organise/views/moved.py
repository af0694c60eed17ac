"""Addresses that moved: the registrations were once under `entries/` (the word now means only a
line of a table's sheet). Printed and bookmarked links still arrive there."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.urls import reverse


def moved_to(name: str) -> Callable[..., HttpResponsePermanentRedirect]:
    """A view that sends its address on to the page `name` (with the same path arguments and
    query string). 308, not 301: a page still open from before posts its form on, not lost."""

    def moved(request: HttpRequest, **kwargs: object) -> HttpResponsePermanentRedirect:
        url = reverse(f"organise:{name}", kwargs=kwargs)
        query = request.META.get("QUERY_STRING", "")
        return HttpResponsePermanentRedirect(
            f"{url}?{query}" if query else url, preserve_request=True
        )

    return moved
