"""Site-wide protections that Django leaves to the project: a Content-Security-Policy header
(on the embeds, with the sites that may frame them), a hard limit on the size of a request body,
no NUL character in any text a request brings, and refusals under /api/ in JSON, as a program
reads them."""

from __future__ import annotations

import ipaddress
import json
import re
from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

CSP_HEADER = "Content-Security-Policy"


FRAME_ANCESTORS = "frame-ancestors"


def frameable(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The view's pages may be shown in a frame by the sites settings.EMBED_FRAME_ANCESTORS
    names (the embeds, /embed/): they get that frame-ancestors list and no X-Frame-Options,
    which cannot name a site. With no site named they are refused like every other page.

    Set on each response the view returns, after the page cache (which stores headers, not a
    response's attributes), so a page from the cache is framed the same; the header itself is
    ContentSecurityPolicyMiddleware's, the one place that writes the policy."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        response = view(request, *args, **kwargs)
        if settings.EMBED_FRAME_ANCESTORS:
            response.xframe_options_exempt = True
            response.frame_ancestors = settings.EMBED_FRAME_ANCESTORS  # type: ignore[attr-defined]
        return response

    return wrapped


def with_frame_ancestors(policy: str, sources: list[str]) -> str:
    """`policy` with its frame-ancestors directive naming `sources` instead."""
    directives = [
        directive
        for directive in (part.strip() for part in policy.split(";"))
        if directive and directive.split(" ", 1)[0] != FRAME_ANCESTORS
    ]
    return "; ".join([*directives, " ".join([FRAME_ANCESTORS, *sources])])


class ContentSecurityPolicyMiddleware:
    """Adds settings.CONTENT_SECURITY_POLICY to every HTML page; a page a view marked
    `frameable` gets it with the sites that may frame it.

    A fixed policy with no nonces: the public pages are served from the cache to everyone, so
    a per-request nonce would be stale in every cached copy. Templates therefore have no inline
    script or style at all. PDF, CSV and XLSX responses get no policy: they run no script, and
    a policy with object-src 'none' stops the browser's own PDF viewer."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.policy: str = settings.CONTENT_SECURITY_POLICY

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        content_type = response.get("Content-Type", "")
        # Django's own debug pages (DEBUG only) are styled and scripted inline.
        debug_page = settings.DEBUG and response.status_code in (404, 500)
        if self.policy and content_type.startswith("text/html") and not debug_page:
            framed_by: list[str] | None = getattr(response, "frame_ancestors", None)
            policy = self.policy if not framed_by else with_frame_ancestors(self.policy, framed_by)
            response.headers.setdefault(CSP_HEADER, policy)
        return response


class RequestSizeLimitMiddleware:
    """Refuses a request whose body is larger than settings.REQUEST_BODY_MAX_BYTES with 413,
    before anything reads it. Django limits form fields (DATA_UPLOAD_MAX_MEMORY_SIZE) but not
    uploaded files, which it would otherwise stream to a temporary file of any size."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.limit: int = settings.REQUEST_BODY_MAX_BYTES

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0  # Django reads no body then either
        if length > self.limit:
            return refused(
                request,
                status=413,
                title=_("Too large"),
                message=_(
                    "The upload is too large: at most %(size)d kB is accepted. Nothing was saved."
                )
                % {"size": self.limit // 1024},
            )
        return self.get_response(request)


NUL = "\x00"


class NulCharacterMiddleware:
    """Refuses with 400 a request that carries a NUL character in its address, a query
    parameter, a form field or a cookie, before any page reads it.

    PostgreSQL text cannot hold a NUL (a query that compares with one fails with DataError, a
    500), and no person types one: it is refused here once rather than in every lookup, search
    and form. An uploaded file's content is its import's to check."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        where = nul_in(request)
        if where is None:
            return self.get_response(request)
        if where == "":
            message = _(
                "The address contains a NUL character, which no text may hold. Nothing was saved."
            )
        else:
            message = _(
                "“%(name)s” contains a NUL character, which no text may hold. Nothing was saved."
            ) % {"name": where.replace(NUL, "␀")}
        return refused(
            request, status=400, title=_("Not accepted"), message=message, field=where or None
        )


def nul_in(request: HttpRequest) -> str | None:
    """Where the request carries a NUL: "" for its address, else the name of the parameter,
    form field or cookie; None when it carries none."""
    if NUL in request.path_info or NUL in request.path:
        return ""
    parts = [request.GET.lists(), request.COOKIES.items()]
    if request.method == "POST":
        parts.append(request.POST.lists())
    for items in parts:
        for name, values in items:
            if NUL in name or any(
                NUL in value for value in ([values] if isinstance(values, str) else values)
            ):
                return name
    return None


# A body that may hold a lone surrogate: JSON's escape of one (\ud800-\udfff), or its three
# bytes (json.loads reads bytes with "surrogatepass"). Most bodies hold neither: no parse.
SURROGATE_HINT = re.compile(rb"\\u[dD][89a-fA-F]|\xed[\xa0-\xbf]")
FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})


class LoneSurrogateMiddleware:
    """Refuses with 400 a JSON body that carries a lone UTF-16 surrogate (an escape such as
    "\\ud800" without its pair), naming where, before any reader (the phone's sync, the API)
    parses it.

    JSON may escape one and Python reads it into a text, but no UTF-8 text can hold it: the
    database refuses it (a 500), as it refuses a NUL. A form's fields never hold one (Django
    decodes them with replacement characters)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        where = lone_surrogate_in(request)
        if where is None:
            return self.get_response(request)
        name = where.encode("utf-8", "backslashreplace").decode() or _("the body")
        message = _(
            "“%(name)s” contains a lone surrogate (an escape such as \\ud800 without its pair), "
            "which no text may hold. Nothing was saved."
        ) % {"name": name}
        return refused(
            request, status=400, title=_("Not accepted"), message=message, field=where or None
        )


def lone_surrogate_in(request: HttpRequest) -> str | None:
    """Where the request's JSON body holds a lone surrogate: the path of the text or key
    ("players.0.full_name"; "" for the body itself), None when it holds none. A body that is no
    JSON is its reader's to refuse."""
    if request.method in ("GET", "HEAD", "OPTIONS") or request.content_type in FORM_TYPES:
        return None
    try:
        body = request.body
    except RequestDataTooBig:  # refused by its reader
        return None
    if not SURROGATE_HINT.search(body):
        return None
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return None
    pending: list[tuple[str, object]] = [("", data)]
    while pending:  # not recursive: the depth is the sender's to choose
        path, value = pending.pop()
        if isinstance(value, str) and _has_lone_surrogate(value):
            return path
        items = (
            value.items()
            if isinstance(value, dict)
            else enumerate(value)
            if isinstance(value, list)
            else ()
        )
        for key, item in items:
            inner = f"{path}.{key}" if path else str(key)
            if isinstance(key, str) and _has_lone_surrogate(key):
                return inner
            pending.append((inner, item))
    return None


def _has_lone_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # json.loads pairs a proper pair: what is left is alone
        return True
    return False


API_PREFIX = "/api/"


def is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


def refused(
    request: HttpRequest, *, status: int, title: str, message: str, field: str | None = None
) -> HttpResponse:
    """A refused request as a page that says why (400, 413, 429), or under /api/ as the API's
    JSON error (`detail`, and `field` when the refusal is about one)."""
    if is_api(request):
        return api_refusal(status, message, field=field)
    return render(request, "refused.html", {"title": title, "message": message}, status=status)


def api_refusal(status: int, detail: str, *, field: str | None = None) -> JsonResponse:
    """The API's error body (api.answers.error_response is the same for the API's own)."""
    body = {"detail": str(detail)}
    if field is not None:
        body["field"] = field
    return JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False})


# What a refusal made outside the API's own code (Django's error pages) says to a program.
API_REFUSALS = {
    400: gettext_lazy("The request is not valid: check its address, host and body."),
    403: gettext_lazy("This request is not allowed."),
    404: gettext_lazy("No such address in the API: its addresses are listed at /api/v1/docs/."),
    405: gettext_lazy("This address does not take %(method)s: it takes %(allowed)s."),
    500: gettext_lazy("Something went wrong on the server: it is logged. Try again later."),
    503: gettext_lazy("The server is busy for a moment: try again."),
}


class ApiRefusalsAsJsonMiddleware:
    """Under /api/, an error answered as a page (by Django: an unknown address, a host not
    served, a CSRF refusal, a server error; by django-ninja: a method not taken) is answered as
    the API's JSON error instead, its status and headers (Allow, Retry-After) kept: a program
    never has to read HTML. The site's own refusals are JSON there already (`refused`)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code < 400
            or not is_api(request)
            or response.get("Content-Type", "").startswith("application/json")
        ):
            return response
        message = API_REFUSALS.get(response.status_code)
        if message is None:
            detail = response.reason_phrase
        elif response.status_code == 405:
            detail = message % {"method": request.method, "allowed": response.get("Allow", "")}
        else:
            detail = str(message)
        answer = api_refusal(response.status_code, detail)
        for header, value in response.items():
            if header.lower() not in ("content-type", "content-length"):
                answer[header] = value
        return answer


def client_ip(request: HttpRequest) -> str | None:
    """The client's address as the audit log records it: REMOTE_ADDR, or with
    settings.TRUSTED_PROXIES = n reverse proxies in front, the address the outermost of them saw
    (the n-th X-Forwarded-For entry from the right; the ones further left are whatever the
    client sent). None when there is no valid address."""
    address = request.META.get("REMOTE_ADDR", "")
    proxies: int = settings.TRUSTED_PROXIES
    if proxies:
        forwarded = [
            part.strip()
            for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
            if part.strip()
        ]
        if len(forwarded) >= proxies:
            address = forwarded[-proxies]
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return None
