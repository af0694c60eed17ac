"""Load test (issue 6): referees enter a whole round concurrently while viewers poll the
standings, against gunicorn + PostgreSQL (+ Redis) on loopback only.

It prepares a tournament with one published round (3 players a table) in the database that
DATABASE_URL names, starts gunicorn on a free loopback port, and runs, bounded in count and time:
- `--referees` phones (200), one per table, each entering all `--deals` (24) of its table with a
  short think time, resending the same submission after a timeout or a dropped connection, and
  double-submitting `--double` (5 %) of its deals on purpose;
- `--viewers` (1,000) people watching the standings, each reloading every `--poll` seconds (30,
  the page's refresh), played by a pool of threads.
It ends when every table has all its deals or after `--max-seconds`, then checks: zero server
errors, every acknowledged deal stored exactly once (by client key, and no table with a gap or a
duplicate), and prints p50/p95/p99 latencies for entry and for standings.

    DATABASE_URL=postgres://... [REDIS_URL=redis://127.0.0.1:6379/0] \\
        .venv/bin/python bench/load.py [--referees 200 --viewers 1000 --deals 24]

Only loopback addresses are ever contacted.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SECRET_KEY = "load-test-only-" + uuid.uuid4().hex

SETUP = """
import random
from django.db import transaction
from tournaments import services
from tournaments.models import Entry, Player, TableToken, Tournament
import datetime
count = {players}
with transaction.atomic():
    tournament = Tournament.objects.create(
        name="Slodzes tests", slug="load", starts_on=datetime.date.today(),
        deals_per_round={deals}, avoid_same_club=False,
    )
    players = Player.objects.bulk_create(
        Player(full_name=f"Spēlētājs Nr. {{number}}") for number in range(count)
    )
    Entry.objects.bulk_create(Entry(tournament=tournament, player=p) for p in players)
round_ = services.round_create(tournament=tournament)
services.round_generate_seating(round_=round_, mode="random", seed=1, by=None)
services.round_publish(round_=round_, by=None)
for table in round_.tables.order_by("number"):
    token = TableToken.objects.get(table=table, revoked_at__isnull=True).token
    seats = table.seats.order_by("position").values_list("entry_id", flat=True)
    print("TABLE", token, ",".join(str(entry_id) for entry_id in seats))
"""

CHECK = """
from collections import Counter
from scoring.models import DealResult
rows = DealResult.objects.filter(table__round__tournament__slug="load")
keys = Counter(rows.values_list("client_key", flat=True))
positions = Counter(rows.values_list("table_id", "position"))
print("ROWS", rows.count(), "KEYS", len(keys), "DUPLICATE_KEYS", sum(c > 1 for c in keys.values()),
      "DUPLICATE_POSITIONS", sum(c > 1 for c in positions.values()))
print("KEYLIST", ",".join(keys))
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def manage(env: dict[str, str], *args: str, stdin: str | None = None) -> str:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    ).stdout


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None  # the 302 after a saved deal is the acknowledgement


@dataclass
class Results:
    entry_latencies: list[float] = field(default_factory=list)
    standings_latencies: list[float] = field(default_factory=list)
    server_errors: list[str] = field(default_factory=list)
    client_errors: list[str] = field(default_factory=list)
    acknowledged: set[str] = field(default_factory=set)
    retries: int = 0
    doubles: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def timed_open(opener, request, timeout: float) -> tuple[int, bytes, float]:
    start = time.perf_counter()
    try:
        with opener.open(request, timeout=timeout) as response:
            body = response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        body, status = error.read(), error.code
    return status, body, time.perf_counter() - start


