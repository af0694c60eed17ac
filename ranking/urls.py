"""The season ranking and the rating list (public), a final's qualification list and
invitations (its organisers), and the seasons' rules (federation staff), under /ranking/."""

from django.urls import path

from ranking import views

app_name = "ranking"

urlpatterns = [
    path("", views.season_ranking, name="season"),
    path("rating/", views.rating, name="rating"),
    path("seasons/", views.season_list, name="seasons"),
    path("seasons/new/", views.season_create, name="season_create"),
    path("seasons/<int:season_id>/", views.season_edit, name="season_edit"),
    path("qualification/<slug:slug>/", views.qualification, name="qualification"),
    path("qualification/<slug:slug>/invite/", views.invitation_add, name="invite"),
    path("qualification/<slug:slug>/withdraw/", views.invitation_withdraw, name="withdraw"),
]
