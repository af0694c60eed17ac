"""What lets a table link open with no network: its service worker and its web app manifest.

The worker is served from /r/ itself, so the browser limits its scope to the table links (/r/…)
without a Service-Worker-Allowed header: it never sees an organiser's page or a public one."""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from core.ratelimit import TABLE_LINK_FAILURES
from core.security import CSP_HEADER
from core.web_app import app_manifest
from scoring.sheet.reader import table_by_link

# The phone's script: the page's module and every module it imports (an offline reload loads
# them all from the worker's copies).
TABLE_PAGE_MODULES = (
    "js/table/page.js",
    "js/table/deal-form.js",
    "js/table/fill-template.js",
    "js/table/form-placeholders.js",
    "js/table/refusal-text.js",
    "js/table/sheet-row.js",
    "js/table/sheet-state.js",
    "js/table/status-text.js",
    "js/table/sync-answer.js",
    "js/table/text.js",
)
# Every static file a table page may use (the clock's scripts only when the round is timed).
TABLE_PAGE_ASSETS = (
    "css/site.css",
    "js/entry-form.js",
    "js/sheet-scoring.js",
    *TABLE_PAGE_MODULES,
    "js/table-queue.js",
    "js/htmx.min.js",
    "js/round-clock.js",
    "js/table-offline.js",
    "img/table-icon.svg",
)
WORKER_SCOPE = "/r/"


def table_page_assets() -> list[str]:
    """The assets' addresses as the pages name them: hashed names where the static files are
    collected, so a deployment with a changed file changes the worker and renews its copies."""
    return [static(name) for name in TABLE_PAGE_ASSETS]


@require_http_methods(["GET", "HEAD"])
def table_worker(request: HttpRequest) -> HttpResponse:
    assets = table_page_assets()
    assets_json = json.dumps(assets)
    script = render_to_string(
        "entry/table-worker.js",
        {
            "assets_json": mark_safe(assets_json),  # JSON of our own static paths
            "queue_json": mark_safe(json.dumps(static("js/table-queue.js"))),
            "version": hashlib.sha256(assets_json.encode()).hexdigest()[:12],
        },
    )
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    # The browser compares the worker with the server's on each visit: never an old copy.
    response["Cache-Control"] = "no-cache"
    # A worker's own policy is its script's header: the same strict policy as the pages.
    if settings.CONTENT_SECURITY_POLICY:
        response[CSP_HEADER] = settings.CONTENT_SECURITY_POLICY
    return response


@require_http_methods(["GET", "HEAD"])
def table_manifest(request: HttpRequest, token: str) -> HttpResponse:
    """The link as an app on the phone's home screen: it opens the table's sheet."""
    linked = table_by_link(token)
    if linked is None:
        refusal = TABLE_LINK_FAILURES.begin(request)  # the same limit as the link's page
        if refusal is not None:
            return refusal
        raise Http404
    if linked.table is None or linked.link is None or linked.link.revoked_at is not None:
        raise Http404
    table = linked.table
    name = _("Round %(round_number)s · table %(table_number)s") % {
        "round_number": table.round.number,
        "table_number": table.number,
    }
    page = reverse("entry:token_sheet", args=[token])
    response = app_manifest(
        request, name=f"{name} · {table.round.tournament.name}", short_name=name, page=page
    )
    response["Cache-Control"] = "no-cache"
    return response
