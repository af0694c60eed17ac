"""The production recipe (deploy/): several application servers share one PostgreSQL and one
Redis behind nginx.

On loopback, two gunicorn servers (production settings, plain HTTP) stand behind nginx with the
repository's own proxy settings (deploy/nginx/zole-proxy.conf). A referee enters deals and
confirms his table through one server; the standings, their CSV, the hall display (and the API's
standings) read through the other server and through nginx are current at once: the same as a
fresh render from the database. Then one server is killed (SIGKILL, with its workers) in the
middle of another table's round: the phone, going through nginx, loses nothing."""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import os
import re
import shutil
import signal
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

from tests.environment import SETTINGS_VARIABLES
from tests.servers import (
    ROOT,
    NoRedirect,
    PostgresCluster,
    free_port,
    manage,
    nginx_bin,
    postgres_bin,
    redis_server,
    wait_for_port,
)

DEALS = 6  # a round's deals at each table of three
KILL_AFTER = 2  # deals the second table's phone has had acknowledged when a server is killed

SETUP = """
from django.urls import NoReverseMatch, reverse
from tests.factories import make_published_round, make_tournament
from tournaments.models import TableToken
tournament = make_tournament(slug="two-servers", table_size=3, deals_per_round={deals})
round_ = make_published_round(tournament, players=6)
for table in round_.tables.order_by("number"):
    seats = table.seats.order_by("position").values_list("registration_id", flat=True)
    token = TableToken.objects.get(table=table, revoked_at__isnull=True).token
    print("TABLE", token, ",".join(str(registration_id) for registration_id in seats))
try:
    print("API", reverse("api:standings", kwargs={{"slug": "two-servers"}}))
except NoReverseMatch:
    print("API none")
"""

# The reads compared, anonymous as a spectator's: (path, extra request headers).
PAGES = [
    ("/t/two-servers/standings/", {}),
    ("/t/two-servers/standings/", {"HX-Request": "true"}),  # the live part the page refreshes
    ("/t/two-servers/standings/?_export=csv", {}),
    ("/t/two-servers/display/", {}),
    ("/t/two-servers/display/", {"HX-Request": "true"}),
]

# Fresh renders of the same reads, from the database: a process whose cache is its own and
# empty (no REDIS_URL), so nothing comes from what the servers stored.
RENDER = """
import json
from django.test import Client
reads = json.loads({reads!r})
answers = []
for host, path, headers in reads:
    extra = {{"HTTP_" + name.upper().replace("-", "_"): value for name, value in headers.items()}}
    response = Client(HTTP_HOST=host).get(path, **extra)
    answers.append([response.status_code, response.content.decode()])
print(json.dumps(answers))
"""

COUNT = """
from scoring.models import DealResult
rows = DealResult.objects.filter(table__round__tournament__slug="two-servers")
print("ROWS", rows.count(), "PLACES", len(set(rows.values_list("table_id", "position"))))
print("KEYS", ",".join(rows.values_list("client_key", flat=True)))
"""


def need(program: str | None, what: str) -> str:
    if program is None:
        pytest.skip(f"{what} is not installed: .ci/run installs it (apt-get install)")
    return program


@pytest.fixture
def own_postgres() -> PostgresCluster:
    bin_dir = need(postgres_bin(), "Debian's PostgreSQL server (/usr/lib/postgresql/*/bin)")
    cluster = PostgresCluster(Path(bin_dir))
    yield cluster
    cluster.remove()


@pytest.fixture
def own_redis() -> str:
    need(shutil.which("redis-server"), "Debian's redis-server")
    port = free_port()
    server = redis_server(port)
    yield f"redis://127.0.0.1:{port}/0"
    server.terminate()
    server.wait(timeout=10)


