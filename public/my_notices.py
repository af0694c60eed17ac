"""Messages on a player's own page: his phone's push subscription given (one tap) or taken
back, by his secret link. Answers JSON to the page's script. Unknown links count against the
address (core.ratelimit.CHECK_IN_FAILURES, as the page itself); every change counts against the
player (PUSH_CHANGES), so a script cannot make the server keep or call many addresses."""

from __future__ import annotations

import json

from django.http import Http404, HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from core.ratelimit import CHECK_IN_FAILURES, PUSH_CHANGES
from core.security import api_refusal
from hall.selectors import registration_by_check_in_token
from notices.push import push_configured
from notices.services import SubscriptionRefusedError, push_subscribe, push_unsubscribe
from tournaments.models import Registration

# A subscription's JSON is a few hundred bytes; anything much larger is not one.
BODY_MAX_BYTES = 4096


def _player(request: HttpRequest, slug: str, token: str) -> Registration | JsonResponse:
    registration = registration_by_check_in_token(slug=slug, token=token)
    if registration is None:
        refusal = CHECK_IN_FAILURES.begin(request)
        if refusal is not None:
            return api_refusal(429, _("Too many attempts"))
        raise Http404
    if not push_configured():
        return api_refusal(409, _("This site sends no messages to phones."))
    if not PUSH_CHANGES.spend(f"registration:{registration.pk}"):
        return api_refusal(
            429, _("Messages were switched on and off too often on this page. Try again later.")
        )
    return registration


def _body(request: HttpRequest) -> dict | None:
    if len(request.body) > BODY_MAX_BYTES:
        return None
    try:
        body = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        return None
    return body if isinstance(body, dict) else None


@never_cache
@require_POST
def subscribe(request: HttpRequest, slug: str, player_token: str) -> JsonResponse:
    """The page's browser subscribed: keep its subscription (PushSubscription.toJSON())."""
    player = _player(request, slug, player_token)
    if isinstance(player, JsonResponse):
        return player
    body = _body(request)
    keys = body.get("keys") if body else None
    if body is None or not isinstance(keys, dict):
        return api_refusal(400, _("The browser's subscription could not be read."))
    fields = (body.get("endpoint"), keys.get("p256dh"), keys.get("auth"))
    if not all(isinstance(value, str) for value in fields):
        return api_refusal(400, _("The browser's subscription could not be read."))
    endpoint, p256dh, auth = (str(value) for value in fields)
    try:
        push_subscribe(
            registration=player,
            endpoint=endpoint,
            p256dh=p256dh,
            auth=auth,
            language=request.LANGUAGE_CODE,
        )
    except SubscriptionRefusedError as refusal:
        return api_refusal(400, str(refusal))
    return JsonResponse({"receiving": True}, status=201)


@never_cache
@require_POST
def unsubscribe(request: HttpRequest, slug: str, player_token: str) -> JsonResponse:
    """The page's browser stops its messages: forget its subscription for this player."""
    player = _player(request, slug, player_token)
    if isinstance(player, JsonResponse):
        return player
    body = _body(request)
    endpoint = body.get("endpoint") if body else None
    if not isinstance(endpoint, str):
        return api_refusal(400, _("The browser's subscription could not be read."))
    push_unsubscribe(registration=player, endpoint=endpoint)
    return JsonResponse({"receiving": False})
