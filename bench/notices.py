"""Benchmark of the seating's messages: a round published for `--players` subscribed players, every
message at the push service within 5 s (p95), and the publish request no slower for it.

It builds (a throwaway SQLite database, production settings: DEBUG off) tournaments of
`--players` registered players, each with round 1 seated as a draft; in half of them every
player's phone is subscribed (one each, languages lv/ru/en in turn) at a push service on
loopback started in this process (demo.push_service: it checks the VAPID signature and decrypts
each message; `--push-process`: in a process of its own, its work off this process's time, as a
real push service's is), in the other half nobody is. The organiser, signed in, publishes each
round through Django's test client with the fields his round page posts (the check-in ticks),
the two kinds interleaved, `--repeat` times each. The sender is the production default, a thread
of this process woken when the publish commits, as in a web worker.

Each publish is timed by the wall clock (what the organiser waits: the target's ratio), by the
process's CPU (which counts the sender thread and the push service once they start, before the
response has left) and by the request thread's own CPU (work done for the request alone: one
notice row, whatever the subscribers; its queries are counted once). The round page the
organiser is sent to next is timed too: it is read while the sender thread works. Between two
publishes every message of the last one has arrived and the sender thread has ended. A message's
latency is from the end of the request (and from its start) to its arrival at the push service.
Every subscribed player must get exactly one message per publish, naming his table and seat:
anything missing, repeated or wrong fails the run. /healthz, timed in the same run, is the
baseline.

    .venv/bin/python bench/notices.py [--players 150 --repeat 7 --push-process --json]
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import multiprocessing
import os
import statistics
import sys
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

# simulated puts the repository on sys.path: demo and notices are imported from it.
from simulated import setup_django

from demo.push_service import PushService, Received, Refused
from notices.push import vapid_keys_make

RATIO_TARGET = 1.1
LATENCY_TARGET_SECONDS = 5.0
LANGUAGES = ("lv", "ru", "en")
# How long the messages of one publish may take before they are counted missing.
ARRIVAL_TIMEOUT_SECONDS = 60.0


@dataclass
class Publish:
    """A draft round to publish, and who is to hear of it."""

    slug: str
    round_id: int
    form: dict[str, object]
    # Subscription id at the push service -> (language, table number, seat position).
    phones: dict[str, tuple[str, int, int]] = field(default_factory=dict)


def _serve_push(connection: Connection, vapid_public_key: str) -> None:
    """The push service's process: its answers to PushServiceProcess's calls."""
    service = PushService(vapid_public_key=vapid_public_key).start()
    connection.send(service.origin)
    while True:
        command, argument = connection.recv()
        if command == "subscribe":
            connection.send(service.subscribe())
        elif command == "wait_for":
            connection.send(service.wait_for(*argument))
        elif command == "refused":
            connection.send(list(service.refused))
        else:
            service.stop()
            connection.send(None)
            return


class PushServiceProcess:
    """The push service in a process of its own, as a real one is elsewhere: its work (the
    signature checked, the message decrypted) then takes nothing of this process's time."""

    def __init__(self, *, vapid_public_key: str) -> None:
        self._connection, child = multiprocessing.Pipe()
        self._process = multiprocessing.Process(
            target=_serve_push, args=(child, vapid_public_key), daemon=True
        )
        self._process.start()
        self.origin: str = self._connection.recv()

    def _call(self, command: str, argument: object = None):
        self._connection.send((command, argument))
        return self._connection.recv()

    def subscribe(self) -> dict[str, Any]:
        return self._call("subscribe")

    def wait_for(self, count: int, timeout: float = 10.0) -> list[Received]:
        return self._call("wait_for", (count, timeout))

    @property
    def received(self) -> list[Received]:
        return self.wait_for(0, 0)

    @property
    def refused(self) -> list[Refused]:
        return self._call("refused")

    def stop(self) -> None:
        self._call("stop")
        self._process.join()


