"""The organiser's page of his API tokens (zole_site/urls.py includes it at
organise/api-tokens/): a page of the site, not of the API, so it has its own URL list."""

from django.urls import path

from api import views

app_name = "api_tokens"

urlpatterns = [
    path("", views.api_tokens, name="list"),
    path("revoke/", views.api_token_revoke, name="revoke"),
]