class Gunicorn:
    """One application server as deploy/ runs it (gunicorn.conf.py), in a process group of its
    own so that a kill takes its workers with it, as a machine's failure would."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.port = free_port()
        self.log = log
        self.process = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "gunicorn"),
                "zole_site.wsgi:application",
                *("--bind", f"127.0.0.1:{self.port}", "--workers", "1", "--threads", "4"),
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log.open("w"),
            start_new_session=True,
        )
        if not wait_for_port(self.port, self.process):
            self.kill()
            raise AssertionError("gunicorn did not start:\n" + log.read_text())

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


NGINX_CONF = """
daemon off;
worker_processes 1;
pid {home}/nginx.pid;
error_log {home}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    # Bodies in memory: run as root, nginx's workers (nobody) cannot write under pytest's tmp.
    client_body_buffer_size 4m;
    client_body_temp_path {home}/body;
    proxy_temp_path {home}/proxy;
    fastcgi_temp_path {home}/fastcgi;
    uwsgi_temp_path {home}/uwsgi;
    scgi_temp_path {home}/scgi;
    upstream zole {{
{servers}
        keepalive 4;
    }}
    server {{
        listen 127.0.0.1:{port};
        include {proxy};
    }}
}}
"""


class Nginx:
    """Debian's nginx in front of the servers, with the site's proxy settings."""

    def __init__(self, program: str, home: Path, servers: list[Gunicorn]) -> None:
        self.port = free_port()
        home.mkdir()
        conf = home / "nginx.conf"
        conf.write_text(
            NGINX_CONF.format(
                home=home,
                port=self.port,
                proxy=ROOT / "deploy" / "nginx" / "zole-proxy.conf",
                servers="\n".join(
                    f"        server 127.0.0.1:{server.port} max_fails=1 fail_timeout=10s;"
                    for server in servers
                ),
            )
        )
        self.home = home
        self.process = subprocess.Popen(
            [program, "-p", str(home), "-c", str(conf)],
            stdout=subprocess.DEVNULL,
            stderr=(home / "stderr.log").open("w"),
        )
        if not wait_for_port(self.port, self.process, 10):
            self.stop()
            raise AssertionError("nginx did not start:\n" + (home / "stderr.log").read_text())

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # nginx's graceful stop
            self.process.wait(timeout=10)


def read(base: str, path: str, headers: dict[str, str]) -> tuple[int, str]:
    request = urllib.request.Request(base + path, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


class Phone:
    """A referee's phone on the table's link, as its plain form posts: every deal with a client
    key of its own, the very same deal sent again when the connection breaks or the answer is a
    502/503 (a server gone behind nginx), until a 302 acknowledges it."""

    def __init__(self, base: str, token: str, seats: list[str]) -> None:
        self.url = f"{base}/r/{token}/"
        self.seats = seats
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirect()
        )
        self.acknowledged: list[str] = []
        self.refused: list[str] = []
        self.met_a_failure = False

    def send(self, data: dict[str, object] | None = None) -> tuple[int, str]:
        request = urllib.request.Request(
            self.url,
            data=urllib.parse.urlencode(data).encode() if data is not None else None,
            headers={"Referer": self.url} if data is not None else {},
        )
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def post(self, fields: dict[str, object]) -> bool:
        """Post the form until it is acknowledged; False when it is refused for good."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                status, page = self.send()
                csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
                if status == 200 and csrf:
                    status, page = self.send({"csrfmiddlewaretoken": csrf.group(1), **fields})
                    if status == 302:
                        return True
            except OSError:  # the connection broke: the same submission again
                status = 0
            if status not in (0, 200, 502, 503, 504):
                self.refused.append(f"{status} {fields.get('action')}: {page[:300]}")
                return False
            self.met_a_failure = True
            time.sleep(0.2)
        self.refused.append(f"{fields.get('action')}: no acknowledgement within 60 s")
        return False

    def enter_deals(self, deals: int) -> None:
        for position in range(1, deals + 1):
            key = uuid.uuid4().hex
            deal = {
                "action": "deal",
                "deal-position": position,
                "deal-client_key": key,
                "deal-game": "lielais",
                "deal-declarer": self.seats[position % 3],
                "deal-points": 75,
                "deal-tricks": 5,
            }
            if not self.post(deal):
                return
            self.acknowledged.append(key)

    def confirm(self) -> bool:
        fields = {"action": "confirm", "confirm-confirmer": self.seats[1], "confirm-deals": DEALS}
        return self.post(fields)


