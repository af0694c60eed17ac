"""What lets a table link open offline, as the server serves it: the service worker (scoped to
the table links by its address), the link's web app manifest, and the page that names both."""

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone

from core.security import CSP_HEADER
from entry.offline import TABLE_PAGE_ASSETS, TABLE_PAGE_MODULES
from tests.factories import make_organiser, make_published_round, make_tournament
from tournaments.models import TableToken

pytestmark = pytest.mark.django_db

WORKER = "/r/table-worker.js"
IMPORTED = re.compile(r"""from\s*["']\./([^"']+)["']\s*;""")


def a_link():
    round_ = make_published_round(make_tournament(name="Rīgas kauss", table_size=3), players=3)
    table = round_.tables.get()
    return table, TableToken.objects.get(table=table, revoked_at__isnull=True)


class TestTheWorker:
    def test_is_served_under_the_table_links_so_its_scope_is_theirs_only(self, client):
        assert reverse("entry:table_worker") == WORKER
        response = client.get(WORKER)
        assert response.status_code == 200
        assert response["Content-Type"] == "text/javascript; charset=utf-8"
        # Its address gives it /r/ at most: no header widens it.
        assert "Service-Worker-Allowed" not in response
        assert response["Cache-Control"] == "no-cache"

    def test_runs_under_the_pages_strict_policy(self, client):
        policy = client.get(WORKER)[CSP_HEADER]
        assert policy == settings.CONTENT_SECURITY_POLICY
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy

    def test_lists_every_file_of_the_table_page_under_its_served_name(self, client):
        script = client.get(WORKER).content.decode()
        assets = json.loads(script.split("const ASSETS = ", 1)[1].split(";\n", 1)[0])
        assert assets == [static(name) for name in TABLE_PAGE_ASSETS]
        for name in TABLE_PAGE_ASSETS:
            assert finders.find(name), f"{name} is not a static file"

    def test_keeps_every_module_the_phones_script_imports(self):
        # An offline reload loads each of them from the worker's copies.
        imported = {"js/table/page.js"}
        for name in sorted(TABLE_PAGE_MODULES):
            source = Path(finders.find(name)).read_text(encoding="utf-8")
            imported |= {f"js/table/{module}" for module in IMPORTED.findall(source)}
        assert imported == set(TABLE_PAGE_MODULES)

    def test_never_keeps_a_post_answer(self, client):
        script = client.get(WORKER).content.decode()
        assert 'if (request.method !== "GET") return;' in script

    def test_only_reads(self, client):
        assert client.post(WORKER).status_code == 405


class TestTheManifest:
    def test_opens_the_tables_sheet_named_in_the_readers_language(self, client):
        table, link = a_link()
        page = reverse("entry:token_sheet", args=[link.token])
        response = client.get(f"{page}manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="lv")
        assert response.status_code == 200
        assert response["Content-Type"] == "application/manifest+json"
        manifest = json.loads(response.content)
        assert manifest["start_url"] == page
        assert manifest["scope"] == page
        assert manifest["short_name"] == f"{table.round.number}. kārta · {table.number}. galds"
        assert manifest["name"].endswith("Rīgas kauss")
        assert manifest["lang"] == "lv"
        assert manifest["icons"][0]["src"] == static("img/table-icon.svg")

    def test_a_link_never_issued_or_revoked_has_none(self, client):
        _table, link = a_link()
        unknown = reverse("entry:table_manifest", args=["x" * 43])
        assert client.get(unknown).status_code == 404
        TableToken.objects.filter(pk=link.pk).update(revoked_at=timezone.now())
        revoked = reverse("entry:table_manifest", args=[link.token])
        assert client.get(revoked).status_code == 404


class TestTheTablePage:
    def test_the_link_names_its_manifest_worker_and_hidden_offline_note(self, client):
        _table, link = a_link()
        page = reverse("entry:token_sheet", args=[link.token])
        html = client.get(page).content.decode()
        assert f'<link rel="manifest" href="{page}manifest.webmanifest">' in html
        assert f'data-worker="{WORKER}" data-scope="/r/"' in html
        # Shown only by the worker, on the copy it serves with no network.
        assert "data-offline-note hidden>" in html

    def test_an_organisers_sheet_registers_no_worker(self, client):
        table, _link = a_link()
        client.force_login(make_organiser())
        html = client.get(reverse("entry:table_sheet", args=[table.pk])).content.decode()
        assert "table-offline.js" not in html
        assert "manifest" not in html
        assert "data-offline-note" not in html
