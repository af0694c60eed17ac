"""The API's one NinjaAPI instance: each resource group is a router of its own module, and every
refusal is JSON that says what is wrong ({"detail": ..., "field": ...})."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI

from api import people_api, ranking_api, table_entries_api, tokens_api, tournaments_api
from api.answers import ApiError, error_response
from api.token_auth import (
    TokenLimitError,
    TokenRefusedError,
    token_limit_answer,
    token_refused_answer,
)

# Ninja's own documentation page loads its scripts from a CDN, which the site's content security
# policy refuses: the documentation page is the site's own (api.docs), read from the schema.
api = NinjaAPI(
    title="Zole",
    version="1",
    urls_namespace="api",
    docs_url=None,
    openapi_url="/openapi.json",
)
api.add_router("/tournaments", tournaments_api.router)
api.add_router("/tournaments", tokens_api.tournament_router)
api.add_router("/organise", tokens_api.router)
api.add_router("/tables", table_entries_api.router)
# Through the decorator: add_exception_handler's annotation wants a handler that also takes the
# exception's class, which ninja never passes.
api.exception_handler(TokenLimitError)(token_limit_answer)
api.exception_handler(TokenRefusedError)(token_refused_answer)
api.add_router("/ranking", ranking_api.router)
api.add_router("", people_api.router)


@api.exception_handler(ApiError)
def refused(request: HttpRequest, error: ApiError) -> HttpResponse:
    return error_response(error.status, error.detail, field=error.field)


@api.exception_handler(Http404)
def not_found(request: HttpRequest, error: Http404) -> HttpResponse:
    # As the pages: an unknown address, a draft round and a table in play are alike.
    return error_response(404, "Not found.")
