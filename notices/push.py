"""Web Push as the standards give it: a message encrypted for one browser (RFC 8291, the
aes128gcm encoding of RFC 8188) and signed with the site's VAPID key (RFC 8292), posted to the
browser's push service (RFC 8030). pywebpush does the encryption and the signature; this module
says which push services may be called, reads the keys from the settings, and turns the push
service's answer into what the sender does next."""

from __future__ import annotations

import base64
import binascii
import datetime
import email.utils
import enum
import json
from dataclasses import dataclass
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.utils import timezone
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

# Longest a push service is waited for: a slow one holds a sending thread, never a request.
SEND_TIMEOUT_SECONDS = 10


def b64url_decode(text: str) -> bytes:
    """base64url with or without its padding, as browsers and VAPID write it."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url_encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def vapid_keys_make() -> tuple[str, str]:
    """A new VAPID key pair: the private key (the raw 32-byte P-256 scalar) and the public key
    (the 65-byte uncompressed point the browser's `applicationServerKey` takes), base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url_encode(private), b64url_encode(public)


def push_configured() -> bool:
    """Whether the site has its VAPID keys: without them no page offers messages."""
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def endpoint_allowed(endpoint: str) -> bool:
    """Whether `endpoint` is at a push service the settings name (settings.PUSH_SERVICES): the
    server posts to it, so an address a visitor made up (an internal host) is never called.
    An entry is an origin ("https://fcm.googleapis.com") or a wildcard of its subdomains
    ("https://*.notify.windows.com")."""
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        return False
    if parts.scheme not in ("https", "http") or not parts.hostname or parts.username:
        return False
    host = parts.hostname.lower()
    default_port = 443 if parts.scheme == "https" else 80
    for allowed in settings.PUSH_SERVICES:
        allowed_parts = urlsplit(allowed)
        if allowed_parts.scheme != parts.scheme:
            continue
        allowed_host = (allowed_parts.hostname or "").lower()
        if (allowed_parts.port or default_port) != (port or default_port):
            continue
        if allowed_host == host:
            return True
        if allowed_parts.netloc.startswith("*.") and host.endswith(allowed_host.lstrip("*")):
            return True
    return False


def subscription_keys_valid(p256dh: str, auth: str) -> bool:
    """Whether the browser's keys are what RFC 8291 needs: a point of the P-256 curve and a
    16-byte secret. A message could not be encrypted for anything else."""
    try:
        point = b64url_decode(p256dh)
        secret = b64url_decode(auth)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except (ValueError, binascii.Error, TypeError):
        return False
    return len(point) == 65 and len(secret) == 16


class PushAnswer(enum.Enum):
    DELIVERED = "delivered"  # the push service took it (201)
    GONE = "gone"  # the subscription is no more (404, 410): forget it
    LATER = "later"  # try again later (429, 5xx, no answer), after `retry_after` if given
    REFUSED = "refused"  # the push service will never take it (400, 403, 413)


@dataclass(frozen=True)
class PushResult:
    answer: PushAnswer
    detail: str = ""
    retry_after: datetime.timedelta | None = None


def retry_after(value: str | None, *, now: datetime.datetime) -> datetime.timedelta | None:
    """A Retry-After header (RFC 9110: seconds, or an HTTP date) as a delay; None if absent or
    unreadable."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return datetime.timedelta(seconds=int(value))
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        return None
    return max(when - now, datetime.timedelta(0))


def push_send(
    *,
    endpoint: str,
    p256dh: str,
    auth: str,
    message: dict[str, str],
    ttl_seconds: int,
    session: requests.Session | None = None,
) -> PushResult:
    """Encrypt `message` (as JSON) for the subscription and post it to its push service."""
    if not endpoint_allowed(endpoint):
        return PushResult(PushAnswer.REFUSED, "not a push service the settings allow")
    try:
        webpush(
            subscription_info={"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}},
            data=json.dumps(message, ensure_ascii=False),
            vapid_private_key=Vapid.from_string(private_key=settings.VAPID_PRIVATE_KEY),
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=ttl_seconds,
            timeout=SEND_TIMEOUT_SECONDS,
            requests_session=session,
            headers={"Urgency": "high"},
        )
    except WebPushException as refused:
        # A Response is falsy when its status is an error: compared with None, never tested.
        response = refused.response
        status = response.status_code if response is not None else None
        detail = f"{status} {getattr(response, 'reason', '')}".strip()
        if status in (404, 410):
            return PushResult(PushAnswer.GONE, detail)
        if response is None or status is None or status == 429 or status >= 500:
            header = response.headers.get("Retry-After") if response is not None else None
            return PushResult(PushAnswer.LATER, detail, retry_after(header, now=timezone.now()))
        return PushResult(PushAnswer.REFUSED, detail)
    except requests.RequestException as failed:
        return PushResult(PushAnswer.LATER, type(failed).__name__)
    return PushResult(PushAnswer.DELIVERED)
