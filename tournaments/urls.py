"""Organiser pages, under /organise/."""

from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("new/", views.tournament_create, name="create"),
    path("clubs/", views.club_list, name="clubs"),
    path("players/", views.player_list, name="players"),
    path("players/new/", views.player_edit, name="player_create"),
    path("players/import/", views.player_import, name="player_import"),
    path("players/<int:player_id>/", views.player_edit, name="player_edit"),
    path("t/<slug:slug>/", views.tournament_detail, name="detail"),
    path("t/<slug:slug>/settings/", views.tournament_edit, name="edit"),
    path("t/<slug:slug>/entries/", views.entries, name="entries"),
    path("t/<slug:slug>/entries/<int:entry_id>/", views.entry_edit, name="entry_edit"),
    path("t/<slug:slug>/meetings/", views.meetings, name="meetings"),
    path("t/<slug:slug>/rounds/new/", views.round_create, name="round_create"),
    path("t/<slug:slug>/rounds/<int:number>/", views.round_detail, name="round"),
    path("t/<slug:slug>/rounds/<int:number>/check-in/", views.round_check_in, name="check_in"),
    path("t/<slug:slug>/rounds/<int:number>/seating/", views.round_generate, name="generate"),
    path("t/<slug:slug>/rounds/<int:number>/swap/", views.round_swap, name="swap"),
    path("t/<slug:slug>/rounds/<int:number>/publish/", views.round_publish, name="publish"),
    path("t/<slug:slug>/rounds/<int:number>/referees/", views.round_referees, name="referees"),
    path("t/<slug:slug>/rounds/<int:number>/clock/", views.round_clock_action, name="clock"),
    path("t/<slug:slug>/people/", views.tournament_roles, name="roles"),
    path("t/<slug:slug>/people/remove/", views.tournament_role_remove, name="role_remove"),
    path("t/<slug:slug>/audit/", views.audit_log, name="audit"),
]
