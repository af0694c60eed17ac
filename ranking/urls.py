"""The season ranking and the rating list (public), and a final's qualification list
(its organisers), under /ranking/."""

from django.urls import path

from ranking import views

app_name = "ranking"

urlpatterns = [
    path("", views.season_ranking, name="season"),
    path("rating/", views.rating, name="rating"),
    path("qualification/<slug:slug>/", views.qualification, name="qualification"),
]
