"""Top-level URL configuration."""

from django.contrib import admin
from django.urls import include, path

from zole_site import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("organise/", include("tournaments.urls")),
    path("", include("scoring.urls")),
    path("", include("scoring.public_urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
]
