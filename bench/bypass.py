"""Viewers of the cached standings while hostile clients send made-up query strings.

It simulates a tournament (`simulate_tournament --fast`) in a throwaway SQLite database,
starts gunicorn on a loopback port (production settings, one trusted proxy so that each
simulated client has its own address in X-Forwarded-For) and, in one run:

1. "alone": `--viewers` (20) people poll the standings as the page's htmx does, each every
   `--poll` seconds (0.5, spread at random), for `--seconds` (15);
2. "attacked": the same viewers as long again, while `--attackers` (8) clients, each from its
   own address, ask back to back for exports, PDFs and ranking pages with a new random
   parameter each time (`x=<random>`), following a redirect as a browser does; with
   `--read-values`, also random values of parameters the pages read (a sort, a search), each a
   new page that only the limit on renders per address holds back.

Between the two, a "plain flood": the same attackers asking for the same pages at their own
addresses (no random part), what any cache at best leaves of such a flood on these cores. It
prints the viewers' p50/p95 in each phase and the ratio to the viewers alone (measured in the
same run: the machine's load cancels out), and what the attackers were answered (200 from the
cache or a render, 302 to the page's one address, 429 once their address rendered too much).

    .venv/bin/python bench/bypass.py [--players 300 --seconds 15 --attackers 8] [--read-values]

Only loopback addresses are ever contacted.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import random
import signal
import subprocess
import sys
import time
import urllib.parse
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loopback import http, percentiles, start_gunicorn
from simulated import simulated_tournament

ROOT = Path(__file__).resolve().parent.parent
SLUG = "bench"


def attack_url(rng: random.Random, read_values: bool, plain: bool = False) -> str:
    """An export, a document or a ranking page with a parameter no page reads; with
    `read_values`, sometimes a random value of a parameter the page reads (a sort, a search):
    a new page each time. `plain`: the same pages at their own addresses."""
    junk = uuid.UUID(int=rng.getrandbits(128)).hex[:12]
    pages = [
        (f"/t/{SLUG}/standings/", "_export=xlsx"),
        (f"/t/{SLUG}/standings/", "_export=csv"),
        (f"/t/{SLUG}/standings/", ""),
        (f"/t/{SLUG}/standings.pdf", ""),
        (f"/t/{SLUG}/rounds/1/seating.pdf", ""),
        ("/ranking/", ""),
        ("/ranking/rating/", "_export=xlsx"),
        ("/ranking/rating/", ""),
    ]
    if read_values:
        pages += [(f"/t/{SLUG}/standings/", "sort=-"), (f"/t/{SLUG}/rounds/1/", "q=")]
    path, query = rng.choice(pages)
    if query.endswith(("=-", "=")):  # a value the page reads: random, a new page
        query = "" if plain else query + junk
    elif not plain:
        query = "&".join(filter(None, (query, f"x={junk}")))
    return f"{path}?{query}" if query else path


async def viewer(
    port: int, address: str, poll: float, stop: float, rng: random.Random, times: list[float]
) -> None:
    await asyncio.sleep(rng.uniform(0, poll))
    while time.monotonic() < stop:
        answer = await http(
            port,
            "GET",
            f"/t/{SLUG}/standings/",
            extra={"HX-Request": "true", "X-Forwarded-For": address},
        )
        if answer.status == 200:
            times.append(answer.seconds)
        await asyncio.sleep(rng.uniform(0.5 * poll, 1.5 * poll))


async def attacker(
    port: int,
    address: str,
    stop: float,
    rng: random.Random,
    answers: collections.Counter,
    read_values: bool,
    plain: bool,
) -> None:
    while time.monotonic() < stop:
        path = attack_url(rng, read_values, plain)
        try:
            answer = await http(port, "GET", path, extra={"X-Forwarded-For": address})
            answers[answer.status] += 1
            location = answer.headers.get("location")
            if answer.status in (301, 302) and location:
                target = urllib.parse.urlsplit(location)
                path = target.path + (f"?{target.query}" if target.query else "")
                followed = await http(port, "GET", path, extra={"X-Forwarded-For": address})
                answers[f"{followed.status} after it"] += 1
            if answer.status == 429:
                await asyncio.sleep(0.05)  # an impatient client: asks again at once
        except (OSError, TimeoutError):
            answers["no answer"] += 1


async def phase(
    args, port: int, *, attackers: int, seed: int, plain: bool = False
) -> tuple[list[float], dict]:
    rng = random.Random(seed)
    stop = time.monotonic() + args.seconds
    times: list[float] = []
    answers: collections.Counter = collections.Counter()
    tasks = [
        viewer(port, f"10.1.{n // 250}.{n % 250 + 1}", args.poll, stop, rng, times)
        for n in range(args.viewers)
    ]
    tasks += [
        attacker(port, f"10.9.0.{n + 1}", stop, rng, answers, args.read_values, plain)
        for n in range(attackers)
    ]
    await asyncio.gather(*tasks)
    return times, dict(answers)


async def measure(args, port: int) -> None:
    # Every page asked for once, so that the viewers' page is in the cache in both phases.
    await http(port, "GET", f"/t/{SLUG}/standings/", extra={"HX-Request": "true"})
    alone, _ = await phase(args, port, attackers=0, seed=1)
    plain, plain_answers = await phase(args, port, attackers=args.attackers, seed=3, plain=True)
    attacked, answers = await phase(args, port, attackers=args.attackers, seed=2)
    a50, a95, _ = percentiles(alone)
    print(f"viewers alone:    {len(alone):5} polls  p50 {a50:7.1f} ms  p95 {a95:7.1f} ms")
    for name, times, counts in (
        ("plain flood", plain, plain_answers),
        ("random queries", attacked, answers),
    ):
        p50, p95, _ = percentiles(times)
        print(
            f"{name + ':':17} {len(times):5} polls  p50 {p50:7.1f} ms  p95 {p95:7.1f} ms   "
            f"/ alone: p50 {p50 / a50:5.1f}x  p95 {p95 / a95:5.1f}x"
        )
        print(
            "   attackers' answers: "
            + ", ".join(f"{status}: {count}" for status, count in sorted(counts.items(), key=str))
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--viewers", type=int, default=20)
    parser.add_argument("--poll", type=float, default=0.5, help="seconds between polls")
    parser.add_argument("--attackers", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=15.0, help="each phase")
    parser.add_argument(
        "--read-values",
        action="store_true",
        help="the attackers also send random values of parameters the pages read (sort, q)",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args()

    started = time.perf_counter()
    simulated_tournament(
        "bypass", players=args.players, rounds=args.rounds, deals=args.deals, seed=1, slug=SLUG
    )
    print(
        f"simulated {args.players} players, {args.rounds} rounds of {args.deals} deals "
        f"({time.perf_counter() - started:.0f} s)"
    )
    env = dict(os.environ)
    # Production settings, but plain HTTP on loopback, and one proxy trusted: the clients'
    # addresses are the ones they send in X-Forwarded-For.
    env.update(
        DEBUG="0",
        SECRET_KEY="bench-only-" + uuid.uuid4().hex,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        HTTPS="0",
        TRUSTED_PROXIES="1",
        DJANGO_SETTINGS_MODULE="zole_site.settings",
    )
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    server, port = start_gunicorn(env, args.workers, args.threads)
    if server is None:
        return 1
    try:
        print(
            f"gunicorn {args.workers}x{args.threads}, SQLite, local memory cache; "
            f"{args.viewers} viewers every {args.poll:g} s, {args.attackers} attackers"
            + (" (random values of read parameters too)" if args.read_values else "")
        )
        asyncio.run(measure(args, port))
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
