"""Gunicorn serving the site on a free loopback port, and a small HTTP/1.1 client on asyncio
streams to measure it: the shared start of the benchmarks that load a real server (load.py,
bypass.py). Only loopback addresses are ever contacted."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 20.0  # as static/js/table-queue.js: no answer by then counts as a broken connection


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_gunicorn(
    env: dict[str, str], workers: int, threads: int, *, stderr: int = subprocess.DEVNULL
) -> tuple[subprocess.Popen | None, int]:
    """gunicorn serving the site on a free loopback port, once it accepts connections and its
    workers are up; (None, port) when it did not start within 30 s."""
    port = free_port()
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "zole_site.wsgi:application",
            *("--workers", str(workers), "--threads", str(threads)),
            *("--bind", f"127.0.0.1:{port}", "--timeout", "60"),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=stderr,
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                print("gunicorn did not start", file=sys.stderr)
                server.kill()
                return None, port
            time.sleep(0.2)
    time.sleep(1)  # every worker up
    return server, port


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    cookies: dict[str, str]
    body: bytes
    seconds: float


async def http(
    port: int,
    method: str,
    path: str,
    *,
    cookies: dict[str, str] | None = None,
    form: dict[str, object] | None = None,
    extra: dict[str, str] | None = None,
    json_body: object = None,
) -> Answer:
    """One request on a new connection (Connection: close); raises OSError or TimeoutError when
    the connection breaks or no answer comes within TIMEOUT. `form` is sent as a form's body,
    `json_body` as JSON."""
    body = urllib.parse.urlencode(form).encode() if form is not None else b""
    if json_body is not None:
        body = json.dumps(json_body).encode()
    lines = [
        f"{method} {path} HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        "Connection: close",
        "User-Agent: zole-load/1",
    ]
    lines += [f"{name}: {value}" for name, value in (extra or {}).items()]
    if cookies:
        lines.append("Cookie: " + "; ".join(f"{name}={value}" for name, value in cookies.items()))
    if form is not None or json_body is not None:
        kind = "application/json" if json_body is not None else "application/x-www-form-urlencoded"
        lines += [
            f"Content-Type: {kind}",
            f"Content-Length: {len(body)}",
            f"Referer: http://127.0.0.1:{port}{path}",
            f"Origin: http://127.0.0.1:{port}",
        ]
    request = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
    start = time.perf_counter()

    async def exchange() -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            writer.write(request)
            await writer.drain()
            return await reader.read()  # to EOF: the server closes after its answer
        finally:
            writer.close()

    raw = await asyncio.wait_for(exchange(), TIMEOUT)
    seconds = time.perf_counter() - start
    head, _, content = raw.partition(b"\r\n\r\n")
    if not head:
        raise ConnectionResetError("no answer")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers: dict[str, str] = {}
    received: dict[str, str] = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        name, value = name.strip().lower(), value.strip()
        headers[name] = value
        if name == "set-cookie":
            cookie = value.split(";", 1)[0]
            cookie_name, _, cookie_value = cookie.partition("=")
            received[cookie_name] = cookie_value
    if headers.get("transfer-encoding", "").lower() == "chunked":
        content = dechunk(content)
    return Answer(int(status_line.split()[1]), headers, received, content, seconds)


def dechunk(data: bytes) -> bytes:
    out, rest = [], data
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out.append(rest[:size])
        rest = rest[size + 2 :]
    return b"".join(out)


def server_cpu(pid: int) -> float:
    """CPU seconds of gunicorn's master and workers so far (utime + stime, from /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pids = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(child) for child in children]
    except OSError:
        pass
    for each in pids:
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def percentiles(values: list[float]) -> tuple[float, float, float]:
    if len(values) < 2:
        return (float("nan"),) * 3
    cuts = statistics.quantiles(values, n=100)
    return tuple(cuts[index] * 1000 for index in (49, 94, 98))  # type: ignore[return-value]
