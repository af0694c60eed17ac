"""Top-level URL configuration."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import RedirectView

from core.ratelimit import RateLimitedLoginView
from public import views as public
from zole_site import views

# A dropped database connection that no view could retry is a 503 "try again", not a 500.
handler500 = "zole_site.views.server_error"

urlpatterns = [
    # Home: the public tournament list (upcoming, in progress, finished).
    path("", public.tournament_list, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("language/<str:language>/", views.language_switch, name="language"),
    # The project's documentation (docs/*.md): the rules, and how to run a tournament.
    path("rules/", views.documentation, {"page": "rules"}, name="doc_rules"),
    path("rules/organising/", views.documentation, {"page": "organising"}, name="doc_organising"),
    # The organiser's pages (/organise/, and the ranking's own under /ranking/).
    path("", include("organise.urls")),
    # An organiser's personal API tokens: a page of his, beside the API it opens.
    path("organise/api-tokens/", include("api.pages_urls")),
    path("", include("entry.urls")),
    path("", include("public.urls")),
    path("", include("documents.urls")),
    # The season ranking and the rating list.
    path("ranking/", include("ranking.urls")),
    # The JSON API (api/): the public reads for other programs, versioned in its address.
    path("api/v1/", include("api.urls")),
    # django.contrib.auth's pages without the password reset, which needs mail (none is
    # configured): staff set a forgotten password (the admin's user page, `manage.py
    # create_organiser --reset`, `manage.py changepassword`). Sign-in limits failed attempts.
    path("accounts/login/", RateLimitedLoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password_change/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    # The admin signs in on that page too, so its failed attempts count the same.
    path("admin/login/", RedirectView.as_view(pattern_name="login", query_string=True)),
    path("admin/", admin.site.urls),
]
