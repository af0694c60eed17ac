"""The API's reads of its own rows: an owner's tokens, as his page lists them."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import QuerySet

from api.models import ApiToken


def api_tokens_of(user: User) -> QuerySet[ApiToken]:
    """The owner's tokens, those in use first, the newest first."""
    return ApiToken.objects.filter(user_id=user.pk).order_by("revoked_at", "-created_at", "-pk")
