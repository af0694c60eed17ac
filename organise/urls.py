"""The organiser's pages: under /organise/, and the ranking's under /ranking/ (a final's
qualification list, the seasons' rules)."""

from django.urls import include, path

from organise.views import (
    audit,
    fees,
    links,
    notices,
    people,
    referee_calls,
    register,
    rounds,
    seasons,
    signups,
    tournaments,
)
from organise.views.moved import moved_to

app_name = "organise"

tournament_pages = [
    path("", tournaments.dashboard, name="dashboard"),
    path("new/", tournaments.tournament_create, name="create"),
    path("clubs/", register.club_list, name="clubs"),
    path("players/", register.player_list, name="players"),
    path("players/new/", register.player_edit, name="player_create"),
    path("players/import/", register.player_import, name="player_import"),
    path("players/<int:player_id>/", register.player_edit, name="player_edit"),
    path("t/<slug:slug>/", tournaments.tournament_detail, name="detail"),
    path("t/<slug:slug>/settings/", tournaments.tournament_edit, name="edit"),
    path("t/<slug:slug>/registrations/", tournaments.registrations, name="registrations"),
    path(
        "t/<slug:slug>/registrations/<int:registration_id>/",
        tournaments.registration_edit,
        name="registration_edit",
    ),
    path(
        "t/<slug:slug>/registrations/fee-category/",
        fees.fee_category_set,
        name="fee_category_set",
    ),
    path("t/<slug:slug>/sign-ups/", signups.signups, name="signups"),
    path("t/<slug:slug>/sign-ups/accept/", signups.signups_accept, name="signups_accept"),
    # The registrations' old addresses.
    path("t/<slug:slug>/entries/", moved_to("registrations")),
    path("t/<slug:slug>/entries/<int:registration_id>/", moved_to("registration_edit")),
    path("t/<slug:slug>/entries/fee-category/", moved_to("fee_category_set")),
    path("t/<slug:slug>/entries/online/", moved_to("signups")),
    path("t/<slug:slug>/entries/online/accept/", moved_to("signups_accept")),
    path("t/<slug:slug>/meetings/", tournaments.meetings, name="meetings"),
    path("t/<slug:slug>/rounds/new/", rounds.round_create, name="round_create"),
    path("t/<slug:slug>/rounds/<int:number>/", rounds.round_detail, name="round"),
    path("t/<slug:slug>/rounds/<int:number>/check-in/", rounds.round_check_in, name="check_in"),
    path(
        "t/<slug:slug>/rounds/<int:number>/all-paid/",
        rounds.round_fees_paid_present,
        name="fees_paid_present",
    ),
    path("t/<slug:slug>/rounds/<int:number>/seating/", rounds.round_generate, name="generate"),
    path("t/<slug:slug>/rounds/<int:number>/swap/", rounds.round_swap, name="swap"),
    path("t/<slug:slug>/rounds/<int:number>/publish/", rounds.round_publish, name="publish"),
    path("t/<slug:slug>/rounds/<int:number>/referees/", people.round_referees, name="referees"),
    path("t/<slug:slug>/rounds/<int:number>/clock/", rounds.round_clock_action, name="clock"),
    path("t/<slug:slug>/rounds/<int:number>/close/", rounds.round_close, name="round_close"),
    path("t/<slug:slug>/people/", people.tournament_roles, name="roles"),
    path("t/<slug:slug>/people/remove/", people.tournament_role_remove, name="role_remove"),
    path(
        "t/<slug:slug>/calls/<int:call_id>/answer/",
        referee_calls.referee_call_answer,
        name="referee_call_answer",
    ),
    path("t/<slug:slug>/display-link/new/", links.display_link_new, name="display_link_new"),
    path(
        "t/<slug:slug>/display-link/revoke/",
        links.display_link_revoke,
        name="display_link_revoke",
    ),
    path("t/<slug:slug>/audit/", audit.audit_log, name="audit"),
    path("t/<slug:slug>/notices/", notices.notices, name="notices"),
    path("t/<slug:slug>/fees/", fees.fee_categories, name="fees"),
    path("tables/<int:table_id>/link/new/", links.table_link_new, name="table_link_new"),
    path(
        "tables/<int:table_id>/link/revoke/",
        links.table_link_revoke,
        name="table_link_revoke",
    ),
]

ranking_pages = [
    path("seasons/", seasons.season_list, name="seasons"),
    path("seasons/new/", seasons.season_create, name="season_create"),
    path("seasons/<int:season_id>/", seasons.season_edit, name="season_edit"),
    path("qualification/<slug:slug>/", seasons.qualification, name="qualification"),
    path("qualification/<slug:slug>/invite/", seasons.invitation_add, name="invite"),
    path("qualification/<slug:slug>/withdraw/", seasons.invitation_withdraw, name="withdraw"),
]

urlpatterns = [
    path("organise/", include(tournament_pages)),
    path("ranking/", include(ranking_pages)),
]
