"""Servers the tests start on loopback, each of their own: the site under runserver or
gunicorn, a throwaway PostgreSQL, Redis and nginx (tests/test_crash.py,
tests/zole_site/test_deployment.py). Only loopback addresses are used."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
        check=False,
    )
    # What went wrong is on the command's standard error: the failure shows it.
    assert result.returncode == 0, f"manage.py {' '.join(args)}: {result.stderr[-3000:]}"
    return result.stdout


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None  # a 302 after a saved deal is the acknowledgement itself


def postgres_bin() -> Path | None:
    """The newest Debian PostgreSQL server installation (as .ci/run finds it), if any."""
    for directory in sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda path: int(path.parent.name) if path.parent.name.isdigit() else 0,
        reverse=True,
    ):
        if (directory / "initdb").exists() and (directory / "pg_ctl").exists():
            return directory
    return None


class PostgresCluster:
    """A throwaway PostgreSQL server of this test's own on a free loopback port, so that the
    test can restart it. The server refuses to run as root: as root it runs as `postgres`."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.home = Path(tempfile.mkdtemp(prefix="zole-restart-pg-"))
        self.data = self.home / "data"
        self.port = free_port()
        self.as_server_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.home, "postgres")
            self.as_server_user = ["runuser", "-u", "postgres", "--"]
        self.run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust")
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write(
                f"listen_addresses = '127.0.0.1'\nport = {self.port}\n"
                f"unix_socket_directories = '{self.home}'\n"
                "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
            )
        self.pg_ctl("start")
        self.run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "zole")
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/zole"

    def run(self, program: str, *args: str) -> None:
        subprocess.run(
            [*self.as_server_user, str(self.bin_dir / program), *args],
            check=True,
            capture_output=True,
            timeout=120,
        )

    def pg_ctl(self, *args: str) -> None:
        self.run("pg_ctl", "-D", str(self.data), "-l", str(self.home / "log"), "-w", *args)

    def restart(self) -> None:
        """Every connection is cut, and for a moment no new one is accepted."""
        self.pg_ctl("-m", "fast", "restart")

    def remove(self) -> None:
        try:
            self.pg_ctl("-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.home, ignore_errors=True)


def wait_for_port(port: int, process: subprocess.Popen, seconds: float = 30) -> bool:
    """Whether the process accepts connections on the loopback port within the time."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return True
        except OSError:
            time.sleep(0.1)
    return False


def redis_server(port: int) -> subprocess.Popen:
    """Debian's redis-server on the loopback port, keeping nothing on disk."""
    server = subprocess.Popen(
        [
            *(shutil.which("redis-server") or "redis-server", "--port", str(port)),
            *("--bind", "127.0.0.1", "--save", "", "--appendonly", "no"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    if not wait_for_port(port, server, 10):
        server.kill()
        raise AssertionError("redis-server did not start")
    return server


def nginx_bin() -> str | None:
    """Debian's nginx (in /usr/sbin, which a user's PATH may lack), if installed."""
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")


class SmtpServer:
    """aiosmtpd, a real SMTP server, on a loopback port, keeping each mail it accepts in a
    Maildir (`mails()`). It runs as a process of its own, started from its folder: its
    dependency atpublic installs a top-level module named `public`, which the project's own
    public app shadows in the project's processes."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.maildir = folder / "maildir"
        self.process = subprocess.Popen(
            [
                *(sys.executable, "-m", "aiosmtpd", "-n"),
                *("-l", f"127.0.0.1:{self.port}", "-c", "aiosmtpd.handlers.Mailbox"),
                str(self.maildir),
            ],
            cwd=folder,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        if not wait_for_port(self.port, self.process, 20):
            self.process.kill()
            raise AssertionError(f"aiosmtpd did not start: {self.process.stderr.read()!r}")

    def mails(self, count: int = 1, seconds: float = 10) -> list:
        """The mails received, oldest first, once there are `count` (or the time is out), as
        the standard library's EmailMessage (headers decoded, `get_content()`)."""
        import email
        import email.policy
        import mailbox

        deadline = time.monotonic() + seconds
        while True:
            kept = sorted(
                mailbox.Maildir(str(self.maildir), create=True),
                key=lambda mail: mail.get_date(),
            )
            if len(kept) >= count or time.monotonic() > deadline:
                return [
                    email.message_from_bytes(bytes(mail), policy=email.policy.default)
                    for mail in kept
                ]
            time.sleep(0.05)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)