def fresh_renders(
    env: dict[str, str], reads: list[tuple[str, str, dict[str, str]]]
) -> list[tuple[int, str]]:
    """The reads (base address, path, headers) rendered anew from the database, each for the
    host it was read from (a page may name its own address)."""
    no_shared_cache = {key: value for key, value in env.items() if key != "REDIS_URL"}
    for_hosts = [(base.removeprefix("http://"), path, headers) for base, path, headers in reads]
    answer = manage(no_shared_cache, "shell", stdin=RENDER.format(reads=json.dumps(for_hosts)))
    return [tuple(one) for one in json.loads(answer.strip().splitlines()[-1])]


def test_two_servers_behind_nginx_share_the_database_and_the_cache(
    own_postgres, own_redis, tmp_path
):
    nginx = need(nginx_bin(), "Debian's nginx")
    env = {key: value for key, value in os.environ.items() if key not in SETTINGS_VARIABLES}
    env.update(
        DEBUG="0",
        SECRET_KEY="deployment-test-only-" + uuid.uuid4().hex,
        ALLOWED_HOSTS="127.0.0.1",
        HTTPS="0",  # plain HTTP on loopback: TLS ends at the proxy in production
        TRUSTED_PROXIES="1",
        DATABASE_URL=own_postgres.url,
        REDIS_URL=own_redis,
        # Its own static files: other tests collect theirs into the checkout's meanwhile, and
        # whitenoise reading a folder that collectstatic is rewriting finds files gone.
        STATIC_ROOT=str(tmp_path / "static"),
    )
    manage(env, "migrate", "--noinput")
    manage(env, "collectstatic", "--noinput", "--verbosity", "0")
    setup = manage(env, "shell", stdin=SETUP.format(deals=DEALS))
    tables = [line.split()[1:] for line in setup.splitlines() if line.startswith("TABLE")]
    assert len(tables) == 2
    api = re.search(r"^API (\S+)", setup, re.MULTILINE).group(1)
    pages = PAGES + ([(api, {})] if api != "none" else [])

    writer = Gunicorn(env, tmp_path / "writer.log")
    reader = Gunicorn(env, tmp_path / "reader.log")
    proxy = Nginx(nginx, tmp_path / "nginx", [writer, reader])
    try:
        # Spectators read everything through the second server, and through nginx: the cache
        # now holds each page as it stands before the table is confirmed.
        reads = [
            (base, path, headers) for base in (reader.base, proxy.base) for path, headers in pages
        ]
        before = [read(*one) for one in reads]
        assert {status for status, _body in before} == {200}, before

        # The first table's referee enters the round and confirms through the first server.
        first = Phone(writer.base, tables[0][0], tables[0][1].split(","))
        first.enter_deals(DEALS)
        assert first.confirm(), first.refused
        assert len(first.acknowledged) == DEALS and not first.met_a_failure

        # At once, through the other server and through nginx: what the database says now.
        after = [read(*one) for one in reads]
        for (base, path, headers), old, new, fresh in zip(
            reads, before, after, fresh_renders(env, reads), strict=True
        ):
            assert new != old, f"{base}{path} {headers}: the confirmation changed nothing"
            assert new == fresh, f"{base}{path} {headers}: not current"

        # The second table plays through nginx; one server dies in the middle of its round.
        second = Phone(proxy.base, tables[1][0], tables[1][1].split(","))
        playing = threading.Thread(target=second.enter_deals, args=(DEALS,))
        playing.start()
        while len(second.acknowledged) < KILL_AFTER and playing.is_alive():
            time.sleep(0.005)
        writer.kill()
        killed_after = len(second.acknowledged)
        playing.join(timeout=120)
        assert second.confirm(), second.refused

        # The server left and nginx serve every page as the database now has it.
        after = [read(*one) for one in reads]
        for (base, path, headers), new, fresh in zip(
            reads, after, fresh_renders(env, reads), strict=True
        ):
            assert new == fresh, f"{base}{path} {headers}: not current after the second table"
    finally:
        proxy.stop()
        writer.kill()
        reader.stop()

    logs = (tmp_path / "reader.log").read_text()
    assert not second.refused, (second.refused, logs[-3000:])
    assert KILL_AFTER <= killed_after < DEALS  # killed in the middle of the round
    # nginx met the dead server (a refused connection, or a request cut short) and went on.
    assert "upstream" in (tmp_path / "nginx" / "error.log").read_text()
    assert len(second.acknowledged) == len(set(second.acknowledged)) == DEALS
    counts = manage(env, "shell", stdin=COUNT)
    rows, places = map(int, re.search(r"ROWS (\d+) PLACES (\d+)", counts).groups())
    stored = re.search(r"KEYS (\S*)", counts).group(1).split(",")
    assert rows == places == 2 * DEALS  # every deal once, no place taken twice
    assert sorted(stored) == sorted(first.acknowledged + second.acknowledged)


