"""Benchmark of deal entry: the server's CPU for one deal POST plus the sheet
the phone reads next, at idle.

It seats a published round of `--tables` tables of three (a throwaway SQLite database,
production settings: DEBUG off) and enters every table's deals in turn through Django's test
client: the way a phone without the entry script does (the deal's POST, 302, then the whole sheet
again); as many other tables the way the phone's script does online (each deal sent alone
through the sync endpoint /r/<token>/entries/ as JSON, answered by the table's state and the
sheet; the next deal's form is the phone's own); and as many again the way it does after a time
offline (the deals sent in batches of up to 28, one request, each deal's share of the batch's CPU
counted). Each is timed with time.process_time (CPU, not wall time: a busy machine slows the wall
clock, not the work), and so is a trivial page (/healthz) in the same run, interleaved, as the
baseline. The sheet is also read once more at the end with the rows kept rendered emptied
(scoring.templatetags.kept_sheet_rows): every row rendered, as a first visit or another worker
does.

    .venv/bin/python bench/entry.py [--tables 8 --deals 24 --json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import uuid
from functools import partial
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))

# Production settings (DEBUG off: no query log, cached templates), plain HTTP in the test client.
os.environ.update(
    DEBUG="0",
    SECRET_KEY="bench-only-" + uuid.uuid4().hex,
    ALLOWED_HOSTS="testserver",
    HTTPS="0",
)
os.environ.pop("REDIS_URL", None)

from simulated import setup_django

TARGET_MS = 10.0
# What a browser sends, a plain form and the entry script alike (URLSearchParams): not the
# multipart body the test client sends by default.
FORM = "application/x-www-form-urlencoded"
JSON = "application/json"
BATCH = 28  # a 4-table's round, queued on a phone offline and sent at once (at most 30)


def build_round(tables: int, deals: int) -> list[tuple[str, list[str]]]:
    """A published round of `tables` tables of three; each table's link and seats."""
    import datetime

    from django.db import transaction

    from scoring.services import round_generate_seating
    from tournaments import services
    from tournaments.models import Player, Registration, TableToken, Tournament

    with transaction.atomic():
        tournament = Tournament.objects.create(
            name="Ievades tests",
            slug="entry-bench",
            starts_on=datetime.date.today(),
            deals_per_round=deals,
            avoid_same_club=False,
        )
        players = Player.objects.bulk_create(
            Player(full_name=f"Spēlētājs Nr. {number}") for number in range(tables * 3)
        )
        Registration.objects.bulk_create(
            Registration(tournament=tournament, player=p) for p in players
        )
    round_ = services.round_create(tournament=tournament)
    round_generate_seating(round_=round_, mode="random", seed=1, by=None)
    services.round_publish(round_=round_, by=None)
    result = []
    for table in round_.tables.order_by("number"):
        token = TableToken.objects.get(table=table, revoked_at__isnull=True).token
        seats = table.seats.order_by("position").values_list("registration_id", flat=True)
        result.append((token, [str(key) for key in seats]))
    return result


def deal_data(position: int, declarer: str) -> dict[str, object]:
    return {
        "action": "deal",
        "deal-position": position,
        "deal-client_key": uuid.uuid4().hex,
        "deal-game": "lielais",
        "deal-declarer": declarer,
        "deal-points": 75,
        "deal-tricks": 5,
    }


def sync_entry(position: int, declarer: str) -> dict[str, object]:
    """A deal as the phone's sync sends it: the deal form's fields (entry.sync)."""
    data = deal_data(position, declarer)
    del data["action"]
    fields = {name: str(value) for name, value in data.items()}
    return {"key": fields["deal-client_key"], "action": "deal", "fields": fields, "scores": None}


def sync_body(entries: list[dict[str, object]]) -> str:
    return json.dumps({"entries": entries, "waiting": len(entries), "refused": 0})


def sync_failure(response, sent: int) -> str | None:
    """What is wrong with a sync's answer, if anything: every entry sent must be stored."""
    if response.status_code != 200:
        return f"status {response.status_code}"
    statuses = [result["status"] for result in response.json()["results"]]
    if statuses != ["stored"] * sent:
        return f"results {statuses}"
    return None


