"""The JSON API's addresses (zole_site/urls.py includes them at api/v1/), in the namespace
"api" of NinjaAPI's own route names, and its documentation page."""

from __future__ import annotations

from django.urls import path

from api import docs
from api.routes import api

app_name = "api"

urlpatterns = [
    path("docs/", docs.api_docs, name="docs"),
    *api.urls[0],
]
