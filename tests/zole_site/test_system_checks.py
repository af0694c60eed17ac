"""`manage.py check --deploy` warns when the public pages' cache is not one that every process
shares (zole_site/system_checks.py)."""

from __future__ import annotations

from django.test import override_settings

from zole_site.system_checks import shared_cache_check

LOCAL = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
SHARED = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}


@override_settings(DEBUG=False, CACHES=LOCAL)
def test_a_cache_of_each_process_is_warned_about():
    (warning,) = shared_cache_check()
    assert warning.id == "zole_site.W001"
    assert "REDIS_URL" in warning.hint


@override_settings(DEBUG=False, CACHES=SHARED)
def test_a_cache_outside_the_process_is_not():
    assert shared_cache_check() == []


@override_settings(DEBUG=True, CACHES=LOCAL)
def test_nor_is_a_developer_s_own_server():
    assert shared_cache_check() == []
