"""The project's own documentation: docs/*.md served on the site, linked from every page's footer
and from the README, and a README that works from a fresh clone."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from zole_site import documentation

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


# Every help page in every language of the site: English is the original (the README links
# it), each translation keeps its structure, so a change to one text without the others fails.
LANGUAGES = [code for code, _name in settings.LANGUAGES]
TRANSLATIONS = [code for code in LANGUAGES if code != "en"]


def doc_file(language: str, page: str) -> Path:
    return documentation.doc_path(page, language)


def doc_html(language: str, page: str) -> str:
    doc = documentation.doc_page(page, language)
    assert doc.language == language, f"{page} has no {language} text"
    return doc.body


def sections(html: str) -> list[tuple[str, str]]:
    """The page cut at its headings: (the heading's level and id, the text under it)."""
    parts = re.split(r'<h([1-6]) id="([^"]+)"', html)
    levels, anchors, bodies = parts[1::3], parts[2::3], parts[3::3]
    return [
        (f"h{level} #{anchor}", body)
        for level, anchor, body in zip(levels, anchors, bodies, strict=True)
    ]


def shape(body: str) -> dict[str, object]:
    """What a translation keeps of a section: its numbers, its code (option names and values,
    commands), its tables' sizes, its list items and its links."""
    code = re.findall(r"<code>(.*?)</code>", body, re.S)
    prose = re.sub(r"<code>.*?</code>|<[^>]+>", " ", body, flags=re.S)
    tables = [
        (table.count("<tr>"), table.split("</tr>")[0].count("<th"))
        for table in re.findall(r"<table>(.*?)</table>", body, re.S)
    ]
    return {
        "numbers": sorted(re.findall(r"\d+", prose)),
        "code": sorted(code),
        "tables": tables,
        "list items": body.count("<li>"),
        "links": sorted(re.findall(r'href="([^"]*)"', body)),
    }


@pytest.mark.parametrize("page", documentation.PAGES)
@pytest.mark.parametrize("language", TRANSLATIONS)
def test_every_help_page_is_translated_into_every_language(language, page):
    assert doc_file(language, page).exists(), doc_file(language, page)
    assert doc_file(language, page) != doc_file("en", page)
    english_title = documentation.doc_page(page, "en").title
    assert documentation.doc_page(page, language).title != english_title


@pytest.mark.parametrize("page", documentation.PAGES)
@pytest.mark.parametrize("language", TRANSLATIONS)
def test_a_translation_has_the_originals_sections_tables_numbers_and_links(language, page):
    original = sections(doc_html("en", page))
    translation = sections(doc_html(language, page))
    assert [heading for heading, _ in translation] == [heading for heading, _ in original]
    for (heading, english), (_, translated) in zip(original, translation, strict=True):
        assert (heading, shape(translated)) == (heading, shape(english))


@pytest.mark.parametrize("page", documentation.PAGES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_link_between_the_help_pages_finds_its_anchor(language, page):
    ids = {
        reverse(f"doc_{name}"): set(re.findall(r' id="([^"]+)"', doc_html(language, name)))
        for name in documentation.PAGES
    }
    html = doc_html(language, page)
    for url, anchor in re.findall(r'href="(/rules/[^"#]*)#?([^"]*)"', html):
        assert url in ids, url
        assert not anchor or anchor in ids[url], (url, anchor)
    for anchor in re.findall(r'href="#([^"]+)"', html):
        assert anchor in ids[reverse(f"doc_{page}")], anchor


@pytest.mark.parametrize(
    ("language", "heading"),
    [
        ("lv", "Zoles skaitīšanas noteikumi"),
        ("ru", "Правила подсчёта очков в золе"),
        ("en", "The scoring rules of Zole"),
    ],
)
def test_the_reader_gets_the_page_in_his_language_without_a_notice(client, language, heading):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = client.get(reverse("doc_rules")).content.decode()
    assert re.search(rf'<article class="doc" lang="{language}">\s*<h1 id="[^"]+">{heading}', html)
    with translation.override(language):
        assert translation.gettext("This page is written in English.") not in html
    assert 'href="#words"' in html or 'id="words"' in html  # one anchor in every language


def test_a_page_without_a_translation_says_it_is_in_english(client, settings, tmp_path):
    settings.LANGUAGE_CODE = "lv"
    (tmp_path / "rules.md").write_text("# Rules\n\ntext\n", encoding="utf-8")
    documentation_dir = documentation.DOCS_DIR
    try:
        documentation.DOCS_DIR = tmp_path
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "lv"
        html = client.get(reverse("doc_rules")).content.decode()
    finally:
        documentation.DOCS_DIR = documentation_dir
    assert '<article class="doc" lang="en">' in html
    with translation.override("lv"):
        assert translation.gettext("This page is written in English.") in html
