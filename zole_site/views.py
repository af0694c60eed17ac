"""Site-wide views: the health check. The home page is the public tournament list
(scoring.views.public). Views stay thin; reads go to selectors."""

from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    # A real round trip, so a monitor learns the database is reachable, not only the process.
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return JsonResponse({"status": "ok", "database": connection.vendor})
