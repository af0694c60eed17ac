"""What every page's header needs to know about the signed-in account."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from tournaments import permissions


def account_roles(request: HttpRequest) -> dict[str, object]:
    """`has_role`: the account organises or referees somewhere (its dashboard link);
    `is_federation_staff`: it manages players and clubs. Lazy: a page that never asks (or an
    anonymous visitor's) runs no query."""
    user = getattr(request, "user", None)
    return {
        "has_role": SimpleLazyObject(lambda: permissions.has_any_role(user)),
        "is_federation_staff": SimpleLazyObject(lambda: permissions.is_federation_staff(user)),
    }
