"""Public pages (no login): tournaments, rounds, standings, players."""

from django.urls import path

from public import calendar_feed, embeds, my_notices, my_page, player_check_in
from public import signup as signups
from public import views as public

app_name = "public"

urlpatterns = [
    # "/" as well: zole_site/urls.py serves the same view there as "home", resolved first.
    path("", public.tournament_list, name="tournaments"),
    path("t/<slug:slug>/", public.tournament_detail, name="tournament"),
    # The calendar feed of the upcoming tournaments (?level=, ?club=), and one tournament's event.
    path("calendar.ics", calendar_feed.calendar_feed, name="calendar"),
    path(
        "t/<slug:slug>/calendar.ics",
        calendar_feed.tournament_calendar,
        name="tournament_calendar",
    ),
    path("t/<slug:slug>/rounds/<int:number>/", public.round_detail, name="round"),
    path(
        "t/<slug:slug>/rounds/<int:number>/tables/<int:table_number>/",
        public.table_detail,
        name="table",
    ),
    path("t/<slug:slug>/standings/", public.standings, name="standings"),
    path("t/<slug:slug>/statistics/", public.statistics, name="statistics"),
    path("t/<slug:slug>/register/", signups.signup, name="signup"),
    # The hall display (a projector at the venue) and the round clock it and the referees fetch.
    path("t/<slug:slug>/display/", public.display, name="display"),
    path("t/<slug:slug>/display/clock/", public.display_clock, name="display_clock"),
    # The same with the check-in code, by the organiser's private link, for the hall's screen.
    path("t/<slug:slug>/display/<str:token>/", public.private_display, name="private_display"),
    path(
        "t/<slug:slug>/rounds/<int:number>/clock/",
        public.round_clock_fragment,
        name="round_clock",
    ),
    path("players/<int:player_id>/", public.player_detail, name="player"),
    # The embeds: small pages other sites may show in a frame (settings.EMBED_FRAME_ANCESTORS).
    path("embed/tournaments/", embeds.upcoming, name="embed_upcoming"),
    path("embed/t/<slug:slug>/standings/", embeds.standings, name="embed_standings"),
    path("embed/ranking/", embeds.ranking, name="embed_ranking"),
    # Self check-in by the round's code.
    path("t/<slug:slug>/check-in/", player_check_in.check_in, name="check_in"),
    # The player's own page, by his secret link (it checks him in with one tap too), its web
    # app manifest, and its service worker: served from /t/<slug>/me/, its scope is the
    # players' pages of the tournament.
    path("t/<slug:slug>/me/worker.js", my_page.my_page_worker, name="my_page_worker"),
    path(
        "t/<slug:slug>/me/<str:player_token>/",
        my_page.my_check_in,
        name="my_check_in",
    ),
    path(
        "t/<slug:slug>/me/<str:player_token>/manifest.webmanifest",
        my_page.my_page_manifest,
        name="my_page_manifest",
    ),
    # The player's phone asks for messages (Web Push), or stops them.
    path(
        "t/<slug:slug>/me/<str:player_token>/notices/",
        my_notices.subscribe,
        name="my_notices_subscribe",
    ),
    path(
        "t/<slug:slug>/me/<str:player_token>/notices/stop/",
        my_notices.unsubscribe,
        name="my_notices_unsubscribe",
    ),
]
