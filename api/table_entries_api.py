"""A table's entries through its link: POST /api/v1/tables/<token>/entries is the phone's own
sync (the entry app's `token_sync`: the same body, client keys, answers and guarantees), found by
its URL name, since the API does not import the entry app (a sibling). The holder of the link
writes as the link, never as an account a browser may be signed in with: a page elsewhere that
posts here cannot lend itself a chief referee's rights (this door has no CSRF check: a program
sends no cookie)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import resolve, reverse
from ninja import Router

from api.answers import error_response
from api.schemas import Schema
from core.ratelimit import TABLE_LINK_FAILURES

router = Router(tags=["table entries"])

ENTRY_ACTIONS = ["deal", "penalty", "correct", "remove", "confirm"]

# The body, for the schema and the documentation only: the phone's sync checks it itself and
# answers 400 with what is wrong (ninja's own check would answer otherwise than the phone's).
# Its limits are the sync's own (tests/api/test_schema_properties.py holds them equal): a body
# the schema allows is one the sync accepts.
SYNC_BODY = {
    "type": "object",
    "required": ["entries"],
    "properties": {
        "entries": {
            "type": "array",
            "maxItems": 30,
            "items": {
                "type": "object",
                "required": ["key", "action", "fields"],
                "properties": {
                    "key": {
                        "type": "string",
                        "minLength": 1,
                        "maxLength": 64,
                        "description": "The sender's own name of the entry, for its answer",
                    },
                    "action": {
                        "type": "string",
                        "enum": ENTRY_ACTIONS,
                        "description": "Which of the entry page's forms it is",
                    },
                    "fields": {
                        "type": "object",
                        "additionalProperties": {"type": "string"},
                        "description": "The entry form's fields, prefixed as the form posts "
                        'them: {"deal-position": "4", "deal-client_key": "…", '
                        '"deal-game": "zole", …}',
                    },
                    "scores": {
                        "type": ["object", "null"],
                        "maxProperties": 4,
                        "additionalProperties": {
                            "type": "integer",
                            "minimum": -1_000_000,
                            "maximum": 1_000_000,
                        },
                        "description": "What the sender's scoring gave the entry, by player "
                        "key (a difference is logged), or null",
                    },
                },
            },
        },
        "waiting": {
            "type": "integer",
            "minimum": 0,
            "maximum": 100_000,
            "description": "Entries still waiting on the sender (shown to the chief referee)",
        },
        "refused": {
            "type": "integer",
            "minimum": 0,
            "maximum": 100_000,
            "description": "Entries refused and still kept by the sender",
        },
    },
}


class EntryResult(Schema):
    key: str
    status: str  # stored, conflict, closed, refused
    message: str
    errors: dict[str, list[str]]
    disagreed: bool


class SyncOut(Schema):
    results: list[EntryResult]
    state: dict  # the table's state after the writes: its sheet in the engine's JSON and more
    # The entry page's parts, for a page that shows them: "forms" is null when the next entry
    # is an ordinary deal, whose form the phone fills in from its own.
    html: dict[str, str | None]


class SyncRefusal(Schema):
    error: str


class Refusal(Schema):
    detail: str


class LinkGone(Schema):
    gone: bool
    message: str


def is_repeatable(request: HttpRequest) -> bool:
    """Every sync may run twice: each entry's client key records it once, a confirmation finds
    the table confirmed."""
    return True


@router.post(
    "/{token}/entries",
    response={200: SyncOut, 400: SyncRefusal, 404: SyncRefusal, 410: LinkGone, 429: Refusal},
    summary="Send a table's entries through its link, as the table's phone does",
    openapi_extra={
        "requestBody": {"required": True, "content": {"application/json": {"schema": SYNC_BODY}}}
    },
)
def table_entries(request: HttpRequest, token: str) -> HttpResponse:
    """Each entry is written in order as the entry page's form would write it, each in its own
    transaction, stopping at the first one not stored; an entry whose client key was stored
    before is answered "stored" again and written once. 410: the link was replaced or the
    round seated again."""
    phone_sync = resolve(reverse("entry:token_sync", args=[token]))
    request.user = AnonymousUser()
    response = phone_sync.func(request, *phone_sync.args, **phone_sync.kwargs)
    if response.status_code == 429:  # too many unknown links: the phone's page, as JSON
        return limit_reached(response)
    return response


def limit_reached(page: HttpResponse) -> JsonResponse:
    seconds = int(page.get("Retry-After", "60"))
    message = TABLE_LINK_FAILURES.refusal_message % {"minutes": -(-seconds // 60)}
    response = error_response(429, str(message))
    response["Retry-After"] = str(seconds)
    return response
