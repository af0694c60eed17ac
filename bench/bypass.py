"""Viewers of the cached standings while hostile clients send made-up query strings.

It simulates a tournament (`simulate_tournament --fast`) in a throwaway SQLite database,
starts gunicorn on a loopback port (production settings, one trusted proxy so that each
simulated client has its own address in X-Forwarded-For) and, in one run:

1. "alone": `--viewers` (20) people poll the standings as the page's htmx does, each every
   `--poll` seconds (0.5, spread at random), for `--seconds` (15);
2. "attacked": the same viewers as long again, while `--attackers` (8) clients, each from its
   own address, ask back to back for exports, PDFs and ranking pages with a new random
   parameter each time (`x=<random>`), or a new random value of a parameter the page reads,
   following a redirect as a browser does.

It prints the viewers' p50/p95 in both phases and their ratio (attacked / alone, measured in the
same run: the machine's load cancels out), and what the attackers were answered (200 from the
cache or a render, 302 to the page's one address, 429 once their address rendered too much).

    .venv/bin/python bench/bypass.py [--players 300 --seconds 15 --attackers 8]

Only loopback addresses are ever contacted.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import http, percentiles
from simulated import simulated_tournament

ROOT = Path(__file__).resolve().parent.parent
SLUG = "bench"


def attack_url(rng: random.Random) -> str:
    """An export, a document or a ranking page with a parameter no page reads, or a random
    value of one it reads."""
    junk = uuid.UUID(int=rng.getrandbits(128)).hex[:12]
    return rng.choice(
        [
            f"/t/{SLUG}/standings/?_export=xlsx&x={junk}",
            f"/t/{SLUG}/standings/?_export=csv&x={junk}",
            f"/t/{SLUG}/standings/?x={junk}",
            f"/t/{SLUG}/standings/?sort={junk}",
            f"/t/{SLUG}/standings.pdf?x={junk}",
            f"/t/{SLUG}/rounds/1/seating.pdf?x={junk}",
            f"/t/{SLUG}/rounds/1/?q={junk}",
            f"/ranking/?x={junk}",
            f"/ranking/rating/?_export=xlsx&x={junk}",
            f"/ranking/rating/?x={junk}",
        ]
    )


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
    port: int, address: str, stop: float, rng: random.Random, answers: collections.Counter
) -> None:
    while time.monotonic() < stop:
        path = attack_url(rng)
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


async def phase(args, port: int, *, attackers: int, seed: int) -> tuple[list[float], dict]:
    rng = random.Random(seed)
    stop = time.monotonic() + args.seconds
    times: list[float] = []
    answers: collections.Counter = collections.Counter()
    tasks = [
        viewer(port, f"10.1.{n // 250}.{n % 250 + 1}", args.poll, stop, rng, times)
        for n in range(args.viewers)
    ]
    tasks += [attacker(port, f"10.9.0.{n + 1}", stop, rng, answers) for n in range(attackers)]
    await asyncio.gather(*tasks)
    return times, dict(answers)


async def measure(args, port: int) -> None:
    # Every page asked for once, so that the viewers' page is in the cache in both phases.
    await http(port, "GET", f"/t/{SLUG}/standings/", extra={"HX-Request": "true"})
    alone, _ = await phase(args, port, attackers=0, seed=1)
    attacked, answers = await phase(args, port, attackers=args.attackers, seed=2)
    a50, a95, _ = percentiles(alone)
    b50, b95, _ = percentiles(attacked)
    print(f"viewers alone:    {len(alone):5} polls  p50 {a50:7.1f} ms  p95 {a95:7.1f} ms")
    print(f"viewers attacked: {len(attacked):5} polls  p50 {b50:7.1f} ms  p95 {b95:7.1f} ms")
    print(f"attacked / alone: p50 {b50 / a50:5.1f}x  p95 {b95 / a95:5.1f}x")
    print(
        f"attackers' answers ({args.attackers} clients, {args.seconds:g} s): "
        + ", ".join(f"{status}: {count}" for status, count in sorted(answers.items(), key=str))
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
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "zole_site.wsgi:application",
            *("--workers", str(args.workers), "--threads", str(args.threads)),
            *("--bind", f"127.0.0.1:{port}", "--timeout", "60"),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
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
        time.sleep(1)  # every worker up
        print(
            f"gunicorn {args.workers}x{args.threads}, SQLite, local memory cache; "
            f"{args.viewers} viewers every {args.poll:g} s, {args.attackers} attackers"
        )
        asyncio.run(measure(args, port))
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