def referee(
    base: str,
    token: str,
    seats: list[str],
    deals: int,
    args,
    results: Results,
    stop: threading.Event,
) -> None:
    url = f"{base}/r/{token}/"
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirect()
    )
    rng = random.Random(token)
    for position in range(1, deals + 1):
        key = uuid.uuid4().hex
        declarer = seats[position % 3]
        sends = 2 if rng.random() < args.double else 1  # a double tap
        sent_ok = 0
        while sent_ok < sends and not stop.is_set():
            try:
                status, page, _ = timed_open(opener, url, 30)
                csrf = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
                if status >= 500 or csrf is None:
                    with results.lock:
                        results.server_errors.append(f"GET {url}: {status}")
                    return
                data = urllib.parse.urlencode(
                    {
                        "csrfmiddlewaretoken": csrf.group(1).decode(),
                        "action": "deal",
                        "deal-position": position,
                        "deal-client_key": key,
                        "deal-game": "lielais",
                        "deal-declarer": declarer,
                        "deal-points": 75,
                        "deal-tricks": 5,
                    }
                ).encode()
                request = urllib.request.Request(url, data=data, headers={"Referer": url})
                status, _, seconds = timed_open(opener, request, 30)
            except OSError:  # a timeout or a dropped connection: send the same deal again
                with results.lock:
                    results.retries += 1
                time.sleep(0.5)
                continue
            with results.lock:
                results.entry_latencies.append(seconds)
                if status >= 500:
                    results.server_errors.append(f"POST deal {position} at {url}: {status}")
                    return
                if status != 302:
                    results.client_errors.append(f"deal {position} at {token[:6]}: {status}")
                    return
                results.acknowledged.add(key)
                results.doubles += sent_ok  # the second send of a double tap
            sent_ok += 1
        time.sleep(rng.uniform(args.think / 2, args.think * 1.5))


def viewer_pool(base: str, args, results: Results, stop: threading.Event, index: int) -> None:
    """`args.viewers` people reloading every `args.poll` s: each thread plays its share."""
    share = args.viewers / args.viewer_threads
    interval = args.poll / share
    opener = urllib.request.build_opener()
    rng = random.Random(index)
    time.sleep(rng.uniform(0, interval))
    while not stop.is_set():
        start = time.monotonic()
        try:
            status, _, seconds = timed_open(opener, f"{base}/t/load/standings/", 30)
        except OSError as error:
            with results.lock:
                results.client_errors.append(f"standings: {error}")
        else:
            with results.lock:
                results.standings_latencies.append(seconds)
                if status >= 500:
                    results.server_errors.append(f"GET standings: {status}")
        time.sleep(max(0.0, interval - (time.monotonic() - start)))


def idle_latencies(url: str, count: int = 100) -> list[float]:
    """The baseline, measured in the same run before the load starts: one client asking the
    idle server for `url` again and again."""
    opener = urllib.request.build_opener()
    return [timed_open(opener, url, 30)[2] for _ in range(count)]


def median_ms(values: list[float]) -> float:
    return statistics.median(values) * 1000 if values else float("nan")


