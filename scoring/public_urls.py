"""Public pages (no login): tournaments, rounds, standings, players."""

app_name = "public"

urlpatterns: list = []
