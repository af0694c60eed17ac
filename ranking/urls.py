"""The season ranking and the rating list (public), under /ranking/. The organisers' pages under
/ranking/ (a final's qualification list, the seasons' rules) are the organiser's app's."""

from django.urls import path

from ranking import views

app_name = "ranking"

urlpatterns = [
    path("", views.season_ranking, name="season"),
    path("rating/", views.rating, name="rating"),
]
