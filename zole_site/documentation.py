"""The project's own documentation (docs/*.md), served on the site as HTML: one text for the
README, a clone and the site. The files are the project's, not visitors' input, so their HTML
is trusted."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import markdown
from django.conf import settings
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

DOCS_DIR = settings.BASE_DIR / "docs"

# Each served page: its file in docs/ and its URL name.
PAGES = {"rules": "rules.md", "organising": "organising.md"}

# A link between the files ("organising.md#seat") becomes a link between the pages.
_DOC_LINK = re.compile(r'href="(?P<file>[a-z_-]+\.md)(?P<anchor>#[^"]*)?"')


@dataclass(frozen=True)
class DocPage:
    title: str
    body: SafeString


def doc_page(page: str) -> DocPage:
    """The page as HTML, its title the file's first heading. Rendered once per version of the
    file (its modification time), so an edited file shows without a restart."""
    path = DOCS_DIR / PAGES[page]
    return _render(path, path.stat().st_mtime_ns)


@lru_cache(maxsize=len(PAGES) * 2)
def _render(path: Path, _version: int) -> DocPage:
    converter = markdown.Markdown(extensions=["tables", "fenced_code", "toc", "sane_lists"])
    html = converter.convert(path.read_text(encoding="utf-8"))
    urls = {file: reverse(f"doc_{name}") for name, file in PAGES.items()}

    def site_link(match: re.Match[str]) -> str:
        url = urls.get(match["file"])
        if url is None:
            return match[0]
        return f'href="{url}{match["anchor"] or ""}"'

    html = _DOC_LINK.sub(site_link, html)
    # A wide table scrolls in its own box on a phone, its first column kept (site.css).
    html = html.replace("<table>", '<div class="table-scroll"><table>').replace(
        "</table>", "</table></div>"
    )
    tokens = converter.toc_tokens  # type: ignore[attr-defined]
    title = tokens[0]["name"] if tokens else path.stem
    return DocPage(title=title, body=mark_safe(html))