def send_body(base: str, path: str, size: int) -> tuple[int, dict[str, str], bytes]:
    """POST `size` bytes of JSON-looking text; the answer (a connection the proxy closed while
    the body was still going counts as status 0)."""
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=60)
    try:
        connection.request(
            "POST",
            path,
            body=b"[" + b" " * (size - 2) + b"]",
            headers={"Content-Type": "application/json"},
        )
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    except OSError:
        return 0, {}, b""
    finally:
        connection.close()


def test_nginx_refuses_a_body_over_the_sites_limit_itself(own_redis, tmp_path):
    """What the site would refuse for its size (413 before reading it), nginx refuses itself:
    a body the server does not read makes nginx's sending fail (502, "broken pipe") rather
    than pass on its 413. A body at the limit goes through; under /api/ the refusal is JSON."""
    nginx = need(nginx_bin(), "Debian's nginx")
    env = {key: value for key, value in os.environ.items() if key not in SETTINGS_VARIABLES}
    env.update(
        DEBUG="0",
        SECRET_KEY="deployment-test-only-" + uuid.uuid4().hex,
        ALLOWED_HOSTS="127.0.0.1",
        HTTPS="0",
        TRUSTED_PROXIES="1",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        REDIS_URL=own_redis,
        STATIC_ROOT=str(tmp_path / "static"),
    )
    manage(env, "collectstatic", "--noinput", "--verbosity", "0")
    limit = int(manage(env, "shell", "-c", SIZE_LIMIT).split()[-1])
    server = Gunicorn(env, tmp_path / "server.log")
    proxy = Nginx(nginx, tmp_path / "nginx", [server])
    try:
        at_the_limit = [send_body(proxy.base, path, limit) for path in ("/rules/", API_IMPORT)]
        over = [
            (path, size, send_body(proxy.base, path, size))
            for size in (limit + 1, limit + 200_000, 3 * 1024 * 1024 - 1, 3 * 1024 * 1024 + 1)
            for path in ("/rules/", API_IMPORT)
            for _ in range(3)
        ]
    finally:
        proxy.stop()
        server.stop()

    for status, headers, _body in at_the_limit:  # the site's own answer (no CSRF token, ...)
        assert status not in (0, 413, 502) and "X-Frame-Options" in headers, status
    answers = [(path, size, status) for path, size, (status, _headers, _body) in over]
    assert {status for _path, _size, status in answers} == {413}, answers
    for path, _size, (_status, headers, body) in over:
        assert "X-Frame-Options" not in headers  # nginx's, never the site's
        if path == API_IMPORT:
            assert headers["Content-Type"] == "application/json"
            assert "2560" in json.loads(body)["detail"]


SIZE_LIMIT = "from django.conf import settings; print(settings.REQUEST_BODY_MAX_BYTES)"
API_IMPORT = "/api/v1/tournaments/kauss/players"


# --- The recipe's files -------------------------------------------------------------------------

NGINX_TEST_CONF = """
pid {home}/nginx.pid;
error_log {home}/error.log;
events {{}}
http {{
    include {site};
}}
"""


