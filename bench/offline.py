"""Benchmark of the table phone's offline-first entry, measured in Chromium as a slow phone: the
CPU throttled 4x (DevTools protocol, Emulation.setCPUThrottlingRate) and DevTools' "Slow 4G"
network (Network.emulateNetworkConditions: 562.5 ms latency, 180 kB/s down, 84 kB/s up). The
network profile slows the page's own requests; its service worker's (the copies it keeps when it
arrives) go at loopback speed, though their bytes are counted.

It seats a published round of tables of four (a throwaway SQLite database, production settings:
DEBUG off, the collected static files, gunicorn on loopback as `make serve` runs it) and
measures, each beside a baseline measured in the same run and their ratio:

- from the tap on Save to the new row on screen (the next animation frame after it is in the
  page), the median over a round's deals, online and offline (target <= 50 ms: the phone writes
  the row itself); the baseline is the same deal sent as a plain form (JavaScript off: the
  POST, its redirect and the page read again, to the first paint);
- the table page's first load: the bytes transferred (the page, its files and the copies its
  service worker keeps for the link to open offline) and the time to a usable form (the deal
  form there and the phone's queue ready); the baseline is the same page with JavaScript off
  (its bytes, and its first paint);
- the page's start with no network, served by its service worker (target <= 1 s); the baseline
  is the first load above;
- a round's deals, queued on the phone while offline, reaching the server once the connection is
  back, on loopback (CPU still throttled, the network not: target <= 2 s); the baseline is the
  same deals posted as plain forms one after another on loopback.

    .venv/bin/python bench/offline.py [--deals 28] [--repeat 3] [--quick] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

# Production settings (DEBUG off: the collected, hashed and compressed static files as a
# deployment serves them), plain HTTP on loopback.
os.environ.update(
    DEBUG="0",
    SECRET_KEY="bench-only-" + uuid.uuid4().hex,
    ALLOWED_HOSTS="localhost,127.0.0.1",
    HTTPS="0",
    # Playwright's synchronous API runs an event loop in this thread; the ORM calls around it
    # are synchronous and safe.
    DJANGO_ALLOW_ASYNC_UNSAFE="true",
)
os.environ.pop("REDIS_URL", None)

from simulated import setup_django

SAVE_TARGET_MS = 50.0
OFFLINE_START_TARGET_MS = 1000.0
QUEUED_TARGET_MS = 2000.0
CPU_SLOWDOWN = 4
# DevTools' "Slow 4G" preset (its "Fast 3G" before): bytes per second, milliseconds.
SLOW_4G = {
    "offline": False,
    "latency": 562.5,
    "downloadThroughput": 180_000,
    "uploadThroughput": 84_375,
}
LOOPBACK = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}

# Recorded from the document's start: when the deal form is usable (its Save button there and,
# with the phone's script, its queue ready: section#entry-form's data-queue).
RECORD_USABLE = """
(() => {
  const usable = () => {
    const section = document.getElementById("entry-form");
    return section !== null && section.dataset.queue !== undefined
      && section.querySelector(".entry-deal-form .entry-submit") !== null;
  };
  const check = () => {
    if (window.__usableAt === undefined && usable()) {
      window.__usableAt = performance.now();
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true, attributes: true });
})();
"""

# The deal's form filled in, then the time from the tap on Save to the next
# animation frame after its row is in the page.
TIMED_SAVE = """
async (deal) => {
  const rows = () => document.querySelectorAll(
    ".entry-sheet tbody tr.entry-row:not(.conflict), .entry-sheet tbody tr.on-phone:not(.conflict)"
  ).length;
  const before = rows();
  let start = 0;
  const shown = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (rows() > before) {
        observer.disconnect();
        requestAnimationFrame(() => resolve(performance.now() - start));
      }
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });
  const form = (FILL_DEAL)(deal);
  start = performance.now();
  form.querySelector("button.entry-submit").click();
  return shown;
}
"""


def build_round(tables: int, deals: int) -> list[str]:
    """A published round of `tables` tables of four playing `deals` deals; each table's link."""
    import datetime

    from scoring.services import round_generate_seating
    from tournaments import services
    from tournaments.models import Player, Registration, TableToken, Tournament

    tournament = Tournament.objects.create(
        name="Bezsaistes tests",
        slug="offline-bench",
        starts_on=datetime.date.today(),
        deals_per_round=deals,
        table_size=4,
        avoid_same_club=False,
    )
    players = Player.objects.bulk_create(
        Player(full_name=f"Spēlētājs Nr. {number}") for number in range(tables * 4)
    )
    Registration.objects.bulk_create(Registration(tournament=tournament, player=p) for p in players)
    round_ = services.round_create(tournament=tournament)
    round_generate_seating(round_=round_, mode="random", seed=1, by=None)
    services.round_publish(round_=round_, by=None)
    return [
        TableToken.objects.get(table=table, revoked_at__isnull=True).token
        for table in round_.tables.order_by("number")
    ]


