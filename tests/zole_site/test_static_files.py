"""The collected static files: the phone's modules import each other under their hashed names,
the names the table links' service worker keeps for an offline reload."""

import re

from django.core.management import call_command
from django.test import override_settings

from entry.offline import TABLE_PAGE_MODULES

IMPORTED = re.compile(r"""from\s*["'](\./[^"']+)["']\s*;""")


def test_a_collected_module_imports_the_hashed_names_of_the_modules_beside_it(tmp_path):
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "zole_site.static_files.HashedStaticFiles"},
    }
    with override_settings(STORAGES=storages, STATIC_ROOT=tmp_path):
        call_command("collectstatic", "--noinput", verbosity=0)
        from django.contrib.staticfiles.storage import staticfiles_storage

        # What the page's modules import, module by module, as collected: the page imports
        # some, and they import others (the sheet's row imports the template's filler).
        imported = {
            name.removeprefix("js/table/"): IMPORTED.findall(
                (tmp_path / staticfiles_storage.stored_name(name)).read_text(encoding="utf-8")
            )
            for name in TABLE_PAGE_MODULES
            if name.startswith("js/table/")
        }
        expected = sorted(
            "./" + staticfiles_storage.stored_name(name).removeprefix("js/table/")
            for name in TABLE_PAGE_MODULES
            if name.startswith("js/table/") and name != "js/table/page.js"
        )
    every_import = sorted({each for names in imported.values() for each in names})
    assert every_import == expected
    assert imported["page.js"], "the page imports its modules"
    assert all(re.search(r"\.[0-9a-f]{12}\.js$", name) for name in every_import)


def test_the_messages_module_imports_its_helper_under_its_hashed_name(tmp_path):
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "zole_site.static_files.HashedStaticFiles"},
    }
    with override_settings(STORAGES=storages, STATIC_ROOT=tmp_path):
        call_command("collectstatic", "--noinput", verbosity=0)
        from django.contrib.staticfiles.storage import staticfiles_storage

        collected = tmp_path / staticfiles_storage.stored_name("js/notices/my-notices.js")
        helper = staticfiles_storage.stored_name("js/notices/push-state.js")
    assert IMPORTED.findall(collected.read_text(encoding="utf-8")) == [
        "./" + helper.removeprefix("js/notices/")
    ]
    assert re.search(r"push-state\.[0-9a-f]{12}\.js$", helper)
