"""The code an organiser copies to show an embed on his club's or federation's site: an <iframe>
at the embed's absolute address, its attributes escaped, shown as text on his tournament page
(the standings) and his dashboard (the upcoming tournaments, the season ranking)."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from organise.embed_snippets import embed_address, iframe_code
from tests.factories import make_organiser, make_tournament, make_user

pytestmark = pytest.mark.django_db

HOSTILE_NAME = 'Kauss "<script>alert(1)</script>" & Co'


@pytest.fixture
def organiser_client(client: Client) -> Client:
    client.force_login(make_organiser())
    return client


def copied_codes(page: str) -> list[str]:
    """What the organiser copies: each read-only field's text, as the browser shows it."""
    return [
        html.unescape(text)
        for text in re.findall(r'<textarea[^>]*class="embed-code"[^>]*>(.*?)</textarea>', page)
    ]


def iframe_source(code: str) -> str:
    match = re.fullmatch(r'<iframe src="([^"]*)" title="([^"]*)" [^<>]*></iframe>', code)
    assert match is not None, code
    return html.unescape(match.group(1))


def test_the_tournament_page_gives_the_code_of_its_standings(organiser_client: Client):
    tournament = make_tournament(name=HOSTILE_NAME, slug="kauss")

    page = organiser_client.get(reverse("organise:detail", args=[tournament.slug]))
    text = page.content.decode()

    assert "Embed on your site" in text
    [code] = copied_codes(text)
    assert iframe_source(code) == "http://testserver/embed/t/kauss/standings/"
    # The name is in the frame's title, escaped there too: the host page gets no script of it.
    assert "<script>" not in code
    assert 'title="Kauss &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot; &amp; Co' in code
    # The page itself shows the code as text, never as an element.
    assert "<iframe" not in text
    assert "<script>alert(1)" not in text


def test_the_dashboard_gives_the_codes_of_the_upcoming_list_and_the_ranking(
    organiser_client: Client,
):
    text = organiser_client.get(reverse("organise:dashboard")).content.decode()

    assert [iframe_source(code) for code in copied_codes(text)] == [
        "http://testserver/embed/tournaments/",
        "http://testserver/embed/ranking/",
    ]


def test_an_account_with_nothing_to_show_gets_no_codes(client: Client):
    client.force_login(make_user())

    text = client.get(reverse("organise:dashboard")).content.decode()

    assert copied_codes(text) == []


def test_the_codes_point_at_the_site_s_public_address_when_it_is_set(rf, settings):
    settings.SITE_URL = "https://zole.example.lv"
    request = rf.get("/organise/", HTTP_HOST="192.168.1.10:8000")

    assert embed_address(request, "/embed/ranking/") == "https://zole.example.lv/embed/ranking/"


def test_without_it_the_codes_point_at_the_address_of_the_request(rf, settings):
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = ["192.168.1.10"]
    request = rf.get("/organise/", HTTP_HOST="192.168.1.10:8000")

    assert embed_address(request, "/embed/ranking/") == "http://192.168.1.10:8000/embed/ranking/"


def test_the_page_says_when_no_site_may_show_the_frames_yet(organiser_client: Client, settings):
    tournament = make_tournament(slug="kauss")
    url = reverse("organise:detail", args=[tournament.slug])

    settings.EMBED_FRAME_ANCESTORS = []
    refused = organiser_client.get(url).content.decode()
    settings.EMBED_FRAME_ANCESTORS = ["https://klubs.lv"]
    allowed = organiser_client.get(url).content.decode()

    assert "No site may show these frames yet" in refused
    assert "No site may show these frames yet" not in allowed


def test_an_address_with_a_quote_cannot_leave_the_attribute():
    code = iframe_code('https://zole.lv/embed/"><script>x</script>', title="T", height=300)

    assert '"><script>' not in code
    assert iframe_source(code) == 'https://zole.lv/embed/"><script>x</script>'
