"""The JSON API's addresses (zole_site/urls.py includes them at api/v1/), in the namespace
"api" of NinjaAPI's own route names."""

from __future__ import annotations

from api.routes import api

app_name = "api"

urlpatterns = [*api.urls[0]]
