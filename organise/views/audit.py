"""A tournament's audit log."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from accounts.access import organiser_required
from core.http import AuthenticatedHttpRequest
from organise.audit_log import audit_rows
from organise.forms.people import (
    AuditFilterForm,
)
from tournaments import selectors
from tournaments.models import Tournament


@organiser_required
@require_safe
def audit_log(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Every organiser and referee action of the tournament, filtered, a page at a time."""
    tournament = get_object_or_404(Tournament, slug=slug)
    form = AuditFilterForm(request.GET or None)
    if form.is_bound:
        form.is_valid()  # a bad field is reported on the form; the valid ones still filter
    entries = selectors.audit_records(tournament=tournament, **form.filters())
    page = Paginator(entries, selectors.AUDIT_PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "organise/audit_log.html",
        {
            "tournament": tournament,
            "form": form,
            "page": page,
            "rows": audit_rows(page.object_list, tournament=tournament),
            "query": query.urlencode(),
        },
    )