def build_publishes(
    count: int, players: int, service: PushService | PushServiceProcess, subscribed: bool
):
    """`count` tournaments of `players` with round 1 seated, not yet published; with
    `subscribed`, every player's phone at `service`."""
    from django.db import transaction
    from django.test import override_settings

    from hall.selectors import last_check_in_id
    from notices.services import push_subscribe
    from scoring.services import round_generate_seating
    from tournaments import services
    from tournaments.models import Player, Registration, Seat, Tournament

    kind = "with" if subscribed else "none"
    publishes = []
    for number in range(count):
        slug = f"notices-{kind}-{number}"
        with transaction.atomic():
            tournament = Tournament.objects.create(
                name=f"Paziņojumu tests {number}",
                slug=slug,
                starts_on=datetime.date.today(),
                avoid_same_club=False,
            )
            people = Player.objects.bulk_create(
                Player(full_name=f"Spēlētājs {kind} {number}.{index}") for index in range(players)
            )
            Registration.objects.bulk_create(
                Registration(tournament=tournament, player=player) for player in people
            )
        # Check-in opens for everyone; its notice is sent at once, before any phone subscribes,
        # so that no sender thread's late check-in message reaches a phone during the measures.
        with override_settings(NOTICES_SENDER="inline"):
            round_ = services.round_create(tournament=tournament)
        round_generate_seating(round_=round_, mode="random", seed=number + 1, by=None)
        registrations = list(tournament.registrations.order_by("pk"))
        publish = Publish(
            slug=slug,
            round_id=round_.pk,
            # What the round page's form posts with its Publish button: the check-in as ticked.
            form={
                "attendance": "1",
                "check_ins_shown": str(last_check_in_id(round_=round_)),
                "registrations": [str(registration.pk) for registration in registrations],
                "mode": "random",
                "seed": str(number + 1),
            },
        )
        if subscribed:
            seats = {
                seat.registration_id: (seat.table.number, seat.position)
                for seat in Seat.objects.filter(table__round=round_).select_related("table")
            }
            for index, registration in enumerate(registrations):
                language = LANGUAGES[index % len(LANGUAGES)]
                browser = service.subscribe()
                push_subscribe(
                    registration=registration,
                    endpoint=browser["endpoint"],
                    p256dh=browser["keys"]["p256dh"],
                    auth=browser["keys"]["auth"],
                    language=language,
                )
                subscription_id = browser["endpoint"].rsplit("/", 1)[-1]
                publish.phones[subscription_id] = (language, *seats[registration.pk])
        publishes.append(publish)
    return publishes


def seat_text(language: str, round_number: int, table: int, seat: int) -> str:
    """The words the message must hold: the seating message's own sentence, in his language."""
    from django.utils import translation
    from django.utils.translation import gettext as _

    with translation.override(language):
        return _("Round %(number)d: table %(table)d, seat %(seat)d.") % {
            "number": round_number,
            "table": table,
            "seat": seat,
        }


