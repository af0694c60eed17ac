"""Hostile input against the language switcher."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.hostile import hostile_client

pytestmark = pytest.mark.django_db


class TestLanguage:
    def test_the_language_switcher(self):
        client = hostile_client()
        for code in ("de", "LV", "%3Cscript%3E", "lv-x", "x" * 5000):
            assert client.get(f"/language/{code}/").status_code == 404, code[:40]
        for next_url in (
            "https://evil.example/",
            "//evil.example",
            "/\\evil.example",
            "javascript:alert(1)",
            "x" * 5000,
        ):
            response = client.get(reverse("language", args=["ru"]), {"next": next_url})
            assert response.status_code == 302, next_url[:40]
            assert response.url.startswith("/") and not response.url.startswith("//")
            assert "evil" not in response.url
