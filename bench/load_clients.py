"""The load test's clients (load.py): phones entering deals as a table's page does, viewers
and programs polling the standings, and the phases they play against the server."""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from loopback import http, server_cpu

RETRY_STATUSES = (502, 503, 504)
CSRF_INPUT = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')


@dataclass
class Phase:
    name: str
    entry: list[float] = field(default_factory=list)  # the deal's POST, each send
    reload: list[float] = field(default_factory=list)  # the sheet read after the save
    standings: list[float] = field(default_factory=list)
    api_standings: list[float] = field(default_factory=list)
    deals: int = 0  # acknowledged
    resends: int = 0
    doubles: int = 0
    seconds: float = 0.0
    client_cpu: float = 0.0
    server_cpu: float = 0.0


@dataclass
class Run:
    port: int
    double: float = 0.05  # the share of deals sent twice on purpose (a double tap)
    script: bool = False  # phones send deals as the page's script does (the sync, JSON)
    acknowledged: set[str] = field(default_factory=set)
    server_errors: list[str] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    viewer_failures: list[str] = field(default_factory=list)  # no deal is lost by these
    targets_met: bool = False  # at the national final's load
    heavier_under_target: bool = False  # at the heavier load too


class Phone:
    """One table's phone: its link, seats, cookies and the next position to enter."""

    def __init__(self, token: str, seats: list[str], deals: int) -> None:
        self.url = f"/r/{token}/"
        self.seats = seats
        self.deals = deals
        self.position = 1
        self.cookies: dict[str, str] = {}
        self.csrf: str | None = None
        self.rng = random.Random(token)

    @property
    def done(self) -> bool:
        return self.position > self.deals

    async def read_sheet(self, run: Run, phase: Phase | None, path: str | None = None) -> bool:
        answer = await http(run.port, "GET", path or self.url, cookies=self.cookies)
        self.cookies.update(answer.cookies)
        match = CSRF_INPUT.search(answer.body)
        if answer.status >= 500 or match is None:
            if answer.status not in RETRY_STATUSES:
                run.server_errors.append(f"GET {self.url}: {answer.status}")
            return False
        self.csrf = match.group(1).decode()
        if phase is not None:
            phase.reload.append(answer.seconds)
        return True

    async def enter_deal(self, run: Run, phase: Phase) -> None:
        """The next deal, sent until the server answers (a resend after a 5xx or a broken
        connection), then the sheet read again, as the page does."""
        attempt = 0
        while self.csrf is None:
            try:
                if await self.read_sheet(run, None):
                    break
            except (OSError, TimeoutError):
                pass
            attempt += 1
            await asyncio.sleep(min(2**attempt, 10))
        key = uuid.uuid4().hex
        position = self.position
        form = {
            "csrfmiddlewaretoken": self.csrf,
            "action": "deal",
            "deal-position": position,
            "deal-client_key": key,
            "deal-game": "lielais",
            "deal-declarer": self.seats[position % 3],
            "deal-points": 75,
            "deal-tricks": 5,
        }
        path, extra = self.url, None
        sent: dict[str, Any] = {"form": form}
        if run.script:  # the page's script: the deal form's fields, through the sync
            fields = {name: str(value) for name, value in form.items() if name.startswith("deal-")}
            entry = {"key": key, "action": "deal", "fields": fields, "scores": None}
            path = f"{self.url}entries/"
            sent = {"json_body": {"entries": [entry], "waiting": 1, "refused": 0}}
            extra = {"X-CSRFToken": self.csrf or ""}
        sends = 2 if self.rng.random() < run.double else 1
        in_place = False  # answered with the sheet and the next forms: no page to read
        for send in range(sends):
            attempt = 0
            while True:
                try:
                    answer = await http(
                        run.port, "POST", path, cookies=self.cookies, extra=extra, **sent
                    )
                except (OSError, TimeoutError):
                    answer = None
                if answer is not None:
                    phase.entry.append(answer.seconds)
                    self.cookies.update(answer.cookies)
                    if answer.status == 302:
                        in_place = False
                        break
                    if run.script and answer.status == 200 and stored(answer.body):
                        in_place = True
                        break
                    if answer.status not in RETRY_STATUSES:
                        target = run.server_errors if answer.status >= 500 else run.refusals
                        target.append(f"POST deal {position} at {self.url[3:9]}: {answer.status}")
                        self.position = self.deals + 1  # this phone stops
                        return
                phase.resends += 1
                asked = answer.headers.get("retry-after", "") if answer is not None else ""
                pause = int(asked) if asked.isdigit() else 2**attempt
                attempt += 1
                await asyncio.sleep(min(max(pause, 1), 10))
            if send == 0:
                run.acknowledged.add(key)
                phase.deals += 1
            else:
                phase.doubles += 1
        self.position += 1
        if in_place:
            return
        try:
            await self.read_sheet(run, phase, f"{self.url}?saved={uuid.uuid4().hex[:8]}")
        except (OSError, TimeoutError):
            self.csrf = None  # read again before the next deal


