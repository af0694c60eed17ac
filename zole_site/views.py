"""Site-wide views: the home page and the health check. Views stay thin; reads go to selectors."""

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments.selectors import club_list_with_players


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"clubs": club_list_with_players()})


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    # A real round trip, so a monitor learns the database is reachable, not only the process.
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return JsonResponse({"status": "ok", "database": connection.vendor})
