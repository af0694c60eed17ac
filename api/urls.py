"""The JSON API's addresses (zole_site/urls.py includes them at api/v1/), in the namespace
"api" of NinjaAPI's own route names, and its documentation page."""

from __future__ import annotations

from django.urls import URLPattern, path, re_path

from api import docs, table_entries_api
from api.routes import api
from core.dropped_connections import repeatable_posts

app_name = "api"

urlpatterns = [
    # The name ninja's schema reverses for the API's root path.
    path("", docs.api_index, name="api-root"),
    path("docs/", docs.api_docs, name="docs"),
    # Ninja's own root is a 404 when its documentation page is off: ours lists the addresses.
    *(
        pattern
        for pattern in api.urls[0]
        if not (isinstance(pattern, URLPattern) and pattern.name == "api-root")
    ),
    # Any other address under the API: a JSON 404 that says where the addresses are.
    re_path(r"", docs.unknown_address),
]

# A table's entries may run twice after a dropped database connection, as at the phone's own
# address: each entry's client key records it once (core.dropped_connections).
for pattern in urlpatterns:
    if isinstance(pattern, URLPattern) and pattern.name == "table_entries":
        repeatable_posts(when=table_entries_api.is_repeatable)(pattern.callback)
