"""Top-level URL configuration."""

from django.contrib import admin
from django.urls import include, path

from scoring.views import public
from zole_site import views

urlpatterns = [
    # Home: the public tournament list (upcoming, in progress, finished).
    path("", public.tournament_list, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("organise/", include("tournaments.urls")),
    path("", include("scoring.urls")),
    path("", include("scoring.public_urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
]
