"""The benchmarks' shared start: Django on a throwaway SQLite database holding a simulated
tournament (`simulate_tournament --fast`, which still checks every sheet with the engine)."""

from __future__ import annotations

import io
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


LOOP_STEPS = 1_000_000


def bare_loop() -> float:
    """Seconds of a fixed piece of pure Python (LOOP_STEPS multiply-adds): what the machine
    gives this process now, a baseline for figures measured in the same run."""
    start = time.perf_counter()
    total = 0
    for number in range(LOOP_STEPS):
        total += number * number
    return time.perf_counter() - start


def is_url(database: str | None) -> bool:
    """Whether `database` is a database URL (postgres://...) rather than a SQLite file."""
    return bool(database) and "://" in database


def setup_django(prefix: str, database: str | None = None) -> Path:
    """Django configured on a new SQLite file in a temporary folder (returned), on the file
    `database` (its folder returned), or on the database URL `database` (a temporary folder
    returned)."""
    if is_url(database):
        workdir = Path(tempfile.mkdtemp(prefix=f"zole-bench-{prefix}-"))
        os.environ["DATABASE_URL"] = database
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zole_site.settings")
        import django

        django.setup()
        return workdir
    if database:
        path = Path(database).resolve()
        workdir = path.parent
    else:
        workdir = Path(tempfile.mkdtemp(prefix=f"zole-bench-{prefix}-"))
        path = workdir / "bench.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zole_site.settings")
    import django

    django.setup()
    return workdir


def simulated_tournament(
    prefix: str,
    *,
    players: int,
    rounds: int,
    deals: int,
    seed: int,
    slug: str = "bench",
    database: str | None = None,
) -> float:
    """Set Django up (see `setup_django`), migrate, and simulate the tournament `slug`;
    returns the seconds it took. An existing `database` file is reused as it is (0 seconds), and
    so is a database URL's database that holds the tournament `slug` already."""
    reused = bool(database) and not is_url(database) and Path(database).exists()
    setup_django(prefix, database)
    from django.core.management import call_command

    if reused:
        return 0.0
    if is_url(database):
        call_command("migrate", verbosity=0)
        from tournaments.models import Tournament

        if Tournament.objects.filter(slug=slug).exists():
            return 0.0
    start = time.perf_counter()
    call_command("migrate", verbosity=0)
    call_command(
        "simulate_tournament",
        players=players,
        rounds=rounds,
        deals=deals,
        seed=seed,
        slug=slug,
        fast=True,
        verbosity=0,
        stdout=io.StringIO(),  # the command prints the slug
    )
    return time.perf_counter() - start


def timed_get(client, url: str, *, without_cache: bool = False) -> tuple[float, int, int]:
    """Seconds, status and query count of one GET (with `without_cache`, the page cache is
    emptied first, so the page is really built)."""
    seconds, _cpu, status, queries = measured_get(client, url, without_cache=without_cache)
    return seconds, status, queries


def measured_get(
    client, url: str, *, without_cache: bool = False, headers: dict[str, str] | None = None
) -> tuple[float, float, int, int]:
    """Seconds (wall clock), CPU seconds of this process, status and query count of one GET, as
    `timed_get`; `headers` as the test client takes them (HTTP_HX_REQUEST="true": htmx).

    The CPU time is what the request costs on a quiet machine (SQLite runs in the process):
    the figure to trust when other work shares the cores and stretches the wall clock."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    if without_cache:
        cache.clear()
    # A full log (it keeps 9,000 queries, and building the data filled it) counts nothing new.
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        cpu_start = time.process_time()
        response = client.get(url, **(headers or {}))
        cpu = time.process_time() - cpu_start
        seconds = time.perf_counter() - start
    return seconds, cpu, response.status_code, len(queries)
