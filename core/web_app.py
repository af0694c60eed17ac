"""A private link as an app on a phone's home screen: its web app manifest, which opens that
link and stays within it (a table's entry link, a player's own page)."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.templatetags.static import static


def app_manifest(request: HttpRequest, *, name: str, short_name: str, page: str) -> JsonResponse:
    """The manifest of the app that is the page at `page`: it starts there and its scope is
    that page alone."""
    manifest = {
        "name": name,
        "short_name": short_name,
        "lang": request.LANGUAGE_CODE,
        "start_url": page,
        "scope": page,
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#1f5130",
        "icons": [
            {
                "src": static("img/table-icon.svg"),
                "sizes": "any",
                "type": "image/svg+xml",
                "purpose": "any",
            }
        ],
    }
    return JsonResponse(manifest, content_type="application/manifest+json")
