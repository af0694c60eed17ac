"""A push service of our own on loopback, for the tests and the benchmarks: what a browser's
push service (Google's, Mozilla's, Apple's) does with the server's messages, with the real
protocols. It hands out subscriptions as a browser would get them (an endpoint, a P-256 key
and an authentication secret), and for each message posted to an endpoint it checks the VAPID
signature (RFC 8292: an ES256 JWT for this origin, not expired, signed by the key it names,
which must be the site's), decrypts the payload with the subscription's private key (RFC 8291,
aes128gcm), and keeps it. It can be told to answer a subscription's next messages otherwise
(410 gone, 429 with Retry-After) to try the sender's retries."""

from __future__ import annotations

import json
import os
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from notices.push import b64url_decode, b64url_encode

# RFC 8292: a JWT's expiry is at most 24 hours away.
LONGEST_EXPIRY = 24 * 60 * 60


@dataclass
class Received:
    """A message the service took: its subscription, its decrypted payload, its headers."""

    subscription_id: str
    payload: dict[str, Any]
    ttl: int
    urgency: str
    claims: dict[str, Any]
    at: float


@dataclass
class Refused:
    subscription_id: str
    status: int
    reason: str


@dataclass
class _Subscription:
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes
    answers: deque[tuple[int, dict[str, str]]] = field(default_factory=deque)


class PushService:
    """Start with `start()` (or as a context manager); `subscribe()` gives a browser's
    subscription JSON; `received` lists what arrived, in order."""

    def __init__(self, *, vapid_public_key: str) -> None:
        self.vapid_public_key = vapid_public_key
        self.received: list[Received] = []
        self.refused: list[Refused] = []
        self._subscriptions: dict[str, _Subscription] = {}
        self._lock = threading.Lock()
        self._arrived = threading.Condition(self._lock)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def origin(self) -> str:
        port = self._server.server_address[1]
        return f"http://127.0.0.1:{port}"

    def start(self) -> PushService:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> PushService:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def subscribe(self) -> dict[str, Any]:
        """A new subscription, as PushSubscription.toJSON() gives it in a browser."""
        key = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)
        subscription_id = secrets.token_urlsafe(12)
        with self._lock:
            self._subscriptions[subscription_id] = _Subscription(key, auth)
        public = key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": f"{self.origin}/push/{subscription_id}",
            "keys": {"p256dh": b64url_encode(public), "auth": b64url_encode(auth)},
        }

    def answer_next(
        self, endpoint: str, status: int, headers: dict[str, str] | None = None
    ) -> None:
        """Answer the subscription's next message with `status` (and take nothing)."""
        with self._lock:
            self._subscriptions[endpoint.rsplit("/", 1)[-1]].answers.append((status, headers or {}))

    def forget(self, endpoint: str) -> None:
        """The browser unsubscribed: its endpoint answers 410 from now on."""
        with self._lock:
            self._subscriptions.pop(endpoint.rsplit("/", 1)[-1], None)

    def messages_for(self, endpoint: str) -> list[dict[str, Any]]:
        subscription_id = endpoint.rsplit("/", 1)[-1]
        with self._lock:
            return [m.payload for m in self.received if m.subscription_id == subscription_id]

    def wait_for(self, count: int, timeout: float = 10.0) -> list[Received]:
        """Wait until `count` messages have arrived in all (or the timeout); what arrived."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while len(self.received) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._arrived.wait(left)
            return list(self.received)

    # The protocol's side.

    def _verify_vapid(self, authorization: str) -> dict[str, Any]:
        """The JWT's claims, when the Authorization header is a valid VAPID one for this
        service; ValueError saying what is wrong otherwise."""
        scheme, _space, params = authorization.partition(" ")
        if scheme.lower() != "vapid":
            raise ValueError("not a VAPID authorization")
        values = dict(part.strip().split("=", 1) for part in params.split(",") if "=" in part)
        token, key = values.get("t", ""), values.get("k", "")
        if key != self.vapid_public_key:
            raise ValueError("signed with another key than the subscription's")
        header_b64, claims_b64, signature_b64 = token.split(".")
        header = json.loads(b64url_decode(header_b64))
        if header.get("alg") != "ES256":
            raise ValueError("not ES256")
        signature = b64url_decode(signature_b64)
        if len(signature) != 64:
            raise ValueError("a signature of the wrong length")
        public_key = ec.EllipticCurvePublicKey.from_encoded_point(
            ec.SECP256R1(), b64url_decode(key)
        )
        try:
            public_key.verify(
                encode_dss_signature(
                    int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
                ),
                f"{header_b64}.{claims_b64}".encode("ascii"),
                ec.ECDSA(hashes.SHA256()),
            )
        except InvalidSignature as wrong:
            raise ValueError("the signature does not verify") from wrong
        claims = json.loads(b64url_decode(claims_b64))
        if claims.get("aud") != self.origin:
            raise ValueError(f"audience {claims.get('aud')!r} is not this service")
        expiry = int(claims.get("exp", 0))
        if not time.time() < expiry <= time.time() + LONGEST_EXPIRY:
            raise ValueError("expired, or expiring more than 24 hours ahead")
        if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
            raise ValueError("no contact (sub) for the sender")
        return claims

    def _take(self, subscription_id: str, headers: Any, body: bytes) -> tuple[int, dict[str, str]]:
        with self._lock:
            subscription = self._subscriptions.get(subscription_id)
            answer = (
                subscription.answers.popleft() if subscription and subscription.answers else None
            )
        if subscription is None:
            return 410, {}
        if answer is not None:
            return answer
        try:
            claims = self._verify_vapid(headers.get("Authorization", ""))
        except (ValueError, TypeError) as wrong:
            self._refuse(subscription_id, 403, str(wrong))
            return 403, {}
        if headers.get("Content-Encoding") != "aes128gcm" or headers.get("TTL") is None:
            self._refuse(subscription_id, 400, "not aes128gcm, or no TTL")
            return 400, {}
        try:
            plain = http_ece.decrypt(
                body,
                private_key=subscription.private_key,
                auth_secret=subscription.auth,
                version="aes128gcm",
            )
            payload = json.loads(plain)
        except Exception as wrong:
            self._refuse(subscription_id, 400, f"cannot decrypt: {wrong}")
            return 400, {}
        with self._arrived:
            self.received.append(
                Received(
                    subscription_id=subscription_id,
                    payload=payload,
                    ttl=int(headers.get("TTL")),
                    urgency=headers.get("Urgency", ""),
                    claims=claims,
                    at=time.monotonic(),
                )
            )
            self._arrived.notify_all()
        return 201, {"Location": f"{self.origin}/message/{len(self.received)}"}

    def _refuse(self, subscription_id: str, status: int, reason: str) -> None:
        with self._lock:
            self.refused.append(Refused(subscription_id, status, reason))

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        service = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                if not self.path.startswith("/push/"):
                    status, headers = 404, dict[str, str]()
                else:
                    status, headers = service._take(self.path[len("/push/") :], self.headers, body)
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *_args: Any) -> None:
                pass

        return Handler
