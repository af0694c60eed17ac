"""Benchmark of the printed score sheets: all table sheets of a 600-player round.

It builds a simulated tournament of one round (600 players: 200 tables of 3, 24 deals each; written
with `simulate_tournament --fast`, which checks every sheet with the engine) in a throwaway SQLite
database, and beside it the federation's format: the same players at 150 tables of 4 playing 28
deals (`--federation-deals`), with the federation's pule options. It times each round's sheets as
the organiser's download builds them (the database reads, the engine's scoring, the drawing, QR
codes included), filled and blank. The QR codes' cache is emptied before each build, so every
code is encoded afresh.

The baseline, made in the same run: the same filled sheets of 3 set with plain platypus (a
SimpleDocTemplate of Paragraphs and Tables, the QR code from reportlab's own QrCodeWidget), read
from the same selector. "x platypus" is a document's time per page against the baseline's: below
1 is faster. Trivial reportlab pages (one line each) are timed too, as the floor.

The same sheets' text alone is timed too ("text alone"): every call the build makes on
reportlab's text objects (fonts, colours, origins, strings), recorded once and written again
straight through one text object a page, with nothing else. That is reportlab's own cost for
those strings, the floor of any drawing of them through its public API.

A round of the worst sheets the database could hold ("hostile" rows: every name, club and
licence 2,000 characters long, 60 penalty pules a table, every rules line long) must still
build in a few seconds: the text fitting is linear in the text's length.

    .venv/bin/python bench/pdf.py [--players 600] [--deals 24] [--federation-deals 28] [--repeat 5]

Targets: at least 200 pages a second for the filled sheets, of either format, on an idle
machine; the hostile round under 5 seconds.
"""

from __future__ import annotations

import argparse
import inspect
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from simulated import simulated_tournament

TARGET_PAGES_PER_SECOND = 200
HOSTILE_SECONDS = 5.0
HOSTILE_LENGTH = 2000


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


def platypus_sheets(document) -> bytes:
    """The baseline: the same sheets set the plain way, with platypus flowables (a heading of
    Paragraphs, the players and deals as Tables, the settlement and totals under them) and
    reportlab's own QR widget, one page per table."""
    from reportlab.graphics.barcode.qr import QrCodeWidget
    from reportlab.graphics.shapes import Drawing
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.platypus import (
        PageBreak,
        Paragraph,
        SimpleDocTemplate,
        Spacer,
        Table,
        TableStyle,
    )

    from documents.fonts import BOLD, REGULAR
    from documents.sheet_data import signed, total_text

    title = ParagraphStyle("title", fontName=BOLD, fontSize=15, leading=18)
    small = ParagraphStyle("small", fontName=REGULAR, fontSize=8.5, leading=10)
    grid = TableStyle(
        [
            ("FONT", (0, 0), (-1, -1), REGULAR, 7.5),
            ("FONT", (0, 0), (-1, 0), BOLD, 7),
            ("GRID", (0, 0), (-1, -1), 0.35, colors.grey),
            ("BACKGROUND", (0, 0), (-1, 0), colors.lightgrey),
            ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.whitesmoke]),
            ("TOPPADDING", (0, 0), (-1, -1), 1),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
        ]
    )
    story = []
    for sheet in document.sheets:
        code = QrCodeWidget(sheet.entry_url or "-", barLevel="M")
        left, bottom, right, top = code.getBounds()
        drawing = Drawing(70, 70, transform=[70 / (right - left), 0, 0, 70 / (top - bottom), 0, 0])
        drawing.add(code)
        heading = Table(
            [
                [
                    [
                        Paragraph("Score sheet: table protocol", title),
                        Paragraph(document.event.name, small),
                        Paragraph(document.event.place_and_date, small),
                        Paragraph(
                            f"Round {document.round_number} · Table {sheet.table_number}", title
                        ),
                        Paragraph(sheet.status, small),
                        Paragraph(" · ".join(sheet.rules), small),
                    ],
                    drawing,
                ]
            ],
            colWidths=[110 * mm, 75],
        )
        players = Table(
            [["Seat", "Player", "Club", "Licence"]]
            + [[p.seat, p.name[:40], p.club[:30], p.licence[:12]] for p in sheet.players],
            style=grid,
        )
        rows = [
            ["No.", "Dealer", "Game", "Declarer", "Points", "Tricks", "Pules"]
            + [f"{p.seat}. {p.short_name[:12]}" for p in sheet.players]
        ]
        for deal in sheet.deals:
            dealer = sheet.players[deal.dealer_seat - 1]
            totals = deal.totals or ()
            scores = deal.scores or ()
            rows.append(
                [deal.number, f"{dealer.seat}. {dealer.short_name[:12]}", deal.game]
                + [deal.declarer[:14], deal.points, deal.tricks, deal.pule_marks]
                + [f"{signed(s)}  {total_text(t)}" for s, t in zip(scores, totals, strict=True)]
            )
        for label, values in (
            ("Settlement", [signed(v) for v in sheet.settlement or ()]),
            ("Total", [total_text(v) for v in sheet.totals or ()]),
            ("Place", [str(v) for v in sheet.places or ()]),
            ("Place points", list(sheet.place_points or ())),
        ):
            rows.append(["", label, "", "", "", "", "", *values])
        deals = Table(rows, style=grid, rowHeights=[14] + [10.5] * (len(rows) - 1))
        story += [heading, Spacer(0, 4), players, Spacer(0, 6), deals, PageBreak()]
    buffer = io.BytesIO()
    SimpleDocTemplate(
        buffer, pagesize=A4, leftMargin=12 * mm, rightMargin=12 * mm, topMargin=12 * mm
    ).build(story)
    return buffer.getvalue()


