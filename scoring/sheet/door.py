"""The signed-in door of a table's pages (`table_id` in the URL), shared by the referee's sheet
and the organiser's table links: who may pass is settled before anything else is read."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.utils.functional import Promise

from core.http import AuthenticatedHttpRequest
from scoring.sheet.reader import table_by_id
from tournaments.models import Table


def table_role_required(
    allowed: Callable[[User, Table], bool], refusal: str | Promise
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Views of one table (`table_id` in the URL): visitors are sent to sign in, accounts the
    check refuses get 403, before anything else is read or the method is looked at. The view
    receives the table as the link's door reads it (`scoring.sheet.reader.table_by_id`)."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @login_required
        @wraps(view)
        def wrapped(
            request: AuthenticatedHttpRequest, table_id: int, **kwargs: object
        ) -> HttpResponse:
            door = table_by_id(table_id)
            if door is None or door.table is None:  # no such table
                raise Http404
            if not allowed(request.user, door.table):
                raise PermissionDenied(refusal)
            return view(request, door=door, **kwargs)

        return wrapped

    return decorator
