"""Crash tests.

The server is killed (SIGKILL) in the middle of a round while a referee enters deals, then
restarted: every deal the server acknowledged is stored exactly once, nothing is half-written, and
entry continues where it stopped.

PostgreSQL restarts in the middle of a round under gunicorn while phones enter deals and people
follow the pages: no request gets a 500, every deal lands once, and gunicorn then stops promptly on
SIGTERM."""

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

from tests.servers import NoRedirect, PostgresCluster, free_port, manage, postgres_bin

ROOT = Path(__file__).resolve().parent.parent
DEALS = 24
KILL_AFTER = 9  # acknowledged deals before the server is killed

SETUP = """
from tests.factories import make_published_round, make_tournament
from tournaments.models import TableToken
round_ = make_published_round(make_tournament(slug="crash"), players=3)
table = round_.tables.get()
seats = table.seats.order_by("position").values_list("registration_id", flat=True)
print("TOKEN", TableToken.objects.get(table=table).token)
print("PLAYERS", ",".join(str(registration_id) for registration_id in seats))
"""

COUNT = """
from scoring.models import DealResult, TableResult
from tournaments.models import Table
table = Table.objects.get(round__tournament__slug="crash")
rows = list(DealResult.objects.filter(table=table).values_list("position", "version", "client_key"))
print("ROWS", len(rows), len({r[2] for r in rows}), len({(r[0], r[1]) for r in rows}))
print("POSITIONS", ",".join(str(r[0]) for r in sorted(rows)))
"""


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


# --- A database restart in the middle of a round ------------------------------------------------

TABLES = 6  # phones entering deals at once, one per table
RESTART_DEALS = 12  # deals each phone enters
VIEWERS = 6  # people reloading the public pages without a pause
RESTART_AFTER = TABLES * RESTART_DEALS // 3  # acknowledged deals before PostgreSQL restarts
STOP_SECONDS = 15  # gunicorn gone after SIGTERM: its graceful_timeout (10) and a margin

RESTART_SETUP = """
from tests.factories import make_published_round, make_tournament
from tournaments.models import TableToken
tournament = make_tournament(slug="restart", table_size=3, deals_per_round={deals})
round_ = make_published_round(tournament, players={players})
for table in round_.tables.order_by("number"):
    seats = table.seats.order_by("position").values_list("registration_id", flat=True)
    token = TableToken.objects.get(table=table, revoked_at__isnull=True).token
    print("TABLE", token, ",".join(str(registration_id) for registration_id in seats))
"""

RESTART_COUNT = """
from scoring.models import DealResult
rows = DealResult.objects.filter(table__round__tournament__slug="restart")
print("ROWS", rows.count())
print("KEYS", ",".join(rows.values_list("client_key", flat=True)))
print("PLACES", len(set(rows.values_list("table_id", "position"))))
"""


@pytest.fixture
def own_postgres() -> PostgresCluster:
    bin_dir = postgres_bin()
    if bin_dir is None:
        pytest.skip("no PostgreSQL server installed (/usr/lib/postgresql/*/bin)")
    cluster = PostgresCluster(bin_dir)
    yield cluster
    cluster.remove()


def start_gunicorn(env: dict[str, str], port: int, log: Path) -> subprocess.Popen:
    """gunicorn as `make serve` runs it (the project's gunicorn.conf.py), 2 processes."""
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "zole_site.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "2",
            "--threads",
            "4",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log.open("w"),
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise AssertionError("gunicorn did not start:\n" + log.read_text())


class Phone:
    """A referee's phone as the entry page's script behaves: a deal is sent with its client key;
    when the connection breaks or the server answers 503, the same deal (same key) is sent again
    after a pause, until the server acknowledges it."""

    def __init__(self, base: str, token: str, seats: list[str], answers: list[str]) -> None:
        self.url = f"{base}/r/{token}/"
        self.seats = seats
        self.answers = answers  # every status the server gave, for the test to check
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirect()
        )
        self.acknowledged: list[str] = []
        self.resent = 0

    def send(self, request: urllib.request.Request | str) -> tuple[int, str]:
        try:
            with self.opener.open(request, timeout=30) as response:
                status, body = response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            status, body = error.code, error.read().decode()
        self.answers.append(f"{status} {getattr(request, 'method', 'GET')} {self.url}")
        return status, body

    def enter_the_round(self, deals: int) -> None:
        for position in range(1, deals + 1):
            key = uuid.uuid4().hex
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                status = 0  # no answer: the connection broke
                try:
                    status, page = self.send(self.url)
                    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
                    if status == 200 and csrf:
                        data = {
                            "csrfmiddlewaretoken": csrf.group(1),
                            "action": "deal",
                            "deal-position": position,
                            "deal-client_key": key,
                            "deal-game": "lielais",
                            "deal-declarer": self.seats[position % 3],
                            "deal-points": 75,
                            "deal-tricks": 5,
                        }
                        request = urllib.request.Request(
                            self.url,
                            data=urllib.parse.urlencode(data).encode(),
                            headers={"Referer": self.url},
                        )
                        status, _page = self.send(request)
                        if status == 302:
                            self.acknowledged.append(key)
                            break
                except OSError:  # the connection broke: the same deal again
                    pass
                if status not in (0, 200, 503):
                    return  # refused for good: the test reports the answer
                self.resent += 1
                time.sleep(0.3)