def stored(token: str) -> int:
    from scoring.models import DealResult

    return DealResult.objects.filter(
        table__tokens__token=token, table__tokens__revoked_at__isnull=True
    ).count()


class Phone:
    """A browser context as a slow phone: its page, and the DevTools session that slows it."""

    def __init__(self, browser, *, javascript: bool = True, network=SLOW_4G) -> None:
        from tests.e2e.conftest import PHONE

        self.context = browser.new_context(
            viewport=PHONE, locale="lv-LV", java_script_enabled=javascript
        )
        self.context.add_init_script(RECORD_USABLE)
        self.page = self.context.new_page()
        self.page.set_default_timeout(120_000)
        self.cdp = self.context.new_cdp_session(self.page)
        self.cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
        self.network(network)
        # Bytes received, headers and (compressed) bodies, by the page and its service worker
        # (which fetches the page's files for its cache when it arrives).
        self.received = 0
        self.in_flight = 0
        self.context.on("request", self._started)
        self.context.on("requestfinished", self._count)
        self.context.on("requestfailed", self._failed)

    def _started(self, _request) -> None:
        self.in_flight += 1

    def _failed(self, _request) -> None:
        self.in_flight -= 1

    def _count(self, request) -> None:
        self.in_flight -= 1
        if request.response() is not None and request.response().from_service_worker:
            return  # from the worker's cache: nothing came over the network
        sizes = request.sizes()
        self.received += sizes["responseHeadersSize"] + sizes["responseBodySize"]

    def settled(self, quiet_ms: int = 500) -> None:
        """Returns once no request has been on its way for `quiet_ms`."""
        quiet = 0
        while quiet < quiet_ms:
            self.page.wait_for_timeout(50)
            quiet = quiet + 50 if self.in_flight <= 0 else 0

    def network(self, conditions) -> None:
        self.cdp.send("Network.emulateNetworkConditions", conditions)

    def offline(self, offline: bool) -> None:
        # Playwright's switch reaches the service worker too, not only this page.
        self.context.set_offline(offline)

    def usable_ms(self) -> float:
        """Milliseconds from the navigation's start to a usable form."""
        self.page.wait_for_function("() => window.__usableAt !== undefined")
        return self.page.evaluate("window.__usableAt")

    def close(self) -> None:
        self.context.close()


