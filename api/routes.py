"""The API's one NinjaAPI instance: each resource group is a router of its own module."""

from __future__ import annotations

from ninja import NinjaAPI

from api import table_entries_api, tokens_api, tournaments_api
from api.token_auth import TokenLimitError, token_limit_answer

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
api.add_exception_handler(TokenLimitError, token_limit_answer)