def test_a_database_restart_mid_round_costs_a_retry_never_a_500(own_postgres, tmp_path):
    env = dict(os.environ)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    # Production settings (no debug pages), plain HTTP on loopback.
    env.update(
        DATABASE_URL=own_postgres.url,
        DEBUG="0",
        SECRET_KEY="crash-test-only-" + uuid.uuid4().hex,
        ALLOWED_HOSTS="127.0.0.1",
        HTTPS="0",
    )
    manage(env, "migrate", "--noinput")
    manage(env, "collectstatic", "--noinput", "--verbosity", "0")
    setup = manage(
        env, "shell", stdin=RESTART_SETUP.format(deals=RESTART_DEALS, players=TABLES * 3)
    )
    tables = [line.split()[1:] for line in setup.splitlines() if line.startswith("TABLE")]
    assert len(tables) == TABLES
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    answers: list[str] = []
    phones = [Phone(base, token, seats.split(","), answers) for token, seats in tables]
    stop_viewing = threading.Event()

    def view() -> None:
        """Someone following the round: the standings, the round page, the health check."""
        opener = urllib.request.build_opener()
        pages = ["/t/restart/standings/", "/t/restart/rounds/1/", "/healthz", "/"]
        while not stop_viewing.is_set():
            for page in pages:
                try:
                    with opener.open(base + page, timeout=30) as response:
                        answers.append(f"{response.status} GET {page}")
                except urllib.error.HTTPError as error:
                    answers.append(f"{error.code} GET {page}")
                except OSError:
                    pass

    server = start_gunicorn(env, port, tmp_path / "gunicorn.log")
    phone_threads = [
        threading.Thread(target=phone.enter_the_round, args=(RESTART_DEALS,)) for phone in phones
    ]
    viewer_threads = [threading.Thread(target=view) for _ in range(VIEWERS)]
    stopped_after = None
    try:
        for thread in phone_threads + viewer_threads:
            thread.start()
        while sum(len(phone.acknowledged) for phone in phones) < RESTART_AFTER:
            time.sleep(0.01)
        acknowledged_before_restart = sum(len(phone.acknowledged) for phone in phones)
        own_postgres.restart()
        for thread in phone_threads:
            thread.join(timeout=120)
        acknowledged_after_restart = sum(len(phone.acknowledged) for phone in phones)
        # Stopped while people still look at the pages: the requests in hand finish, then out.
        server.send_signal(signal.SIGTERM)
        sent_at = time.monotonic()
        server.wait(timeout=60)
        stopped_after = time.monotonic() - sent_at
    finally:
        stop_viewing.set()
        if server.poll() is None:
            server.kill()
            server.wait()
        for thread in viewer_threads:
            thread.join(timeout=60)

    log = (tmp_path / "gunicorn.log").read_text()
    failed = [answer for answer in answers if not answer.startswith(("200", "302", "503"))]
    assert not failed, (failed[:10], log[-3000:])
    assert acknowledged_before_restart < TABLES * RESTART_DEALS  # restarted mid-round
    assert acknowledged_after_restart == TABLES * RESTART_DEALS  # every phone's deals landed
    counts = manage(env, "shell", stdin=RESTART_COUNT)
    rows = int(re.search(r"ROWS (\d+)", counts).group(1))
    stored = re.search(r"KEYS (\S*)", counts).group(1).split(",")
    places = int(re.search(r"PLACES (\d+)", counts).group(1))
    acknowledged = [key for phone in phones for key in phone.acknowledged]
    assert rows == places == len(acknowledged)  # no deal twice, no place taken twice
    assert sorted(stored) == sorted(acknowledged)
    assert server.returncode == 0, log[-3000:]
    assert "SIGKILL" not in log  # every process stopped by itself, none had to be killed
    assert stopped_after < STOP_SECONDS, (stopped_after, log[-3000:])
