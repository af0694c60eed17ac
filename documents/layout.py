"""What every printed document shares: the level's variant, the heading, the footer, table grids,
signature lines and blocks flowing over pages (the pen, the page and the inks: pen.py).

The documents are drawn on a reportlab canvas at fixed positions rather than flowed by platypus:
each page's content is known in advance (one table per sheet, a fixed number of rows per page),
so the pagination is computed before drawing ("page x of y" in one pass), and a 200-page round of
sheets builds in a second or two, several times faster than the same sheets set with platypus
(bench/pdf.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext as _

from documents.pen import (
    FOOTER_BASELINE,
    INK,
    MARGIN,
    MUTED,
    SHADE,
    Align,
    Pen,
)
from tournaments.models import Level

# -- The level's variant --------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """What a tournament's level adds to its documents. One set of drawing code reads these
    switches; there is no second copy of a document per level."""

    level: str
    level_label: str
    federation: str  # the heading above every page; "" for none
    licences: bool  # licence numbers in the seating list and the protocol
    referee_signatures: bool  # a signature line for every table referee in the protocol
    control_totals: bool  # each table's sums in the protocol
    page_of_pages: bool  # "page x of y" rather than "page x"


def federation_name() -> str:
    # A setting, so a federation can print its own name; the default is the Latvian one.
    return getattr(settings, "ZOLE_FEDERATION_NAME", "") or _("Latvian Zole Federation")


def variant_for(level: str) -> Variant:
    if level == Level.NATIONAL:
        return Variant(
            level=level,
            level_label=_("National tournament"),
            federation=federation_name(),
            licences=True,
            referee_signatures=True,
            control_totals=True,
            page_of_pages=True,
        )
    label = _("District tournament") if level == Level.DISTRICT else _("Club tournament")
    # A club event prints like a district one: the lighter documents.
    return Variant(
        level=level,
        level_label=label,
        federation="",
        licences=False,
        referee_signatures=False,
        control_totals=False,
        page_of_pages=False,
    )


@dataclass(frozen=True)
class EventInfo:
    """The tournament as every page's heading and footer name it."""

    name: str
    venue: str
    dates: str
    printed_at: str
    variant: Variant

    @property
    def place_and_date(self) -> str:
        return " · ".join(
            part for part in (self.variant.level_label, self.venue, self.dates) if part
        )


# -- Page furniture ------------------------------------------------------------------------------


def draw_federation(pen: Pen, variant: Variant, top: float) -> float:
    """The federation's line above a national document; returns the top of what follows."""
    if not variant.federation:
        return top
    baseline = top - 8
    pen.text(
        MARGIN,
        baseline,
        variant.federation.upper(),
        size=8,
        bold=True,
        align="center",
        width=pen.width - 2 * MARGIN,
        color=MUTED,
    )
    pen.line(MARGIN, baseline - 4, pen.width - MARGIN, baseline - 4, width=0.8, color=INK)
    return top - FEDERATION_HEIGHT


FEDERATION_HEIGHT = 18
TITLE_LINE, NAME_LINE, PLACE_LINE, SUBTITLE_LINE, HEADING_GAP = 15, 15, 12, 15, 8


def heading_height(event: EventInfo, *, subtitle: bool = False) -> float:
    """The height `draw_heading` takes from the top margin down."""
    federation = FEDERATION_HEIGHT if event.variant.federation else 0
    lines = TITLE_LINE + NAME_LINE + PLACE_LINE + (SUBTITLE_LINE if subtitle else 0)
    return federation + lines + HEADING_GAP


def draw_heading(
    pen: Pen, event: EventInfo, title: str, *, subtitle: str = "", width: float | None = None
) -> float:
    """The document's title, the tournament, its level, venue and dates; returns the top of
    what follows."""
    width = width if width is not None else pen.width - 2 * MARGIN
    top = draw_federation(pen, event.variant, pen.height - MARGIN)
    y = top - TITLE_LINE
    pen.text(MARGIN, y, title, size=15, bold=True, width=width)
    y -= NAME_LINE
    pen.text(MARGIN, y, event.name, size=11, bold=True, width=width)
    y -= PLACE_LINE
    pen.text(MARGIN, y, event.place_and_date, size=8.5, width=width, color=MUTED)
    if subtitle:
        y -= SUBTITLE_LINE
        pen.text(MARGIN, y, subtitle, size=12, bold=True, width=width)
    return y - HEADING_GAP


def page_label(variant: Variant, page: int, pages: int) -> str:
    if variant.page_of_pages:
        return _("page %(page)d of %(pages)d") % {"page": page, "pages": pages}
    return _("page %(page)d") % {"page": page}