TEXT_CALLS = ("setFont", "setFillColorRGB", "setTextOrigin", "textLine")


def text_calls(build: Callable[[], bytes]) -> list[tuple[str | None, tuple]]:
    """What a build asks of reportlab's text objects, in order, None where a page ends: the
    strings, their fonts, colours and places, without the data, the pen, lines or QR codes."""
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.pdfgen.textobject import PDFTextObject

    calls: list[tuple[str | None, tuple]] = []
    originals = {name: getattr(PDFTextObject, name) for name in TEXT_CALLS}
    show_page = Canvas.showPage

    def recording(name: str) -> Callable:
        original = originals[name]

        def record(self, *args):
            calls.append((name, args))
            return original(self, *args)

        return record

    def page_end(self) -> None:
        calls.append((None, ()))
        show_page(self)

    try:
        for name in TEXT_CALLS:
            setattr(PDFTextObject, name, recording(name))
        Canvas.showPage = page_end
        build()
    finally:
        for name, original in originals.items():
            setattr(PDFTextObject, name, original)
        Canvas.showPage = show_page
    return calls


def text_alone(calls: list[tuple[str | None, tuple]]) -> Callable[[], bytes]:
    """The recorded text written again through one text object a page, and saved."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    from documents.fonts import REGULAR

    def build() -> bytes:
        buffer = io.BytesIO()
        canvas = Canvas(buffer, pagesize=A4, pageCompression=1, initialFontName=REGULAR)
        text = canvas.beginText()
        for name, args in calls:
            if name is None:
                canvas.drawText(text)
                canvas.showPage()
                text = canvas.beginText()
            else:
                getattr(text, name)(*args)
        canvas.save()
        return buffer.getvalue()

    return build


def hostile(document):
    """The same sheets with everything a sheet prints as long as the database could hold it."""
    import dataclasses

    long = "Ķ" * (HOSTILE_LENGTH // 2) + " Bērziņš " + "ā" * (HOSTILE_LENGTH // 2)
    sheets = []
    for sheet in document.sheets:
        players = tuple(
            dataclasses.replace(player, name=long, short_name=long, club=long, licence=long)
            for player in sheet.players
        )
        deals = tuple(dataclasses.replace(deal, game=long, declarer=long) for deal in sheet.deals)
        sheets.append(
            dataclasses.replace(
                sheet,
                players=players,
                deals=deals,
                status=long,
                penalties=tuple(f"{long} (before deal {n % 24 + 1})" for n in range(60)),
                rules=(long,) * 10,
            )
        )
    return dataclasses.replace(document, sheets=tuple(sheets))


def accelerated(module) -> bool:
    """Whether reportlab picked its C accelerator (the rl_accel package) up: its functions are
    then built-ins rather than reportlab's Python fallbacks."""
    return all(
        inspect.isbuiltin(getattr(module, name))
        for name in ("fp_str", "escapePDF", "instanceStringWidthTTF")
    )