def percentiles(values: list[float]) -> str:
    if len(values) < 2:
        return "n/a"
    cuts = statistics.quantiles(values, n=100)
    p50, p95, p99 = (cuts[index] * 1000 for index in (49, 94, 98))
    return f"p50 {p50:7.1f} ms   p95 {p95:7.1f} ms   p99 {p99:7.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description="Zole load test on loopback")
    parser.add_argument("--referees", type=int, default=200, help="tables (one phone each)")
    parser.add_argument("--viewers", type=int, default=1000)
    parser.add_argument("--viewer-threads", type=int, default=40)
    parser.add_argument("--deals", type=int, default=24)
    parser.add_argument("--poll", type=float, default=30.0, help="seconds between reloads")
    parser.add_argument("--think", type=float, default=1.0, help="seconds between deals")
    parser.add_argument("--double", type=float, default=0.05, help="share of double taps")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--max-seconds", type=float, default=600)
    args = parser.parse_args()

    env = dict(os.environ)
    if not env.get("DATABASE_URL", "").startswith("postgres"):
        print("DATABASE_URL must name a PostgreSQL database on loopback", file=sys.stderr)
        return 2
    host = urllib.parse.urlparse(env["DATABASE_URL"]).hostname
    if host not in ("127.0.0.1", "localhost", "::1"):
        print("the load test runs against loopback only", file=sys.stderr)
        return 2
    # Production settings, but plain HTTP: on loopback there is no TLS terminator in front.
    env.update(DEBUG="0", SECRET_KEY=SECRET_KEY, ALLOWED_HOSTS="127.0.0.1,localhost", HTTPS="0")
    manage(env, "migrate", "--noinput")
    manage(env, "flush", "--noinput")  # the load test's own database: start empty
    manage(env, "collectstatic", "--noinput")
    setup = manage(env, "shell", stdin=SETUP.format(players=args.referees * 3, deals=args.deals))
    tables = [line.split()[1:] for line in setup.splitlines() if line.startswith("TABLE")]
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "zole_site.wsgi:application",
            "--workers",
            str(args.workers),
            "--threads",
            str(args.threads),
            "--bind",
            f"127.0.0.1:{port}",
            "--timeout",
            "60",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                print("gunicorn did not start", file=sys.stderr)
                return 1
            time.sleep(0.2)

    # Baselines on the idle server: a page without the database, and the standings themselves.
    idle_health = idle_latencies(f"{base}/healthz")
    idle_standings = idle_latencies(f"{base}/t/load/standings/", count=30)

    results = Results()
    stop = threading.Event()
    phones = [
        threading.Thread(
            target=referee, args=(base, token, seats.split(","), args.deals, args, results, stop)
        )
        for token, seats in tables
    ]
    viewers = [
        threading.Thread(target=viewer_pool, args=(base, args, results, stop, index), daemon=True)
        for index in range(args.viewer_threads)
    ]
    started = time.monotonic()
    for thread in viewers + phones:
        thread.start()
    for phone in phones:
        phone.join(timeout=max(0.0, args.max_seconds - (time.monotonic() - started)))
    stop.set()
    elapsed = time.monotonic() - started
    for thread in phones + viewers:
        thread.join(timeout=35)
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=30)

    check = manage(env, "shell", stdin=CHECK)
    numbers = dict(re.findall(r"\b(ROWS|KEYS|DUPLICATE_KEYS|DUPLICATE_POSITIONS) (\d+)", check))
    stored_keys = set(re.search(r"KEYLIST (\S*)", check).group(1).split(","))
    expected = len(tables) * args.deals
    missing = results.acknowledged - stored_keys
    print(
        f"Load test: {len(tables)} referees x {args.deals} deals, {args.viewers} viewers "
        f"polling every {args.poll:g} s, gunicorn {args.workers}x{args.threads}, "
        f"cache {'Redis' if env.get('REDIS_URL') else 'local memory'}; {elapsed:.0f} s"
    )
    print(
        f"entry     ({len(results.entry_latencies):5} requests)  "
        f"{percentiles(results.entry_latencies)}"
    )
    print(
        f"standings ({len(results.standings_latencies):5} requests)  "
        f"{percentiles(results.standings_latencies)}"
    )
    health_ms = median_ms(idle_health)
    print(
        f"baseline (idle server, one client): healthz p50 {health_ms:.1f} ms, standings p50 "
        f"{median_ms(idle_standings):.1f} ms; under load p50 entry = "
        f"{median_ms(results.entry_latencies) / health_ms:.0f}x healthz, standings = "
        f"{median_ms(results.standings_latencies) / median_ms(idle_standings):.1f}x idle standings"
    )
    print(
        f"deals acknowledged {len(results.acknowledged)} of {expected}; stored "
        f"{numbers['ROWS']}; duplicate keys {numbers['DUPLICATE_KEYS']}; duplicate positions "
        f"{numbers['DUPLICATE_POSITIONS']}; acknowledged but missing {len(missing)}; "
        f"retries {results.retries}; double taps {results.doubles}"
    )
    print(
        f"server errors {len(results.server_errors)}; other refusals {len(results.client_errors)}"
    )
    for line in (results.server_errors + results.client_errors)[:10]:
        print("  ", line)
    ok = (
        not results.server_errors
        and not results.client_errors
        and not missing
        and len(results.acknowledged) == expected == int(numbers["ROWS"])
        and numbers["DUPLICATE_KEYS"] == numbers["DUPLICATE_POSITIONS"] == "0"
    )
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
