"""Benchmark of the printed score sheets (issue 5, item 7): all table sheets of a 600-player round.

It builds a simulated tournament of one round (600 players: 200 tables of 3, 24 deals each; written
with `simulate_tournament --fast`, which checks every sheet with the engine) in a throwaway SQLite
database, and beside it the federation's format: the same players at 150 tables of 4 playing 28
deals (`--federation-deals`), with the federation's pule options. It times each round's sheets as
the organiser's download builds them (the database reads, the engine's scoring, the drawing, QR
codes included), filled and blank, against trivial reportlab pages (one line of text each) made
in the same run: "x trivial" is the time per page against a trivial page's. The QR codes' cache is
emptied before each build, so every code is encoded afresh.

    .venv/bin/python bench/pdf.py [--players 600] [--deals 24] [--federation-deals 28] [--repeat 5]

Target: at least 200 pages a second for the filled sheets, of either format.
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


def federation_round(*, deals: int, seed: int):
    """The players of the "bench" tournament at tables of 4 in a second tournament (28 deals,
    the federation's pule options), one round published and played with `--fast`'s writes.

    Seated by hand, four by four in entry order: the seating engine of this branch seats tables
    of 3 only (tables of 4 come with the engine's seating branch); the sheets do not mind who
    sits where."""
    from django.utils import timezone

    from scoring.simulation import play_simulated_round
    from tournaments import services
    from tournaments.models import Player, Round, RoundStatus, Seat, Table, TableToken, Tournament
    from tournaments.rule_set import rule_set_options

    tournament = Tournament.objects.create(
        name="Federācijas formāts",
        slug="bench-4",
        starts_on=timezone.localdate(),
        rounds_planned=1,
        deals_per_round=deals,
        table_size=4,
        personal_pule_payment="N",
        four_table_pass_pules=2,
    )
    entries = services.entries_register(tournament=tournament, players=Player.objects.all())
    round_ = Round.objects.create(
        tournament=tournament,
        number=1,
        status=RoundStatus.PUBLISHED,
        published_at=timezone.now(),
        rule_set=rule_set_options(tournament),
    )
    tables = Table.objects.bulk_create(
        Table(round=round_, number=number, first_dealer_position=1)
        for number in range(1, len(entries) // 4 + 1)
    )
    Seat.objects.bulk_create(
        Seat(table=table, position=position, entry=entries[4 * index + position - 1])
        for index, table in enumerate(tables)
        for position in range(1, 5)
    )
    TableToken.objects.bulk_create(
        TableToken(table=table, round_id=table.round_id) for table in tables
    )
    play_simulated_round(round_, seed=seed, fast=True)
    return Round.objects.select_related("tournament").get(pk=round_.pk)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=600)
    parser.add_argument("--deals", type=int, default=24)
    parser.add_argument("--federation-deals", type=int, default=28)
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
    started = time.perf_counter()
    fours = federation_round(deals=args.federation_deals, seed=args.seed)
    built += time.perf_counter() - started
    four_tables = fours.tables.count()

    def entry_url(token: str) -> str:
        return f"https://zole.example.lv/r/{token}/"

    register_fonts()  # once per process, as in the server
    # Warm up, and check: one page a table (28 deals still fit one page at a table of 4).
    for checked, count in ((round_, tables), (fours, four_tables)):
        filled = round_sheets_pdf(round_=checked, entry_url=entry_url)
        pages = len(PdfReader(io.BytesIO(filled)).pages)
        if pages != count:
            print(f"FAILED: {pages} pages for {count} tables", file=sys.stderr)
            return 1
    sizes = {
        name: len(round_sheets_pdf(round_=checked, entry_url=entry_url)) / 1024
        for name, checked in (("threes", round_), ("fours", fours))
    }

    def sheets(checked: Round, **options: bool) -> Callable[[], bytes]:
        return lambda: round_sheets_pdf(round_=checked, entry_url=entry_url, **options)

    # (name, pages, build, before each build)
    documents: list[tuple[str, int, Callable[[], bytes], Callable[[], None]]] = [
        ("trivial reportlab pages", tables, lambda: trivial_pages(tables), lambda: None),
        ("filled sheets", tables, sheets(round_), qr_path.cache_clear),
        ("blank sheets", tables, sheets(round_, blank=True), qr_path.cache_clear),
        ("filled sheets, QR codes cached", tables, sheets(round_), lambda: None),
        (
            f"filled, {args.federation_deals} deals, tables of 4",
            four_tables,
            sheets(fours),
            qr_path.cache_clear,
        ),
        (
            f"blank, {args.federation_deals} deals, tables of 4",
            four_tables,
            sheets(fours, blank=True),
            qr_path.cache_clear,
        ),
    ]
    measurements = {
        name: (pages, timed(build, args.repeat, before)) for name, pages, build, before in documents
    }
    baseline = statistics.median(measurements["trivial reportlab pages"][1]) / tables
    print(
        f"PDF benchmark: {args.players} players; {tables} tables of 3 at {args.deals} deals "
        f"({sizes['threes']:.0f} KiB of sheets) and {four_tables} tables of 4 at "
        f"{args.federation_deals} deals ({sizes['fours']:.0f} KiB); SQLite, built in "
        f"{built:.1f} s; median of {args.repeat}"
    )
    print(
        "{:36} {:>7} {:>10} {:>10} {:>10}".format(
            "document", "pages", "seconds", "pages/s", "x trivial"
        )
    )
    for name, (pages, seconds) in measurements.items():
        median = statistics.median(seconds)
        print(
            f"{name:36} {pages:>7} {median:>10.3f} {pages / median:>10.0f} "
            f"{median / pages / baseline:>10.1f}"
        )
    verdicts = []
    for name in ("filled sheets", f"filled, {args.federation_deals} deals, tables of 4"):
        pages, seconds = measurements[name]
        rate = pages / statistics.median(seconds)
        verdicts.append(f"{name} {'met' if rate >= TARGET_PAGES_PER_SECOND else 'NOT met'}")
    print(f"target {TARGET_PAGES_PER_SECOND} pages/s: {'; '.join(verdicts)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