def stored(body: bytes) -> bool:
    """The sync's answer says the one deal sent is stored."""
    try:
        results = json.loads(body)["results"]
    except (ValueError, KeyError, TypeError):
        return False
    return [result.get("status") for result in results] == ["stored"]


async def referee(phone: Phone, run: Run, phase: Phase, interval: float, stop: float) -> None:
    await asyncio.sleep(phone.rng.uniform(0, interval))  # the tables' deals spread over time
    while not phone.done and time.monotonic() < stop:
        started = time.monotonic()
        await phone.enter_deal(run, phase)
        pause = phone.rng.uniform(interval / 2, interval * 1.5)
        await asyncio.sleep(max(0.0, pause - (time.monotonic() - started)))


async def viewer(run: Run, phase: Phase, poll: float, stop: float, rng: random.Random) -> None:
    await asyncio.sleep(rng.uniform(0, poll))
    while time.monotonic() < stop:
        started = time.monotonic()
        try:
            answer = await http(run.port, "GET", "/t/load/standings/")
        except (OSError, TimeoutError) as error:
            run.viewer_failures.append(f"standings: {type(error).__name__}")
        else:
            phase.standings.append(answer.seconds)
            if answer.status >= 500:
                run.server_errors.append(f"GET standings: {answer.status}")
        await asyncio.sleep(max(0.0, poll - (time.monotonic() - started)))


API_STANDINGS = "/api/v1/tournaments/load/standings"


async def api_viewer(run: Run, phase: Phase, poll: float, stop: float, rng: random.Random) -> None:
    """A program polling the API's standings, sending the ETag it holds: 304 while unchanged."""
    await asyncio.sleep(rng.uniform(0, poll))
    etag = None
    while time.monotonic() < stop:
        started = time.monotonic()
        headers: dict[str, str] = {"If-None-Match": etag} if etag else {}
        try:
            answer = await http(run.port, "GET", API_STANDINGS, extra=headers)
        except (OSError, TimeoutError) as error:
            run.viewer_failures.append(f"API standings: {type(error).__name__}")
        else:
            phase.api_standings.append(answer.seconds)
            if answer.status >= 500:
                run.server_errors.append(f"GET API standings: {answer.status}")
            elif answer.status == 200:
                etag = answer.headers.get("etag", etag)
        await asyncio.sleep(max(0.0, poll - (time.monotonic() - started)))


async def back_to_back(phone: Phone, run: Run, phase: Phase, stop: float) -> None:
    while not phone.done and time.monotonic() < stop:
        await phone.enter_deal(run, phase)


async def play(
    phase: Phase, server_pid: int, tasks: list, *, seconds: float, grace: float = 60.0
) -> None:
    cpu_start, server_start, started = time.process_time(), server_cpu(server_pid), time.monotonic()
    running = [asyncio.ensure_future(task) for task in tasks]
    # The phones stop starting deals at the end; a deal on its way is sent until it is saved.
    await asyncio.wait(running, timeout=seconds + grace)
    for task in running:
        task.cancel()
    phase.seconds = time.monotonic() - started
    phase.client_cpu = time.process_time() - cpu_start
    phase.server_cpu = server_cpu(server_pid) - server_start