def test_nginx_accepts_the_site_file(tmp_path):
    # deploy/nginx/zole.conf as Debian's nginx reads it from sites-enabled, with its proxy
    # snippet and a certificate where certbot puts one.
    nginx = need(nginx_bin(), "Debian's nginx")
    openssl = need(shutil.which("openssl"), "openssl")
    subprocess.run(
        [
            *(openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-subj", "/CN=zole.example.lv", "-keyout", str(tmp_path / "privkey.pem")),
            *("-out", str(tmp_path / "fullchain.pem")),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    site = (ROOT / "deploy" / "nginx" / "zole.conf").read_text()
    site = site.replace("/etc/letsencrypt/live/zole.example.lv", str(tmp_path))
    site = site.replace(
        "/etc/nginx/snippets/zole-proxy.conf", str(ROOT / "deploy" / "nginx" / "zole-proxy.conf")
    )
    assert str(tmp_path) in site and "/etc/nginx/snippets" not in site
    (tmp_path / "zole.conf").write_text(site)
    conf = tmp_path / "nginx.conf"
    conf.write_text(NGINX_TEST_CONF.format(home=tmp_path, site=tmp_path / "zole.conf"))

    checked = subprocess.run(
        [nginx, "-t", "-p", str(tmp_path), "-c", str(conf)],
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert checked.returncode == 0, checked.stderr
    assert "test is successful" in checked.stderr


def test_systemd_accepts_the_units(tmp_path):
    # The units as installed, with this checkout (its .venv) in place of /srv/zole: systemd
    # reads every key, finds every program and the service each timer starts.
    analyze = need(shutil.which("systemd-analyze"), "systemd-analyze")
    units = sorted((ROOT / "deploy" / "systemd").glob("*.service")) + sorted(
        (ROOT / "deploy" / "systemd").glob("*.timer")
    )
    assert {unit.name for unit in units} >= {
        "zole.service",
        "zole-backup.timer",
        "zole-ratings.timer",
    }
    for unit in units:
        (tmp_path / unit.name).write_text(unit.read_text().replace("/srv/zole", str(ROOT)))

    verified = subprocess.run(
        [analyze, "verify", "--man=no", *(str(tmp_path / unit.name) for unit in units)],
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert verified.returncode == 0, verified.stderr
    assert verified.stderr == "", verified.stderr


def test_caddy_accepts_the_compose_proxy_file(tmp_path):
    # compose.yaml's proxy: Debian's Caddy reads the same file the caddy:2 image does, with the
    # site's names from ALLOWED_HOSTS (several: separated by a comma and a space).
    caddy = need(shutil.which("caddy"), "Debian's caddy")
    env = {
        **{key: value for key, value in os.environ.items() if key not in SETTINGS_VARIABLES},
        "ALLOWED_HOSTS": "zole.example.lv, www.zole.example.lv",
        "HOME": str(tmp_path),  # where Caddy would keep its state
        "XDG_DATA_HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path),
    }
    caddyfile = str(ROOT / "deploy" / "caddy" / "Caddyfile")

    adapted = subprocess.run(
        [caddy, "adapt", "--config", caddyfile], env=env, capture_output=True, timeout=60
    )
    validated = subprocess.run(
        [caddy, "validate", "--config", caddyfile], env=env, capture_output=True, timeout=60
    )

    assert adapted.returncode == 0, adapted.stderr
    site = json.loads(adapted.stdout)["apps"]["http"]["servers"]["srv0"]["routes"][0]
    assert site["match"] == [{"host": ["zole.example.lv", "www.zole.example.lv"]}]
    assert validated.returncode == 0, validated.stderr


def test_the_environment_file_names_only_settings_the_site_reads():
    # A misspelt name (REDIS_URI) would be ignored without a word, and the site run without it.
    example = (ROOT / "deploy" / "zole.env.example").read_text()
    named = set(re.findall(r"^([A-Z_]+)=", example, re.MULTILINE))

    compose_only = {"POSTGRES_PASSWORD"}  # compose.yaml's PostgreSQL, not the site's
    assert {"SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL"} <= named
    assert named - compose_only - SETTINGS_VARIABLES == set()
