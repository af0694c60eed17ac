"""Crash test: the server is killed (SIGKILL) in the middle of a round while a referee enters
deals, then restarted. Every deal the server acknowledged is stored exactly once, nothing is
half-written, and entry continues where it stopped."""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEALS = 24
KILL_AFTER = 9  # acknowledged deals before the server is killed

SETUP = """
from tests.factories import make_published_round, make_tournament
from tournaments.models import TableToken
round_ = make_published_round(make_tournament(slug="crash"), players=3)
table = round_.tables.get()
seats = table.seats.order_by("position").values_list("entry_id", flat=True)
print("TOKEN", TableToken.objects.get(table=table).token)
print("PLAYERS", ",".join(str(entry_id) for entry_id in seats))
"""

COUNT = """
from scoring.models import DealResult, TableResult
from tournaments.models import Table
table = Table.objects.get(round__tournament__slug="crash")
rows = list(DealResult.objects.filter(table=table).values_list("position", "version", "client_key"))
print("ROWS", len(rows), len({r[2] for r in rows}), len({(r[0], r[1]) for r in rows}))
print("POSITIONS", ",".join(str(r[0]) for r in sorted(rows)))
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def manage(env: dict[str, str], *args: str, stdin: str | None = None) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return result.stdout


def start_server(env: dict[str, str], port: int) -> subprocess.Popen:
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise AssertionError("the server did not start")


class Referee:
    """A phone at the table: keeps its cookies, posts each deal with its own client key and
    resends the same submission when the connection breaks."""

    def __init__(self, base: str, token: str) -> None:
        self.url = f"{base}/r/{token}/"
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
            NoRedirect(),
        )

    def csrf(self) -> str:
        with self.opener.open(self.url, timeout=10) as response:
            page = response.read().decode()
        return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)

    def post_deal(self, position: int, declarer: str, client_key: str) -> int:
        data = urllib.parse.urlencode(
            {
                "csrfmiddlewaretoken": self.csrf(),
                "action": "deal",
                "deal-position": position,
                "deal-client_key": client_key,
                "deal-game": "lielais",
                "deal-declarer": declarer,
                "deal-points": 75,
                "deal-tricks": 5,
            }
        ).encode()
        request = urllib.request.Request(self.url, data=data, headers={"Referer": self.url})
        try:
            with self.opener.open(request, timeout=10) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None  # a 302 after a saved deal is the acknowledgement itself


@pytest.fixture
def server_env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    database_url = os.environ.get("DATABASE_URL", "")
    if database_url.startswith("postgres"):
        import psycopg

        name = f"zole_crash_{uuid.uuid4().hex[:8]}"
        admin = database_url.rsplit("/", 1)[0] + "/postgres"
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        env["DATABASE_URL"] = database_url.rsplit("/", 1)[0] + f"/{name}"
        yield env
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    else:
        env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'crash.sqlite3'}"
        yield env


def test_acknowledged_deals_survive_a_killed_server_and_entry_continues(server_env):
    manage(server_env, "migrate", "--noinput")
    setup = manage(server_env, "shell", stdin=SETUP)
    token = re.search(r"TOKEN (\S+)", setup).group(1)
    players = re.search(r"PLAYERS (\S+)", setup).group(1).split(",")
    port = free_port()
    referee = Referee(f"http://127.0.0.1:{port}", token)
    acknowledged: list[str] = []
    failures: list[str] = []
    interrupted = threading.Event()

    def enter_the_round() -> None:
        """The referee's phone: one deal after another; when the connection breaks it waits
        and resends the very same submission (same client key)."""
        for position in range(1, DEALS + 1):
            key = uuid.uuid4().hex
            deadline = time.monotonic() + 60
            while True:
                try:
                    status = referee.post_deal(position, players[position % 3], key)
                except OSError:  # the server is gone (or not back yet): try again
                    interrupted.set()
                    if time.monotonic() > deadline:
                        failures.append(f"deal {position}: the server never came back")
                        return
                    time.sleep(0.2)
                    continue
                if status != 302:
                    failures.append(f"deal {position} answered {status}")
                    return
                acknowledged.append(key)
                break

    server = start_server(server_env, port)
    phone = threading.Thread(target=enter_the_round)
    phone.start()
    try:
        while len(acknowledged) < KILL_AFTER and phone.is_alive():
            time.sleep(0.005)
        os.kill(server.pid, signal.SIGKILL)  # in the middle of the round, mid-request or not
        server.wait(timeout=10)
        time.sleep(0.5)
        server = start_server(server_env, port)
        phone.join(timeout=120)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=10)

    assert not failures, failures
    assert interrupted.is_set()  # the phone really met the dead server
    assert len(acknowledged) == len(set(acknowledged)) == DEALS
    counts = manage(server_env, "shell", stdin=COUNT)
    rows, keys, positions = map(int, re.search(r"ROWS (\d+) (\d+) (\d+)", counts).groups())
    assert rows == keys == positions == DEALS  # each acknowledged deal once, no duplicate
    stored = re.search(r"POSITIONS (\S+)", counts).group(1).split(",")
    assert stored == [str(number) for number in range(1, DEALS + 1)]