def sender_idle(timeout: float) -> bool:
    """Wait until the sender thread has ended (it ends when nothing is pending)."""
    from notices.services import sender

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        thread = sender._thread
        if thread is None:
            return True
        thread.join(timeout=0.05)
    return sender._thread is None


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (`share` of 1) of `values`."""
    ordered = sorted(values)
    rank = min(max(math.ceil(share * len(ordered)), 1), len(ordered))
    return ordered[rank - 1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=150)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument(
        "--push-process",
        action="store_true",
        help="run the push service in a process of its own, not in a thread of this one",
    )
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    args = parser.parse_args()

    private_key, public_key = vapid_keys_make()
    service: PushService | PushServiceProcess
    if args.push_process:
        service = PushServiceProcess(vapid_public_key=public_key)
    else:
        service = PushService(vapid_public_key=public_key).start()
    # Production settings (DEBUG off: no query log, cached templates), plain HTTP in the test
    # client, the sender a thread of this process, the push service on loopback the only one.
    os.environ.update(
        DEBUG="0",
        SECRET_KEY="bench-only-" + uuid.uuid4().hex,
        ALLOWED_HOSTS="testserver",
        HTTPS="0",
        VAPID_PUBLIC_KEY=public_key,
        VAPID_PRIVATE_KEY=private_key,
        VAPID_SUBJECT="mailto:bench@example.org",
        PUSH_SERVICES=service.origin,
        NOTICES_SENDER="thread",
    )
    os.environ.pop("REDIS_URL", None)
    setup_django("notices")
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)  # DEBUG off: the manifest
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from notices.models import Delivery, DeliveryState, Notice

    build_start = time.perf_counter()
    # One of each first, unmeasured: the first publish imports and warms what the others reuse.
    with_subscribers = build_publishes(args.repeat + 1, args.players, service, subscribed=True)
    without = build_publishes(args.repeat + 1, args.players, service, subscribed=False)
    build_seconds = time.perf_counter() - build_start

    organiser = User.objects.create_user(username="organiser", password="x", is_staff=True)
    client = Client()
    client.force_login(organiser)
    client.get("/healthz")

    failures: list[str] = []
    wall: dict[str, list[float]] = {"with": [], "none": []}
    process_cpu: dict[str, list[float]] = {"with": [], "none": []}
    thread_cpu: dict[str, list[float]] = {"with": [], "none": []}
    round_page: dict[str, list[float]] = {"with": [], "none": []}
    trivial_wall: list[float] = []
    trivial_cpu: list[float] = []
    after_response: list[float] = []
    after_start: list[float] = []
    counts = Counter[str]()
    query_counts: dict[str, int] = {}

    def publish(target: Publish, kind: str, measured: bool) -> None:
        url = reverse("organise:publish", args=[target.slug, 1])
        arrived_before = len(service.received)
        start_cpu = time.process_time()
        start_thread = time.thread_time()
        start = time.monotonic()
        if measured:
            response = client.post(url, target.form)
        else:  # the warm-up: its queries counted (the request's thread only), not its time
            with CaptureQueriesContext(connection) as queries:
                response = client.post(url, target.form)
            query_counts[kind] = len(queries)
        end = time.monotonic()
        end_thread = time.thread_time()
        end_cpu = time.process_time()
        if response.status_code != 302:
            failures.append(f"publish {target.slug}: status {response.status_code}")
        # The organiser's browser follows the redirect at once, while the sender thread starts.
        page_start = time.monotonic()
        page = client.get(response["Location"])
        page_wall = time.monotonic() - page_start
        if page.status_code != 200:
            failures.append(f"round page after {target.slug}: status {page.status_code}")
        expected = len(target.phones)
        every = service.wait_for(arrived_before + expected, timeout=ARRIVAL_TIMEOUT_SECONDS)
        if not sender_idle(ARRIVAL_TIMEOUT_SECONDS):
            failures.append(f"publish {target.slug}: the sender thread did not end")
        arrived = every[arrived_before:]
        if measured:
            wall[kind].append(end - start)
            process_cpu[kind].append(end_cpu - start_cpu)
            thread_cpu[kind].append(end_thread - start_thread)
            round_page[kind].append(page_wall)
            counts["expected"] += expected
        per_phone = Counter(message.subscription_id for message in arrived)
        for message in arrived:
            phone = target.phones.get(message.subscription_id)
            if phone is None:
                failures.append(f"publish {target.slug}: a message to a phone not of it")
                counts["stray"] += measured
                continue
            language, table, seat = phone
            if seat_text(language, 1, table, seat) not in message.payload.get("body", ""):
                failures.append(f"publish {target.slug}: {message.payload.get('body')!r}")
                counts["wrong_text"] += measured
            if measured:
                counts["delivered"] += 1
                after_response.append(message.at - end)
                after_start.append(message.at - start)
        missing = [phone for phone in target.phones if per_phone[phone] == 0]
        repeated = sum(count - 1 for count in per_phone.values() if count > 1)
        if missing:
            failures.append(f"publish {target.slug}: {len(missing)} phones got no message")
        if repeated:
            failures.append(f"publish {target.slug}: {repeated} messages repeated")
        if measured:
            counts["missing"] += len(missing)
            counts["duplicates"] += repeated

    def trivial() -> None:
        start_cpu = time.process_time()
        start = time.monotonic()
        client.get("/healthz")
        trivial_wall.append(time.monotonic() - start)
        trivial_cpu.append(time.process_time() - start_cpu)

    publish(with_subscribers[0], "with", measured=False)
    publish(without[0], "none", measured=False)
    for index in range(1, args.repeat + 1):
        # Interleaved, each kind first in turn: a drift of the machine falls on both.
        pair = [(with_subscribers[index], "with"), (without[index], "none")]
        for target, kind in pair if index % 2 else reversed(pair):
            trivial()
            publish(target, kind, measured=True)

    states = Counter(Delivery.objects.values_list("state", flat=True))
    received, refused = len(service.received), service.refused
    if states.get(DeliveryState.SENT, 0) != received:
        failures.append(f"deliveries {dict(states)}, messages received {received}")
    if Notice.objects.filter(expanded_at__isnull=True).exists():
        failures.append("a notice was never expanded")
    if refused:
        failures.append(f"the push service refused {len(refused)}: {refused[0]}")
    service.stop()

    def ms(values: list[float]) -> float:
        return statistics.median(values) * 1000

    base_wall, base_cpu = ms(trivial_wall), ms(trivial_cpu)
    with_wall, none_wall = ms(wall["with"]), ms(wall["none"])
    with_cpu, none_cpu = ms(process_cpu["with"]), ms(process_cpu["none"])
    with_thread, none_thread = ms(thread_cpu["with"]), ms(thread_cpu["none"])
    ratio = with_wall / none_wall
    latency = {
        "after_response_p50_s": percentile(after_response, 0.5) if after_response else None,
        "after_response_p95_s": percentile(after_response, 0.95) if after_response else None,
        "after_response_max_s": max(after_response) if after_response else None,
        "after_start_p50_s": percentile(after_start, 0.5) if after_start else None,
        "after_start_p95_s": percentile(after_start, 0.95) if after_start else None,
        "after_start_max_s": max(after_start) if after_start else None,
    }
    p95 = latency["after_start_p95_s"]
    ratio_met = ratio <= RATIO_TARGET
    latency_met = p95 is not None and p95 <= LATENCY_TARGET_SECONDS

    print(
        f"Seating messages benchmark: {args.players} players, {args.repeat} publishes with every "
        f"phone subscribed and {args.repeat} with none, interleaved; SQLite, DEBUG off, the "
        f"sender a thread of this process, the push service "
        f"{'a process of its own' if args.push_process else 'threads of this process'}; "
        f"built in {build_seconds:.1f} s"
    )
    print(f"{'publish request, median':40} {'wall ms':>9} {'CPU ms':>9} {'its thread':>11}")
    rows = [
        ("trivial page (/healthz), the baseline", base_wall, base_cpu, base_cpu),
        (f"publish, {args.players} phones subscribed", with_wall, with_cpu, with_thread),
        ("publish, no phone subscribed", none_wall, none_cpu, none_thread),
    ]
    for name, wall_ms, cpu_ms, thread_ms in rows:
        print(f"{name:40} {wall_ms:>9.2f} {cpu_ms:>9.2f} {thread_ms:>11.2f}")
    print(
        f"x trivial (wall): {with_wall / base_wall:.1f} with, {none_wall / base_wall:.1f} without; "
        f"ratio with/without: wall {ratio:.3f}, CPU {with_cpu / none_cpu:.3f}, "
        f"the request's thread {with_thread / none_thread:.3f}"
    )
    page_with, page_none = ms(round_page["with"]), ms(round_page["none"])
    print(
        f"the round page read right after (the redirect followed), wall ms: {page_with:.2f} "
        f"with, {page_none:.2f} without: ratio {page_with / page_none:.3f}"
    )
    print(
        f"queries of the publish request: {query_counts['with']} with the phones subscribed, "
        f"{query_counts['none']} with none"
    )
    if after_response:
        print(
            f"messages: {counts['delivered']} of {counts['expected']} arrived "
            f"({counts['missing']} missing, {counts['duplicates']} repeated, "
            f"{counts['wrong_text']} without their table and seat)"
        )
        for since in ("response", "start"):
            print(
                f"latency after the request's {since}, s: "
                f"p50 {latency[f'after_{since}_p50_s']:.3f}, "
                f"p95 {latency[f'after_{since}_p95_s']:.3f}, "
                f"max {latency[f'after_{since}_max_s']:.3f}"
            )
    print(
        f"target: publish wall time with/without subscribers <= {RATIO_TARGET}: "
        f"{'met' if ratio_met else 'NOT met'}"
    )
    print(
        f"target: messages within {LATENCY_TARGET_SECONDS:.0f} s of the publish's start (p95): "
        f"{'met' if latency_met else 'NOT met'}"
    )
    for line in failures[:10]:
        print("FAILED:", line, file=sys.stderr)
    if args.json:
        print(
            json.dumps(
                {
                    "players": args.players,
                    "repeat": args.repeat,
                    "push_process": args.push_process,
                    "trivial_ms": base_wall,
                    "trivial_cpu_ms": base_cpu,
                    "publish_with_ms": with_wall,
                    "publish_none_ms": none_wall,
                    "publish_with_cpu_ms": with_cpu,
                    "publish_none_cpu_ms": none_cpu,
                    "publish_with_thread_cpu_ms": with_thread,
                    "publish_none_thread_cpu_ms": none_thread,
                    "ratio": ratio,
                    "ratio_cpu": with_cpu / none_cpu,
                    "ratio_thread_cpu": with_thread / none_thread,
                    "round_page_with_ms": page_with,
                    "round_page_none_ms": page_none,
                    "queries_with": query_counts["with"],
                    "queries_none": query_counts["none"],
                    "messages_expected": counts["expected"],
                    "messages_delivered": counts["delivered"],
                    "missing": counts["missing"],
                    "duplicates": counts["duplicates"],
                    "wrong_text": counts["wrong_text"],
                    "stray": counts["stray"],
                    **latency,
                    "ratio_target_met": ratio_met,
                    "latency_target_met": latency_met,
                    "failures": len(failures),
                }
            )
        )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
