"""The organiser's page of his personal API tokens (/organise/api-tokens/): he makes one (its
secret shown once, on the page the making redirects to), lists them and revokes them."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from api import selectors, services
from core.http import AuthenticatedHttpRequest
from core.query import whole_number
from core.security import client_ip
from tournaments import permissions
from tournaments.services import ServiceError

# The session's key of a secret just made, read (and forgotten) by the next page shown.
NEW_SECRET = "api_token_secret"


class TokenForm(forms.Form):
    name = forms.CharField(
        label=pgettext_lazy("API token", "Name"),
        max_length=services.NAME_MAX,
        help_text=gettext_lazy("What will use it, e.g. “the federation's website”."),
    )


def token_holder_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Accounts that may hold API tokens (tournaments.permissions); visitors are sent to sign
    in, other accounts get 403, before the method is checked (as every organiser page)."""

    @login_required
    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not permissions.can_hold_api_tokens(request.user):
            raise PermissionDenied(_("Only organisers may make API tokens."))
        return view(request, *args, **kwargs)

    return wrapped


@token_holder_required
@require_http_methods(["GET", "HEAD", "POST"])
def api_tokens(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = TokenForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            made = services.api_token_create(
                user=request.user, name=form.cleaned_data["name"], ip_address=client_ip(request)
            )
        except ServiceError as error:
            form.add_error("name", str(error))
        else:
            request.session[NEW_SECRET] = {"token": made.token.pk, "secret": made.secret}
            return redirect("api_tokens:list")
    new = request.session.pop(NEW_SECRET, None)
    response = render(
        request,
        "api/tokens.html",
        {
            "form": form,
            "tokens": selectors.api_tokens_of(request.user),
            "new_secret": new["secret"] if new else None,
            "new_token": new["token"] if new else None,
        },
    )
    add_never_cache_headers(response)  # the secret is on it once: never kept by a cache
    return response


@token_holder_required
@require_POST
def api_token_revoke(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The token named by the form's `token` (its id), when it is the account's own."""
    token_id = whole_number(request.POST.get("token"))
    token = selectors.api_tokens_of(request.user).filter(pk=token_id).first() if token_id else None
    if token is None:  # another account's token: not his to know of
        raise Http404
    try:
        services.api_token_revoke(token=token, by=request.user, ip_address=client_ip(request))
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Token “%(name)s” revoked.") % {"name": token.name})
    return redirect("api_tokens:list")
