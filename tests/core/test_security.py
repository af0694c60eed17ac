"""Every answer carries the security headers, the refusals made before the page included: a
page the browser shows (an error page too) may never be framed or run a script from elsewhere."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from tests.factories import make_organiser

pytestmark = pytest.mark.django_db


def bad_host(client: Client) -> HttpResponse:
    return client.get("/", HTTP_HOST="not-this-site.example")


def csrf_failure(client: Client) -> HttpResponse:
    checking = Client(enforce_csrf_checks=True, raise_request_exception=False)
    return checking.post(reverse("login"), {"username": "a", "password": "b"})


def not_found(client: Client) -> HttpResponse:
    return client.get("/no-such-page/")


def wrong_method(client: Client) -> HttpResponse:
    return client.post(reverse("doc_rules"))


def too_large(client: Client) -> HttpResponse:
    client.force_login(make_organiser())
    body = b"x" * (settings.REQUEST_BODY_MAX_BYTES + 1)
    upload = SimpleUploadedFile("players.csv", body, content_type="text/csv")
    return client.post(reverse("tournaments:player_import"), {"file": upload})


def too_many_failures(client: Client, settings) -> HttpResponse:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "table-link": {"failures": 1, "seconds": 60}}
    client.get(reverse("entry:token_sheet", args=["no-such-link"]))
    return client.get(reverse("entry:token_sheet", args=["no-such-link"]))


def server_error(client: Client, monkeypatch: pytest.MonkeyPatch) -> HttpResponse:
    def broken(page: str) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr("zole_site.views.doc_page", broken)
    return client.get(reverse("doc_rules"))


ERRORS: dict[str, tuple[int, Callable[..., HttpResponse]]] = {
    "a host not served": (400, bad_host),
    "a form without its CSRF token": (403, csrf_failure),
    "an unknown address": (404, not_found),
    "a method the page does not take": (405, wrong_method),
    "a body over the size limit": (413, too_large),
    "too many failed table links": (429, too_many_failures),
    "a bug in a page": (500, server_error),
}


@pytest.mark.parametrize("case", ERRORS, ids=list(ERRORS))
def test_every_error_answer_carries_the_security_headers(case, monkeypatch, settings):
    status, make = ERRORS[case]
    client = Client(raise_request_exception=False)
    extra = {server_error: (monkeypatch,), too_many_failures: (settings,)}.get(make, ())

    response = make(client, *extra)

    assert response.status_code == status
    assert response["Content-Type"].startswith("text/html")
    assert response["Content-Security-Policy"] == settings.CONTENT_SECURITY_POLICY
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
