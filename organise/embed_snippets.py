"""The code an organiser copies into his club's or federation's site to show an embed (/embed/)
there: an <iframe> at the site's own address."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import escape
from django.utils.translation import gettext as _

from tournaments.models import Tournament

# The frame's height in pixels: a list's first lines; the frame scrolls for the rest.
LIST_HEIGHT = 420
TABLE_HEIGHT = 560


@dataclass(frozen=True)
class EmbedSnippet:
    label: str
    address: str  # the embed's own address, to open it and see it
    code: str  # the HTML to paste: shown as text, escaped by the template once more


def embed_address(request: HttpRequest, path: str) -> str:
    """The embed's absolute address: at settings.SITE_URL when set (the public address, also for
    an organiser who reached the site by another), else at the address of this request."""
    return settings.SITE_URL + path if settings.SITE_URL else request.build_absolute_uri(path)


def iframe_code(address: str, *, title: str, height: int) -> str:
    """The <iframe> element, its attribute values escaped (a tournament's name may hold quotes
    and angle brackets)."""
    return (
        f'<iframe src="{escape(address)}" title="{escape(title)}" width="100%" '
        f'height="{height}" style="border: 0; max-width: 100%;" loading="lazy"></iframe>'
    )


def _snippet(
    request: HttpRequest, label: str, path: str, *, title: str, height: int
) -> EmbedSnippet:
    address = embed_address(request, path)
    return EmbedSnippet(label, address, iframe_code(address, title=title, height=height))


def tournament_snippets(request: HttpRequest, tournament: Tournament) -> list[EmbedSnippet]:
    """The tournament's standings, shown live on another site."""
    return [
        _snippet(
            request,
            _("Standings"),
            reverse("public:embed_standings", args=[tournament.slug]),
            title=f"{tournament.name} · {_('Standings')}",
            height=TABLE_HEIGHT,
        )
    ]


def site_snippets(request: HttpRequest) -> list[EmbedSnippet]:
    """The upcoming tournaments and the season ranking, shown on another site."""
    return [
        _snippet(
            request,
            _("Upcoming tournaments"),
            reverse("public:embed_upcoming"),
            title=_("Upcoming tournaments"),
            height=LIST_HEIGHT,
        ),
        _snippet(
            request,
            _("Season ranking"),
            reverse("public:embed_ranking"),
            title=_("Season ranking"),
            height=TABLE_HEIGHT,
        ),
    ]
