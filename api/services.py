"""The API's writes: an organiser's personal tokens, made and revoked, each with an audit record.

A token's secret is made here and returned once (`MadeToken.secret`); only its SHA-256 is stored,
so `token_for_secret` finds a token by hashing what a request presents."""

from __future__ import annotations

import datetime
import hashlib
import secrets
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from api.models import ApiToken
from tournaments import permissions
from tournaments.models import AuditRecord
from tournaments.services import ServiceError, audit

# Every secret starts with it: a leaked one is recognisable (secret scanners, logs).
SECRET_PREFIX = "zole_"
HINT_LENGTH = len(SECRET_PREFIX) + 6
# A CharField's max_length is always set; the stubs allow None for the other fields.
NAME_MAX: int = ApiToken._meta.get_field("name").max_length  # type: ignore[assignment]
# An owner's tokens in use at once: a handful of programs, not one per request.
ACTIVE_MAX = 20
# `last_used_at` is written at most this often: a program polling every few seconds must not
# write a row each time (SQLite has one writer, and the referees' deals come first).
LAST_USED_EVERY = datetime.timedelta(minutes=5)


@dataclass(frozen=True)
class MadeToken:
    token: ApiToken
    secret: str  # shown to the owner once, never stored


def secret_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@transaction.atomic
def api_token_create(*, user: User, name: str, ip_address: str | None = None) -> MadeToken:
    """A new token of `user`'s, named by him; refused (ServiceError) to an account that may not
    hold one, for an empty or too long name, or beyond ACTIVE_MAX tokens in use."""
    if not permissions.can_hold_api_tokens(user):
        raise ServiceError(_("Only organisers may make API tokens."))
    name = name.strip()
    if not name:
        raise ServiceError(_("Give the token a name: what program will use it."))
    if len(name) > NAME_MAX:
        raise ServiceError(_("The name is longer than %(count)d characters.") % {"count": NAME_MAX})
    # The owner's row, locked: two requests at once cannot both pass the count.
    User.objects.select_for_update().filter(pk=user.pk).first()
    if ApiToken.objects.filter(user=user, revoked_at__isnull=True).count() >= ACTIVE_MAX:
        raise ServiceError(
            _("You have %(count)d tokens in use: revoke one you no longer need first.")
            % {"count": ACTIVE_MAX}
        )
    secret = SECRET_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name, digest=secret_digest(secret), hint=secret[:HINT_LENGTH]
    )
    audit(
        action=AuditRecord.Action.API_TOKEN_CREATED,
        by=user,
        ip_address=ip_address,
        token=token.pk,
        name=name,
    )
    return MadeToken(token=token, secret=secret)


@transaction.atomic
def api_token_revoke(*, token: ApiToken, by: User, ip_address: str | None = None) -> ApiToken:
    """The token stops opening anything at once; its owner alone revokes it (staff included:
    they revoke their own). Revoking a revoked token changes nothing."""
    if by is None or token.user_id != by.pk:
        raise ServiceError(_("Only the token's owner may revoke it."))
    locked = ApiToken.objects.select_for_update().get(pk=token.pk)
    if locked.revoked_at is not None:
        return locked
    locked.revoked_at = timezone.now()
    locked.save(update_fields=["revoked_at"])
    audit(
        action=AuditRecord.Action.API_TOKEN_REVOKED,
        by=by,
        ip_address=ip_address,
        token=locked.pk,
        name=locked.name,
    )
    return locked


def token_for_secret(secret: str) -> ApiToken | None:
    """The token in use that `secret` opens, with its owner; None for any other text. A token
    whose owner may no longer hold one (deactivated, no longer an organiser) opens nothing."""
    if not secret.startswith(SECRET_PREFIX) or len(secret) > 200:
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(digest=secret_digest(secret), revoked_at__isnull=True)
        .first()
    )
    if token is None or not permissions.can_hold_api_tokens(token.user):
        return None
    return token


def api_token_used(token: ApiToken) -> None:
    """Records when the token was last used, at most once every LAST_USED_EVERY."""
    now = timezone.now()
    if token.last_used_at is not None and now - token.last_used_at < LAST_USED_EVERY:
        return
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    token.last_used_at = now