def timed(
    build: Callable[[], bytes], repeat: int, before: Callable[[], None]
) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds (this process's) of each build. On a shared machine the CPU
    time is the steadier figure: the wall clock also counts the time other work took the cores."""
    wall, cpu = [], []
    for _ in range(repeat):
        before()
        start, start_cpu = time.perf_counter(), time.process_time()
        build()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return wall, cpu


def federation_round(*, deals: int, seed: int):
    """The players of the "bench" tournament at tables of 4 in a second tournament (28 deals,
    the federation's pule options), one round published and played with `--fast`'s writes.

    Seated by hand, four by four in entry order: the seating engine of this branch seats tables
    of 3 only (tables of 4 come with the engine's seating branch); the sheets do not mind who
    sits where."""
    from django.utils import timezone

    from demo.simulation import play_simulated_round
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
    entries = services.registrations_create(tournament=tournament, players=Player.objects.all())
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
        Seat(table=table, position=position, registration=entries[4 * index + position - 1])
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
    from reportlab.lib import rl_accel

    from documents import selectors
    from documents.fonts import prepare_reportlab
    from documents.printing import printed_in, round_sheets_pdf
    from documents.qr import qr_path
    from documents.score_sheets import render_score_sheets
    from tournaments.models import Round

    round_ = Round.objects.select_related("tournament").get(tournament__slug="bench", number=1)
    tables = round_.tables.count()
    started = time.perf_counter()
    fours = federation_round(deals=args.federation_deals, seed=args.seed)
    built += time.perf_counter() - started
    four_tables = fours.tables.count()

    def entry_url(token: str) -> str:
        return f"https://zole.example.lv/r/{token}/"

    prepare_reportlab()  # once per process, as in the server
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

    def read(checked: Round):
        with printed_in(checked.tournament):
            return selectors.round_score_sheets(round_=checked, entry_url=entry_url)

    def platypus() -> bytes:
        with printed_in(round_.tournament):
            return platypus_sheets(read(round_))

    def drawn(document) -> Callable[[], bytes]:
        def build() -> bytes:
            with printed_in(round_.tournament):
                return render_score_sheets(document)

        return build

    baseline_pages = len(PdfReader(io.BytesIO(platypus())).pages)
    threes_text = text_alone(text_calls(sheets(round_)))
    fours_text = text_alone(text_calls(sheets(fours)))
    hostile_threes = hostile(read(round_))
    hostile_pages = len(PdfReader(io.BytesIO(drawn(hostile_threes)())).pages)

    # (name, pages, build, before each build)
    documents: list[tuple[str, int, Callable[[], bytes], Callable[[], None]]] = [
        ("platypus sheets (baseline)", baseline_pages, platypus, lambda: None),
        ("trivial reportlab pages", tables, lambda: trivial_pages(tables), lambda: None),
        ("filled sheets", tables, sheets(round_), qr_path.cache_clear),
        ("blank sheets", tables, sheets(round_, blank=True), qr_path.cache_clear),
        ("filled sheets, QR codes cached", tables, sheets(round_), lambda: None),
        ("filled sheets: their text alone", tables, threes_text, lambda: None),
        (
            f"filled, {args.federation_deals} deals, tables of 4",
            four_tables,
            sheets(fours),
            qr_path.cache_clear,
        ),
        (
            f"filled, {args.federation_deals} deals: text alone",
            four_tables,
            fours_text,
            lambda: None,
        ),
        (
            f"blank, {args.federation_deals} deals, tables of 4",
            four_tables,
            sheets(fours, blank=True),
            qr_path.cache_clear,
        ),
        (
            "hostile sheets, drawing only",
            hostile_pages,
            drawn(hostile_threes),
            qr_path.cache_clear,
        ),
    ]
    measurements = {
        name: (pages, timed(build, args.repeat, before)) for name, pages, build, before in documents
    }
    baseline_pages, (baseline_wall, baseline_cpu) = measurements["platypus sheets (baseline)"]
    baseline = statistics.median(baseline_wall) / baseline_pages
    baseline_on_cpu = statistics.median(baseline_cpu) / baseline_pages
    print(
        f"PDF benchmark: {args.players} players; {tables} tables of 3 at {args.deals} deals "
        f"({sizes['threes']:.0f} KiB of sheets) and {four_tables} tables of 4 at "
        f"{args.federation_deals} deals ({sizes['fours']:.0f} KiB); SQLite, built in "
        f"{built:.1f} s; median of {args.repeat}; reportlab's C accelerator "
        f"{'in use' if accelerated(rl_accel) else 'NOT in use (pure-Python fallbacks)'}"
    )
    print(
        "{:36} {:>6} {:>8} {:>8} {:>10} {:>8} {:>8} {:>10}".format(
            "document",
            "pages",
            "seconds",
            "pages/s",
            "x platypus",
            "CPU s",
            "pages/s",
            "x platypus",
        )
    )
    rates = {}
    for name, (pages, (wall, cpu)) in measurements.items():
        median, median_cpu = statistics.median(wall), statistics.median(cpu)
        rates[name] = (pages / median, pages / median_cpu)
        print(
            f"{name:36} {pages:>6} {median:>8.3f} {pages / median:>8.0f} "
            f"{median / pages / baseline:>10.2f} {median_cpu:>8.3f} {pages / median_cpu:>8.0f} "
            f"{median_cpu / pages / baseline_on_cpu:>10.2f}"
        )
    verdicts = []
    for name in ("filled sheets", f"filled, {args.federation_deals} deals, tables of 4"):
        wall_rate, cpu_rate = rates[name]
        verdicts.append(
            f"{name} {'met' if wall_rate >= TARGET_PAGES_PER_SECOND else 'NOT met'} "
            f"({wall_rate:.0f} pages/s; {cpu_rate:.0f} on CPU time)"
        )
    print(f"target {TARGET_PAGES_PER_SECOND} pages/s: {'; '.join(verdicts)}")
    hostile_wall, hostile_cpu = measurements["hostile sheets, drawing only"][1]
    worst_cpu = max(hostile_cpu)
    print(
        f"hostile round ({HOSTILE_LENGTH}-character names, 60 penalty pules a table): slowest of "
        f"{args.repeat} {max(hostile_wall):.2f} s on the clock, {worst_cpu:.2f} s of CPU; target "
        f"under {HOSTILE_SECONDS:.0f} s of CPU (the clock on an idle machine) "
        f"{'met' if worst_cpu < HOSTILE_SECONDS else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
