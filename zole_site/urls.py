"""Top-level URL configuration."""

from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView

from scoring.views import public
from zole_site import views
from zole_site.ratelimit import RateLimitedLoginView

# A dropped database connection that no view could retry is a 503 "try again", not a 500.
handler500 = "zole_site.views.server_error"

urlpatterns = [
    # Home: the public tournament list (upcoming, in progress, finished).
    path("", public.tournament_list, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("language/<str:language>/", views.language_switch, name="language"),
    path("organise/", include("tournaments.urls")),
    path("", include("scoring.urls")),
    path("", include("scoring.public_urls")),
    # The season ranking, the rating list and the qualification list of a final.
    path("ranking/", include("ranking.urls")),
    # Before django.contrib.auth's own: the same sign-in page, with failed attempts limited.
    path("accounts/login/", RateLimitedLoginView.as_view(), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    # The admin signs in on that page too, so its failed attempts count the same.
    path("admin/login/", RedirectView.as_view(pattern_name="login", query_string=True)),
    path("admin/", admin.site.urls),
]
