"""Every answer carries the security headers, the refusals made before the page included: a
page the browser shows (an error page too) may never be framed or run a script from elsewhere."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import reverse

from core.security import ContentSecurityPolicyMiddleware, frameable, with_frame_ancestors
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
    return client.post(reverse("organise:player_import"), {"file": upload})


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


API = "/api/v1/tournaments"


def api_server_error(client: Client, monkeypatch: pytest.MonkeyPatch) -> HttpResponse:
    def broken() -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr("api.tournaments_api.selectors.public_tournament_list", broken)
    return client.get(API)


API_ERRORS: dict[str, tuple[int, Callable[..., HttpResponse], str | None]] = {
    "a NUL in a query": (400, lambda c: c.get(API, {"season": "20\x0026"}), "season"),
    "a NUL in the address": (400, lambda c: c.get(API + "%00"), None),
    "a NUL in a cookie": (400, lambda c: c.get(API, HTTP_COOKIE="sessionid=ab\x00c"), "sessionid"),
    "a body over the size limit": (
        413,
        lambda c: c.post(
            "/api/v1/tournaments/kauss/players",
            b"{" + b" " * settings.REQUEST_BODY_MAX_BYTES + b"}",
            content_type="application/json",
        ),
        None,
    ),
    "a host not served": (400, lambda c: c.get(API, HTTP_HOST="not-this-site.example"), None),
    "an address outside the versions": (404, lambda c: c.get("/api/v0/tournaments"), None),
    "a method the address does not take": (405, lambda c: c.delete(API), None),
    "a bug in an answer": (500, api_server_error, None),
}


@pytest.mark.parametrize("case", API_ERRORS, ids=list(API_ERRORS))
def test_every_refusal_under_the_api_is_json_saying_why(case, monkeypatch, settings):
    """A program reads the API: what it refuses, whoever refuses it (the site's own checks
    before the API, Django, django-ninja), comes as JSON with a `detail`, never a page."""
    status, make, field = API_ERRORS[case]
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")

    response = make(client, monkeypatch) if make is api_server_error else make(client)

    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert isinstance(body["detail"], str) and body["detail"].strip()
    assert body.get("field") == field
    assert response["X-Content-Type-Options"] == "nosniff"


# --- Pages other sites may frame (the embeds) -----------------------------------------------------


def frameable_page(request: HttpRequest) -> HttpResponse:
    return HttpResponse("<p>Rezultāti</p>")


def test_a_frameable_page_names_the_sites_of_the_setting_in_its_policy_alone(rf, settings):
    settings.EMBED_FRAME_ANCESTORS = ["https://lzf.lv", "https://*.klubs.lv"]
    middleware = ContentSecurityPolicyMiddleware(frameable(frameable_page))
    plain = ContentSecurityPolicyMiddleware(frameable_page)

    framed = middleware(rf.get("/embed/"))
    refused_page = plain(rf.get("/"))

    policy = framed["Content-Security-Policy"]
    assert policy.endswith("; frame-ancestors https://lzf.lv https://*.klubs.lv")
    assert policy.count("frame-ancestors") == 1
    assert policy.replace("frame-ancestors https://lzf.lv https://*.klubs.lv", "") == (
        settings.CONTENT_SECURITY_POLICY.replace("frame-ancestors 'none'", "")
    )
    assert framed.xframe_options_exempt is True  # Django's clickjacking middleware sends none
    assert refused_page["Content-Security-Policy"] == settings.CONTENT_SECURITY_POLICY
    assert not getattr(refused_page, "xframe_options_exempt", False)


def test_with_no_site_named_a_frameable_page_is_refused_like_any(rf, settings):
    settings.EMBED_FRAME_ANCESTORS = []

    response = ContentSecurityPolicyMiddleware(frameable(frameable_page))(rf.get("/embed/"))

    assert response["Content-Security-Policy"] == settings.CONTENT_SECURITY_POLICY
    assert not getattr(response, "xframe_options_exempt", False)


def test_the_frame_ancestors_directive_is_replaced_wherever_it_stands():
    policy = "default-src 'self'; frame-ancestors 'none'; img-src 'self'"

    assert with_frame_ancestors(policy, ["*"]) == (
        "default-src 'self'; img-src 'self'; frame-ancestors *"
    )
