"""The project's own documentation: docs/*.md served on the site, linked from every page's footer
and from the README, and a README that works from a fresh clone."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("url_name", "heading"),
    [
        ("doc_rules", "The scoring rules of Zole"),
        ("doc_organising", "Running a tournament"),
    ],
)
def test_each_docs_file_is_a_page_of_the_site(client, url_name, heading):
    response = client.get(reverse(url_name))
    assert response.status_code == 200
    html = response.content.decode()
    assert re.search(rf"<h1[^>]*>{heading}", html)
    assert "<table>" in html or url_name == "doc_organising"
    assert "```" not in html and "](" not in html, "Markdown left unrendered"


def test_links_between_the_docs_lead_to_the_site_pages(client):
    html = client.get(reverse("doc_organising")).content.decode()
    assert f'href="{reverse("doc_rules")}"' in html
    assert 'href="rules.md' not in html


@pytest.mark.django_db
def test_every_page_links_both_in_its_footer(client):
    footer = client.get(reverse("home")).content.decode().split('class="site-footer"')[1]
    assert reverse("doc_rules") in footer
    assert reverse("doc_organising") in footer


def test_the_readme_links_only_files_a_clone_has():
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README)
    local = [link for link in links if "://" not in link]
    assert "docs/rules.md" in local and "docs/organising.md" in local
    for link in local:
        assert (ROOT / link).resolve().is_relative_to(ROOT), link
        assert (ROOT / link).exists(), link


def test_the_readme_calls_python_through_the_venv():
    """A fresh clone has no active venv: `python manage.py` fails with "No module named django"."""
    commands = re.findall(r"^\s*(?:\$ )?(python3? manage\.py.*)$", README, re.M)
    commands += re.findall(r"`(python3? manage\.py[^`]*)`", README)
    assert commands == []