def draw_footer(pen: Pen, page: int, pages: int, *, event: EventInfo, what: str) -> None:
    y = FOOTER_BASELINE
    right = page_label(event.variant, page, pages)
    right_width = pen.text_width(right, 7) + 4
    left = " · ".join(part for part in (event.name, what) if part)
    printed = _("printed %(when)s") % {"when": event.printed_at}
    pen.line(MARGIN, y + 9, pen.width - MARGIN, y + 9, width=0.4)
    pen.text(
        MARGIN,
        y,
        f"{left} · {printed}",
        size=7,
        color=MUTED,
        width=pen.width - 2 * MARGIN - right_width - 6,
    )
    pen.text(
        pen.width - MARGIN,
        y,
        right,
        size=7,
        bold=event.variant.page_of_pages,
        align="right",
        color=MUTED,
    )


def draw_signatures(
    pen: Pen,
    labels: Sequence[str],
    *,
    x: float,
    y: float,
    width: float,
    per_row: int,
    row_height: float = 30,
) -> float:
    """Signature lines with their captions underneath, `per_row` to a row, starting with the
    line at `y`; returns the y below the last caption."""
    gap = 10
    cell = (width - gap * (per_row - 1)) / per_row
    for index, label in enumerate(labels):
        row, column = divmod(index, per_row)
        left = x + column * (cell + gap)
        line_y = y - row * row_height
        pen.line(left, line_y, left + cell, line_y, width=0.6, color=INK)
        pen.text(left, line_y - 8, label, size=7, width=cell, color=MUTED)
    rows = -(-len(labels) // per_row)
    return y - (rows - 1) * row_height - 14


# -- Grids ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    title: str
    width: float
    align: Align = "left"
    bold: bool = False


def column_edges(x: float, columns: Sequence[Column]) -> list[float]:
    edges = [x]
    for column in columns:
        edges.append(edges[-1] + column.width)
    return edges


def draw_grid_lines(
    pen: Pen,
    *,
    x: float,
    top: float,
    widths: Sequence[float],
    header_height: float,
    row_height: float,
    rows: int,
) -> None:
    """A table's lines and its shaded header, without the titles."""
    edges = [x]
    for width in widths:
        edges.append(edges[-1] + width)
    bottom = top - header_height - rows * row_height
    pen.box(x, top - header_height, edges[-1] - x, header_height, stroke=None, fill=SHADE)
    for index in range(rows + 1):
        y = top - header_height - index * row_height
        pen.line(x, y, edges[-1], y, width=0.35)
    pen.line(x, top, edges[-1], top, width=0.9, color=INK)
    pen.line(x, bottom, edges[-1], bottom, width=0.9, color=INK)
    for edge in edges:
        pen.line(edge, top, edge, bottom, width=0.35)


def draw_column_titles(
    pen: Pen,
    *,
    x: float,
    top: float,
    columns: Sequence[Column],
    header_height: float,
    header_size: float = 7.5,
) -> None:
    for column, left in zip(columns, column_edges(x, columns), strict=False):
        pen.text(
            left + 2,
            top - header_height / 2 - header_size / 3,
            column.title,
            size=header_size,
            bold=True,
            align=column.align,
            width=column.width - 4,
        )


# -- Flowing blocks over pages -------------------------------------------------------------------

DrawBlock = Callable[[Pen, float], None]  # draws a block whose top edge is at the given y


class Flow:
    """Blocks of known height placed down the pages, a new page when the next one does not fit.

    Everything is placed before anything is drawn, so the page count is known when the pages are
    drawn ("page x of y" in one pass). While a table runs over pages, its header (`repeat`) opens
    every new page."""

    def __init__(self, *, first_top: float, next_top: float, bottom: float) -> None:
        self.next_top = next_top
        self.bottom = bottom
        self.pages: list[list[tuple[float, DrawBlock]]] = [[]]
        self.y = first_top
        self.repeat: tuple[float, DrawBlock] | None = None

    def fits(self, height: float) -> bool:
        return self.y - height >= self.bottom

    def new_page(self) -> None:
        self.pages.append([])
        self.y = self.next_top
        if self.repeat is not None:
            self._put(*self.repeat)

    def add(self, height: float, draw: DrawBlock, *, keep_with: float = 0) -> None:
        """Place a block; `keep_with` is the height of what must follow it on the same page
        (a title keeps its first rows)."""
        if not self.fits(height + keep_with) and self.pages[-1]:
            self.new_page()
        self._put(height, draw)

    def skip(self, height: float) -> None:
        self.y -= height

    def _put(self, height: float, draw: DrawBlock) -> None:
        self.pages[-1].append((self.y, draw))
        self.y -= height

    def render(
        self,
        pen: Pen,
        *,
        heading: Callable[[Pen], object],  # what it returns (the height drawn) is not read
        footer: Callable[[Pen, int, int], None],
    ) -> None:
        """Every page: the heading, its blocks, and the footer with page x of y (in reading
        order, so the text also reads back in that order)."""
        total = len(self.pages)
        for number, blocks in enumerate(self.pages, start=1):
            heading(pen)
            for top, draw in blocks:
                draw(pen, top)
            footer(pen, number, total)
            pen.end_page()