def first_paint_ms(page) -> float:
    """Milliseconds from the navigation's start (a form's submission, its redirect included) to
    the page's first paint of content."""
    return page.evaluate(
        """() => {
          const paint = performance.getEntriesByName("first-contentful-paint")[0];
          const navigation = performance.getEntriesByType("navigation")[0];
          return paint ? paint.startTime : navigation.domContentLoadedEventEnd;
        }"""
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=28, help="deals per round (tables of 4)")
    parser.add_argument("--plain", type=int, default=6, help="deals sent as plain forms")
    parser.add_argument("--repeat", type=int, default=3, help="first loads and offline starts")
    parser.add_argument("--quick", action="store_true", help="3 deals, 1 plain, 1 repeat")
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    args = parser.parse_args()
    if args.quick:
        args.deals, args.plain, args.repeat = 3, 1, 1

    from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS
    from tests.e2e.table_phone import FILL_DEAL, planned_deal
    from tests.test_crash import free_port, start_gunicorn

    workdir = setup_django("offline")
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    tokens = build_round(5, args.deals)
    port = free_port()
    base = f"http://localhost:{port}"  # by name: a service worker needs a secure origin
    server = start_gunicorn(dict(os.environ), port, workdir / "gunicorn.log")
    from playwright.sync_api import sync_playwright

    failures: list[str] = []
    timed_save = TIMED_SAVE.replace("FILL_DEAL", FILL_DEAL.strip())
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            figures = measure(browser, base, tokens, args, timed_save, planned_deal)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
    for name, token, expected in figures.pop("expected_stored"):
        if stored(token) != expected:
            failures.append(f"{name}: the server holds {stored(token)} deals of {expected}")
    report(figures, args)
    for line in failures:
        print("FAILED:", line, file=sys.stderr)
    if args.json:
        print(json.dumps({**figures, "failures": len(failures)}))
    return 1 if failures else 0


def measure(browser, base, tokens, args, timed_save, planned_deal):
    from tests.e2e.table_phone import QUEUE_IDLE as queue_idle
    from tests.e2e.table_phone import TAKEN

    online_table, offline_table, plain_table, load_table, queued_plain_table = tokens
    figures: dict[str, object] = {"deals": args.deals}

    # The first load, with and without JavaScript; then, on the same phone, its start offline.
    loads, load_bytes, plain_loads, plain_bytes, offline_starts = [], [], [], [], []
    link = f"{base}/r/{load_table}/"
    for _ in range(args.repeat):
        phone = Phone(browser)
        phone.page.goto(link)
        loads.append(phone.usable_ms())
        # Everything the phone needs to open the link offline: the page, its files, and the
        # copies its service worker keeps.
        phone.page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        phone.settled()
        load_bytes.append(phone.received)
        phone.offline(True)
        phone.page.reload()
        offline_starts.append(phone.usable_ms())
        phone.close()
        phone = Phone(browser, javascript=False)
        phone.page.goto(link)
        phone.settled()
        plain_loads.append(first_paint_ms(phone.page))
        plain_bytes.append(phone.received)
        phone.close()
    figures["first_load_ms"] = statistics.median(loads)
    figures["first_load_bytes"] = statistics.median(load_bytes)
    figures["plain_load_ms"] = statistics.median(plain_loads)
    figures["plain_load_bytes"] = statistics.median(plain_bytes)
    figures["offline_start_ms"] = statistics.median(offline_starts)

    # Save to the new row: online, then offline (on another table), every deal of a round.
    saves: dict[str, list[float]] = {"online": [], "offline": []}
    for mode, token in (("online", online_table), ("offline", offline_table)):
        phone = Phone(browser)
        phone.page.goto(f"{base}/r/{token}/")
        phone.usable_ms()
        phone.page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        if mode == "offline":
            phone.offline(True)
        for number in range(1, args.deals + 1):
            saves[mode].append(phone.page.evaluate(timed_save, planned_deal(number)))
            phone.page.wait_for_function(TAKEN, arg=number)  # the next form in place
        if mode == "online":
            phone.page.wait_for_function(queue_idle)
        else:
            # The queued round reaches the server: loopback, the CPU still slowed.
            phone.network(LOOPBACK)
            start = time.perf_counter()
            phone.offline(False)
            phone.page.wait_for_function(queue_idle, polling=10)
            figures["queued_ms"] = (time.perf_counter() - start) * 1000
        phone.close()
    figures["save_online_ms"] = statistics.median(saves["online"])
    figures["save_offline_ms"] = statistics.median(saves["offline"])

    # The baselines sent as plain forms (JavaScript off): a deal on the slow network, to its
    # first paint; then a round's deals one after another on loopback.
    phone = Phone(browser, javascript=False)
    phone.page.goto(f"{base}/r/{plain_table}/")
    plain_saves = []
    for number in range(1, args.plain + 1):
        plain_post(phone.page, planned_deal(number))
        plain_saves.append(first_paint_ms(phone.page))
    phone.close()
    figures["save_plain_ms"] = statistics.median(plain_saves)
    phone = Phone(browser, javascript=False, network=LOOPBACK)
    phone.page.goto(f"{base}/r/{queued_plain_table}/")
    start = time.perf_counter()
    for number in range(1, args.deals + 1):
        plain_post(phone.page, planned_deal(number))
    figures["queued_plain_ms"] = (time.perf_counter() - start) * 1000
    phone.close()

    figures["expected_stored"] = [
        ("online", online_table, args.deals),
        ("offline", offline_table, args.deals),
        ("plain", plain_table, args.plain),
        ("plain round", queued_plain_table, args.deals),
    ]
    figures["save_target_met"] = max(figures["save_online_ms"], figures["save_offline_ms"]) <= (
        SAVE_TARGET_MS
    )
    figures["offline_start_target_met"] = figures["offline_start_ms"] <= OFFLINE_START_TARGET_MS
    figures["queued_target_met"] = figures["queued_ms"] <= QUEUED_TARGET_MS
    return figures


