"""Benchmark of the printed score sheets (issue 5, item 7): all table sheets of a 600-player round.

It builds a simulated tournament of one round (600 players: 200 tables of 3, 24 deals each; written
with `simulate_tournament --fast`, which checks every sheet with the engine) in a throwaway SQLite
database, then times the whole round's sheets as the organiser's download builds them (the
database reads, the engine's scoring, the drawing, QR codes included), filled and blank, against
the same number of trivial reportlab pages (one line of text each) made in the same run. The QR
codes' cache is emptied before each build, so every code is encoded afresh.

    .venv/bin/python bench/pdf.py [--players 600] [--deals 24] [--repeat 5]

Target: at least 200 pages a second for the filled sheets.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from simulated import simulated_tournament

TARGET_PAGES_PER_SECOND = 200


def trivial_pages(count: int) -> bytes:
    """The baseline: `count` reportlab pages of one line each, in a standard font."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4)
    for number in range(1, count + 1):
        canvas.setFont("Helvetica", 12)
        canvas.drawString(72, 770, f"Page {number}")
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def timed(build: Callable[[], bytes], repeat: int, before: Callable[[], None]) -> list[float]:
    seconds = []
    for _ in range(repeat):
        before()
        start = time.perf_counter()
        build()
        seconds.append(time.perf_counter() - start)
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=600)
    parser.add_argument("--deals", type=int, default=24)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    built = simulated_tournament(
        "pdf", players=args.players, rounds=1, deals=args.deals, seed=args.seed
    )
    from pypdf import PdfReader

    from scoring.documents import round_sheets_pdf
    from scoring.documents.fonts import register_fonts
    from scoring.documents.qr import qr_path
    from tournaments.models import Round

    round_ = Round.objects.select_related("tournament").get(tournament__slug="bench", number=1)
    tables = round_.tables.count()

    def entry_url(token: str) -> str:
        return f"https://zole.example.lv/r/{token}/"

    register_fonts()  # once per process, as in the server
    filled = round_sheets_pdf(round_=round_, entry_url=entry_url)  # warm up, and check
    pages = len(PdfReader(io.BytesIO(filled)).pages)
    if pages != tables:
        print(f"FAILED: {pages} pages for {tables} tables", file=sys.stderr)
        return 1

    measurements = {
        "trivial reportlab pages": timed(lambda: trivial_pages(tables), args.repeat, lambda: None),
        "filled sheets": timed(
            lambda: round_sheets_pdf(round_=round_, entry_url=entry_url),
            args.repeat,
            qr_path.cache_clear,
        ),
        "blank sheets": timed(
            lambda: round_sheets_pdf(round_=round_, entry_url=entry_url, blank=True),
            args.repeat,
            qr_path.cache_clear,
        ),
        "filled sheets, QR codes cached": timed(
            lambda: round_sheets_pdf(round_=round_, entry_url=entry_url),
            args.repeat,
            lambda: None,
        ),
    }
    baseline = statistics.median(measurements["trivial reportlab pages"])
    print(
        f"PDF benchmark: {args.players} players, {tables} tables, {args.deals} deals a table, "
        f"SQLite, built in {built:.1f} s; {len(filled) / 1024:.0f} KiB of sheets; "
        f"median of {args.repeat}"
    )
    print(
        "{:32} {:>7} {:>10} {:>10} {:>10}".format(
            "document", "pages", "seconds", "pages/s", "x trivial"
        )
    )
    for name, seconds in measurements.items():
        median = statistics.median(seconds)
        print(
            f"{name:32} {tables:>7} {median:>10.3f} {tables / median:>10.0f} "
            f"{median / baseline:>10.1f}"
        )
    rate = tables / statistics.median(measurements["filled sheets"])
    verdict = "met" if rate >= TARGET_PAGES_PER_SECOND else "NOT met"
    print(f"target {TARGET_PAGES_PER_SECOND} pages/s for the filled sheets: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
