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


def setup_django(prefix: str) -> Path:
    """Django configured on a new SQLite file in a temporary folder (returned)."""
    workdir = Path(tempfile.mkdtemp(prefix=f"zole-bench-{prefix}-"))
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir / 'bench.sqlite3'}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zole_site.settings")
    import django

    django.setup()
    return workdir


def simulated_tournament(
    prefix: str, *, players: int, rounds: int, deals: int, seed: int, slug: str = "bench"
) -> float:
    """Set Django up (see `setup_django`), migrate, and simulate the tournament `slug`;
    returns the seconds it took."""
    setup_django(prefix)
    from django.core.management import call_command

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
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    if without_cache:
        cache.clear()
    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        response = client.get(url)
        seconds = time.perf_counter() - start
    return seconds, response.status_code, len(queries)