def plain_post(page, deal: dict[str, object]) -> None:
    """The deal sent as the plain form (JavaScript off: the browser posts it and loads the
    page it is sent back to)."""
    form = page.locator("#entry-form form.entry-deal-form").first
    form.locator(f"input[name='deal-game'][value='{deal['game']}']").check()
    if deal["points"] is not None:
        out = form.locator("input[name='deal-sits_out']")
        sitting_out = out.input_value() if out.count() else None
        players = [
            radio
            for radio in form.locator("input[name='deal-declarer']").all()
            if radio.get_attribute("value") != sitting_out
        ]
        players[deal["choice"] % len(players)].check()
        form.locator("input[name='deal-points']").fill(str(deal["points"]))
        form.locator("input[name='deal-tricks']").fill(str(deal["tricks"]))
    with page.expect_navigation(wait_until="load"):
        form.locator("button.entry-submit").click()


def report(figures: dict[str, object], args) -> None:
    print(
        f"Offline entry benchmark: Chromium, CPU {CPU_SLOWDOWN}x slower, DevTools' Slow 4G "
        f"network; a table of 4, {args.deals} deals; medians"
    )
    print(f"{'':52} {'figure':>10} {'baseline':>10} {'x':>6}")

    def line(name: str, value: float, baseline: float, unit: str = "ms") -> None:
        print(
            f"{name:52} {value:>8.0f}{unit:>2} {baseline:>8.0f}{unit:>2} {value / baseline:>6.2f}"
        )

    plain = figures["save_plain_ms"]
    line("Save to the new row, online (plain form post)", figures["save_online_ms"], plain)
    line("Save to the new row, offline (plain form post)", figures["save_offline_ms"], plain)
    line(
        "first load: bytes (the page without JavaScript)",
        figures["first_load_bytes"],
        figures["plain_load_bytes"],
        "B",
    )
    line(
        "first load: usable form (without JavaScript)",
        figures["first_load_ms"],
        figures["plain_load_ms"],
    )
    line(
        "start with no network (the first load)",
        figures["offline_start_ms"],
        figures["first_load_ms"],
    )
    line(
        f"{args.deals} queued deals reach the server (plain forms)",
        figures["queued_ms"],
        figures["queued_plain_ms"],
    )
    print('"x": the figure over its baseline, both measured in this run')
    for name, met, target in (
        ("Save to the new row", figures["save_target_met"], f"<= {SAVE_TARGET_MS:.0f} ms"),
        (
            "start with no network",
            figures["offline_start_target_met"],
            f"<= {OFFLINE_START_TARGET_MS:.0f} ms",
        ),
        (
            "queued deals reach the server",
            figures["queued_target_met"],
            f"<= {QUEUED_TARGET_MS:.0f} ms",
        ),
    ):
        print(f"target: {name} {target}: {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    sys.exit(main())
