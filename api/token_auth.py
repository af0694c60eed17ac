"""The API's personal tokens at the door: `Authorization: Bearer <secret>` opens the endpoints
that are an organiser's own, as its owner (`request.user`, so tournaments.permissions decides as
on his signed-in pages). Each token has its own rate limit (settings.RATE_LIMITS["api-token"]);
an address that sends too many unknown or revoked tokens is refused for a while
("api-token-failures")."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from ninja.errors import AuthenticationError
from ninja.security import HttpBearer

from api import services
from api.answers import error_response
from api.models import ApiToken
from core.ratelimit import API_TOKEN_FAILURES, API_TOKEN_REQUESTS, FailureLimit, client_address


class TokenLimitError(Exception):
    """The token, or the address, has used up its tries for now (429 by `token_limit_answer`)."""

    def __init__(self, limit: FailureLimit) -> None:
        super().__init__(limit.scope)
        self.limit = limit


class TokenRefusedError(AuthenticationError):
    """No token, another scheme, or a token that opens nothing (401 by `token_refused_answer`)."""

    def __init__(self, message: str) -> None:
        super().__init__(message=message)


class BearerToken(HttpBearer):
    """A personal API token (api.services): its owner becomes the request's user."""

    def __call__(self, request: HttpRequest) -> ApiToken:
        token = super().__call__(request)
        if token is None:  # no header, or another scheme than Bearer
            raise TokenRefusedError(_("Send your API token as Authorization: Bearer <token>."))
        return token

    def authenticate(self, request: HttpRequest, token: str) -> ApiToken:
        # Counted first, in one atomic step: parallel requests each take their own try.
        if not API_TOKEN_FAILURES.spend(client_address(request)):
            raise TokenLimitError(API_TOKEN_FAILURES)
        found = services.token_for_secret(token.strip())
        if found is None:  # the try stays counted
            raise TokenRefusedError(
                _("This API token is unknown or revoked: make a new one on your page.")
            )
        API_TOKEN_FAILURES.succeeded(request)
        if not API_TOKEN_REQUESTS.spend(f"token:{found.pk}"):
            raise TokenLimitError(API_TOKEN_REQUESTS)
        services.api_token_used(found)
        request.user = found.user
        return found


def token_refused_answer(request: HttpRequest, error: TokenRefusedError) -> JsonResponse:
    response = error_response(401, error.message)
    response["WWW-Authenticate"] = 'Bearer realm="api"'  # what to send (RFC 6750)
    return response


def token_limit_answer(request: HttpRequest, error: TokenLimitError) -> JsonResponse:
    seconds = error.limit.seconds
    message = error.limit.refusal_message % {"minutes": -(-seconds // 60)}
    response = error_response(429, str(message))
    response["Retry-After"] = str(seconds)
    return response


bearer_token = BearerToken()