def cpu(call) -> tuple[float, object]:
    start = time.process_time()
    result = call()
    return time.process_time() - start, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--deals", type=int, default=24)
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    args = parser.parse_args()

    setup_django("entry")
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)  # DEBUG off: the manifest
    from django.test import Client

    from scoring.models import DealResult
    from scoring.templatetags.kept_sheet_rows import forget_rows

    every_table = build_round(3 * args.tables, args.deals)
    tables = every_table[: args.tables]
    sync_tables = every_table[args.tables : 2 * args.tables]
    batch_tables = every_table[2 * args.tables :]
    client = Client()
    client.get("/healthz")  # warm the URL resolver, the middleware and the templates
    client.get(f"/r/{tables[0][0]}/")

    trivial: list[float] = []
    posts: list[float] = []
    reloads: list[float] = []
    cold: list[float] = []
    synced: list[float] = []
    batched: list[float] = []  # per deal: a batch's CPU over its deals
    failures: list[str] = []
    for position in range(1, args.deals + 1):
        for token, seats in tables:
            url = f"/r/{token}/"
            seconds, response = cpu(partial(client.get, "/healthz"))
            trivial.append(seconds)
            # The declarer: a player at the table (of three, every one plays).
            data = deal_data(position, seats[position % 3])
            seconds, response = cpu(partial(client.post, url, urlencode(data), content_type=FORM))
            if response.status_code != 302:
                failures.append(f"POST {position}: {response.status_code}")
            posts.append(seconds)
            seconds, response = cpu(partial(client.get, url))
            if response.status_code != 200:
                failures.append(f"GET {position}: {response.status_code}")
            reloads.append(seconds)
        for token, seats in sync_tables:
            body = sync_body([sync_entry(position, seats[position % 3])])
            call = partial(client.post, f"/r/{token}/entries/", body, content_type=JSON)
            seconds, response = cpu(call)
            failure = sync_failure(response, 1)
            if failure:
                failures.append(f"sync {position}: {failure}")
            synced.append(seconds)
    for token, _seats in tables:  # every row rendered: a first visit, another worker
        forget_rows()
        seconds, response = cpu(partial(client.get, f"/r/{token}/"))
        cold.append(seconds)
    for token, seats in batch_tables:
        for first in range(1, args.deals + 1, BATCH):
            positions = range(first, min(first + BATCH, args.deals + 1))
            body = sync_body([sync_entry(position, seats[position % 3]) for position in positions])
            call = partial(client.post, f"/r/{token}/entries/", body, content_type=JSON)
            seconds, response = cpu(call)
            failure = sync_failure(response, len(positions))
            if failure:
                failures.append(f"batch from {first}: {failure}")
            batched.extend([seconds / len(positions)] * len(positions))
    stored = DealResult.objects.count()
    expected = 3 * args.tables * args.deals
    if stored != expected:
        failures.append(f"stored {stored} deals of {expected}")

    base = statistics.median(trivial) * 1000
    post_ms = statistics.median(posts) * 1000
    get_ms = statistics.median(reloads) * 1000
    cold_ms = statistics.median(cold) * 1000
    deal_ms = statistics.median(a + b for a, b in zip(posts, reloads, strict=True)) * 1000
    sync_ms = statistics.median(synced) * 1000
    batch_ms = statistics.median(batched) * 1000
    print(
        f"Deal entry benchmark: {args.tables} tables x {args.deals} deals, SQLite, DEBUG off; "
        f"CPU (process_time), median per deal"
    )
    print(f"{'':46} {'CPU ms':>8} {'x trivial':>10}")
    rows = [
        ("trivial page (/healthz), the baseline", base),
        ("deal POST (302)", post_ms),
        ("sheet read again after the deal", get_ms),
        ("sheet with every row rendered (first visit)", cold_ms),
        ("a deal: POST + sheet read again", deal_ms),
        ("a deal synced alone: POST + state + parts", sync_ms),
        (f"a deal synced in a batch of up to {BATCH}", batch_ms),
    ]
    for name, value in rows:
        print(f"{name:46} {value:>8.2f} {value / base:>10.1f}")
    met = deal_ms <= TARGET_MS
    print(f"target: a deal and its sheet <= {TARGET_MS:.0f} ms CPU: {'met' if met else 'NOT met'}")
    met_script = sync_ms <= TARGET_MS and batch_ms <= TARGET_MS
    print(
        f"target: a deal synced, alone or in a batch, <= {TARGET_MS:.0f} ms CPU: "
        f"{'met' if met_script else 'NOT met'}"
    )
    for line in failures[:10]:
        print("FAILED:", line, file=sys.stderr)
    if args.json:
        print(
            json.dumps(
                {
                    "trivial_ms": base,
                    "post_ms": post_ms,
                    "get_ms": get_ms,
                    "cold_ms": cold_ms,
                    "deal_ms": deal_ms,
                    "sync_ms": sync_ms,
                    "batch_ms": batch_ms,
                    "target_met": met,
                    "script_target_met": met_script,
                    "failures": len(failures),
                }
            )
        )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
