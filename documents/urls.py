"""Printed documents (PDF): a round's score sheets for its organisers and chief referees, and the
public seating list and standings protocol."""

from django.urls import path

from documents import views

app_name = "documents"

urlpatterns = [
    path(
        "t/<slug:slug>/rounds/<int:number>/sheets.pdf",
        views.round_sheets,
        name="round_sheets_pdf",
    ),
    path(
        "t/<slug:slug>/rounds/<int:number>/seating.pdf",
        views.round_seating,
        name="round_seating_pdf",
    ),
    path("t/<slug:slug>/standings.pdf", views.standings_protocol, name="standings_pdf"),
    # The fund and the prizes: the organisers' page and the printed list.
    path("organise/t/<slug:slug>/prizes/", views.prizes, name="prizes"),
    path("organise/t/<slug:slug>/prizes.pdf", views.prizes_pdf, name="prizes_pdf"),
]
