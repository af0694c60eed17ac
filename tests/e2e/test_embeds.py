"""A page of another site frames the embeds in a real browser: Chromium shows the embed it is
allowed to frame, and refuses the same tournament's full standings page, which no site may
frame. The other site is a small HTTP server of its own, on another port: another origin."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.e2e.conftest import OVERFLOWING_ELEMENTS
from tests.tournament_play import played_tournament

pytestmark = pytest.mark.django_db(transaction=True)


class ClubSite:
    """A club's site whose one page frames the two addresses it is given."""

    def __init__(self) -> None:
        self.frames: dict[str, str] = {}
        site = self

        class Page(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                frames = "".join(
                    f'<iframe id="{name}" src="{src}" width="360" height="400"></iframe>'
                    for name, src in site.frames.items()
                )
                body = f"<!DOCTYPE html><title>Klubs</title>{frames}".encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
        self.origin = f"http://127.0.0.1:{self.server.server_port}"


def refused_frames(page, *, seconds: float = 10) -> list[object]:
    """The frames Chromium refused to show (its error page in their place), once there is one."""
    for _ in range(int(seconds * 10)):
        refused = [frame for frame in page.frames if frame.url.startswith("chrome-error://")]
        if refused:
            return refused
        page.wait_for_timeout(100)
    return []


@pytest.fixture
def club_site() -> Iterator[ClubSite]:
    site = ClubSite()
    thread = threading.Thread(target=site.server.serve_forever, daemon=True)
    thread.start()
    yield site
    site.server.shutdown()
    site.server.server_close()


def test_another_site_shows_the_embed_and_not_the_full_page(
    live_server, browser, club_site, settings
):
    from playwright.sync_api import expect

    settings.EMBED_FRAME_ANCESTORS = [club_site.origin]
    tournament = played_tournament(players=6, rounds=1, slug="ramis")
    club_site.frames = {
        "embed": f"{live_server.url}/embed/t/{tournament.slug}/standings/",
        "full": f"{live_server.url}/t/{tournament.slug}/standings/",
    }
    context = browser.new_context(viewport={"width": 400, "height": 900}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        with page.expect_response(club_site.frames["full"]) as full:
            page.goto(club_site.origin)
        assert full.value.status == 200  # served, but the browser will not show it here

        embed = page.frame_locator("#embed")
        expect(embed.locator("table.embed-table tbody tr")).to_have_count(6)
        expect(embed.locator("h1")).to_have_text(tournament.name)
        # Chromium puts its own error page in the refused frame: no page of the site is there.
        assert [frame.url for frame in refused_frames(page)] == ["chrome-error://chromewebdata/"]
        assert page.frame_locator("#full").locator("table").count() == 0
    finally:
        context.close()


def test_every_embed_fits_a_frame_300_px_wide(live_server, browser, season):
    import datetime

    from django.utils import timezone

    from demo.synthetic import build_played_tournaments
    from ranking.services import ranking_recompute
    from tests.factories import make_tournament

    build_played_tournaments(players=12, tournaments=1, per_tournament=12, rounds=2, seed=3)
    ranking_recompute()
    tournament = played_tournament(
        players=9, rounds=2, slug="plats", name="Latvijas Zoles federācijas čempionāta fināls"
    )
    make_tournament(
        name="Vidzemes reģiona atklātais zoles turnīrs",
        starts_on=timezone.localdate() + datetime.timedelta(days=7),
        venue="Valmieras kultūras centrs",
    )
    context = browser.new_context(viewport={"width": 300, "height": 600}, locale="lv-LV")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        for path in [
            "/embed/tournaments/",
            f"/embed/t/{tournament.slug}/standings/",
            "/embed/ranking/",
        ]:
            page.goto(live_server.url + path)
            assert page.locator("h1").count() == 1, path
            assert page.evaluate("document.documentElement.scrollWidth") <= 300, path
            assert page.evaluate(OVERFLOWING_ELEMENTS) == [], path
    finally:
        context.close()
