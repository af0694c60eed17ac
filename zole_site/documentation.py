"""The project's own documentation (docs/*.md), served on the site as HTML: one text for the
README, a clone and the site. English (docs/*.md) is the original; docs/<language>/*.md are its
translations, served to a reader of that language, their headings carrying the original's ids so
an address such as /rules/#presets leads to the same place in every language. The files are the
project's, not visitors' input, so their HTML is trusted."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import markdown
from django.conf import settings
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

DOCS_DIR = settings.BASE_DIR / "docs"

# Each served page: its file in docs/ and its URL name.
PAGES = {"rules": "rules.md", "organising": "organising.md"}
ORIGINAL_LANGUAGE = "en"

# A link between the files ("organising.md#seat") becomes a link between the pages.
_DOC_LINK = re.compile(r'href="(?P<file>[a-z_-]+\.md)(?P<anchor>#[^"]*)?"')


# A heading (the toc extension gives each its id) or the start of a table.
_HEADING_OR_TABLE = re.compile(r'<h[1-6] id="(?P<id>[^"]+)"|<table>')


@dataclass(frozen=True)
class DocPage:
    title: str
    body: SafeString
    language: str


def doc_path(page: str, language: str) -> Path:
    """Where the page's text in that language is kept (whether or not it is there)."""
    if language == ORIGINAL_LANGUAGE:
        return DOCS_DIR / PAGES[page]
    return DOCS_DIR / language / PAGES[page]


def doc_page(page: str, language: str | None = None) -> DocPage:
    """The page as HTML in the language (the reader's by default), the English original where it
    has no translation; its title the file's first heading. Rendered once per version of the
    file (its modification time), so an edited file shows without a restart."""
    language = (language or get_language() or ORIGINAL_LANGUAGE).split("-")[0]
    path = doc_path(page, language)
    if not path.exists():
        language, path = ORIGINAL_LANGUAGE, doc_path(page, ORIGINAL_LANGUAGE)
    return _render(path, path.stat().st_mtime_ns, language)


def scrolling_tables(html: str) -> str:
    """Each table in a box that scrolls sideways on a phone, its first column kept (site.css).
    A keyboard reaches the box to scroll it (tabindex), and a screen reader names it by the
    heading above the table."""
    heading = ""

    def box(match: re.Match[str]) -> str:
        nonlocal heading
        if match["id"]:
            heading = match["id"]
            return match[0]
        name = f' aria-labelledby="{heading}"' if heading else ""
        return f'<div class="table-scroll" tabindex="0" role="region"{name}><table>'

    return _HEADING_OR_TABLE.sub(box, html).replace("</table>", "</table></div>")


@lru_cache(maxsize=len(PAGES) * len(settings.LANGUAGES) * 2)
def _render(path: Path, _version: int, language: str) -> DocPage:
    converter = markdown.Markdown(
        extensions=["tables", "fenced_code", "attr_list", "toc", "sane_lists"]
    )
    html = converter.convert(path.read_text(encoding="utf-8"))
    urls = {file: reverse(f"doc_{name}") for name, file in PAGES.items()}

    def site_link(match: re.Match[str]) -> str:
        url = urls.get(match["file"])
        if url is None:
            return match[0]
        return f'href="{url}{match["anchor"] or ""}"'

    html = scrolling_tables(_DOC_LINK.sub(site_link, html))
    tokens = converter.toc_tokens  # type: ignore[attr-defined]
    title = tokens[0]["name"] if tokens else path.stem
    return DocPage(title=title, body=mark_safe(html), language=language)
