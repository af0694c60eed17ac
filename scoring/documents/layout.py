"""What every printed document shares: the level's variant, the page, the pen, the heading, the
footer, table grids and signature lines.

The documents are drawn on a reportlab canvas at fixed positions rather than flowed by platypus:
each page's content is known in advance (one table per sheet, a fixed number of rows per page),
so the pagination is computed before drawing ("page x of y" in one pass), and a 200-page round of
sheets builds in a second or two, several times faster than the same sheets set with platypus
(bench/pdf.py). Only reportlab's public API is used (tests/scoring/test_documents_public_api.py):
a reportlab release may change anything else.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Literal

from django.conf import settings
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.pathobject import PDFPathObject

from scoring.documents.fonts import BOLD, REGULAR, prepare_reportlab
from scoring.documents.qr import draw_qr
from tournaments.models import Level

PORTRAIT = A4
LANDSCAPE = landscape(A4)
MARGIN = 12 * mm
FOOTER_BASELINE = 7 * mm

INK = colors.black
MUTED = colors.Color(0.35, 0.35, 0.35)
RULE = colors.Color(0.55, 0.55, 0.55)
SHADE = colors.Color(0.9, 0.9, 0.9)
ZEBRA = colors.Color(0.96, 0.96, 0.96)
ALERT = colors.Color(0.75, 0.05, 0.05)

Align = Literal["left", "right", "center"]
ELLIPSIS = "…"
MIN_SHRINK = 0.78  # a long name is set up to this much smaller before it is cut short


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


# -- The pen ------------------------------------------------------------------------------------

# (the path's paint: "stroke", "fill" or "both"; line width; stroke colour; fill colour)
PathStyle = tuple[str, float | None, colors.Color | None, colors.Color | None]


class Pen:
    """Draws one document through reportlab's public canvas API: each page's text goes into one
    text object (`canvas.beginText`) laid on top when the page ends, its lines and boxes into
    path objects (`canvas.beginPath`), one for each run of lines or boxes of the same style, drawn
    in the order they were asked for (a shaded row first, its lines over it).

    reportlab embeds the subset of glyphs the text uses, with its ToUnicode map, so the text
    reads back. Measuring goes through the font's `stringWidth` (C with rl_accel); the width of
    every string drawn is kept for the document."""

    def __init__(self, canvas: Canvas, page_size: tuple[float, float]) -> None:
        self.canvas = canvas
        self.width, self.height = page_size
        self.fonts = {False: pdfmetrics.getFont(REGULAR), True: pdfmetrics.getFont(BOLD)}
        self._font_names = {False: REGULAR, True: BOLD}
        # (bold, text) → the width of a string drawn at 1 point
        self.widths: dict[tuple[bool, str], float] = {}
        # (bold, text, size, width) → the text and size that fit, and the former's width at 1 pt
        self._placed: dict[tuple[bool, str, float, float], tuple[str, float, float]] = {}
        # the key of a drawing of lines and boxes → the name of the form XObject holding it
        self._forms: dict[Hashable, str] = {}
        # (text, width, size, lines, bold) → the lines `wrap` made of it
        self._wrapped: dict[tuple[str, float, float, int, bool], tuple[str, ...]] = {}
        self._start_page()

    def _start_page(self) -> None:
        self._text = self.canvas.beginText()
        self._font: tuple[bool, float] | None = None
        self._text_color: colors.Color | None = None
        self._paths: list[tuple[PathStyle, PDFPathObject]] = []
        self._path_style: PathStyle | None = None
        self._path: PDFPathObject | None = None

    # Text.

    def _measure(self, text: str, bold: bool) -> float:
        """The width at 1 point of a string that is drawn, kept for the document."""
        key = (bold, text)
        unit_width = self.widths.get(key)
        if unit_width is None:
            unit_width = self.widths[key] = self.fonts[bold].stringWidth(text, 1)
        return unit_width

    def text_width(self, text: str, size: float, *, bold: bool = False) -> float:
        """Measured, not kept: only drawn text is kept in the document's widths (a line being
        wrapped or fitted is measured at many lengths that are never drawn)."""
        unit = self.widths.get((bold, text))
        if unit is not None:
            return unit * size
        return self.fonts[bold].stringWidth(text, size)

    def fit(self, text: str, size: float, width: float, *, bold: bool = False) -> tuple[str, float]:
        """The text and size that fit `width`: set a little smaller first, then cut short."""
        natural = self.text_width(text, size, bold=bold)
        if natural <= width:
            return text, size
        smaller = max(size * width / natural, size * MIN_SHRINK)
        if natural * smaller / size <= width:
            return text, smaller
        size = size * MIN_SHRINK
        # The longest prefix that fits with the ellipsis: each character measured once (the
        # font's widths add up character by character: no kerning), not every prefix.
        font = self.fonts[bold]
        room = width / size - font.stringWidth(ELLIPSIS, 1)
        used = 0.0
        length = 0
        for character in text:
            used += font.stringWidth(character, 1)
            if used > room:
                break
            length += 1
        return (text[:length].rstrip() + ELLIPSIS) if length else "", size

    def text(
        self,
        x: float,
        y: float,
        text: str,
        *,
        size: float = 9,
        bold: bool = False,
        align: Align = "left",
        width: float | None = None,
        color: colors.Color = INK,
    ) -> None:
        """Text on the baseline `y`. With `width`, it fits that width, aligned within it from
        `x` (its left edge)."""
        if not text:
            return
        # The hot path of every document: a few hundred calls a page, so kept lean.
        if width is not None:
            # Fitted once per document for each text, size and width: a sheet's names and
            # words come back on every row, however long they are.
            placed_key = (bold, text, size, width)
            placed = self._placed.get(placed_key)
            if placed is None:
                fitted, fitted_size = self.fit(text, size, width, bold=bold)
                placed = (fitted, fitted_size, self._measure(fitted, bold))
                self._placed[placed_key] = placed
            text, size, unit_width = placed
            if not text:
                return
            if align == "right":
                x += width
            elif align == "center":
                x += width / 2
        else:
            unit_width = self._measure(text, bold)
        if align == "right":
            x -= unit_width * size
        elif align == "center":
            x -= unit_width * size / 2
        out = self._text
        if self._text_color is not color:
            # As RGB values: a Color object also sets its alpha, a graphics state of its own.
            out.setFillColorRGB(color.red, color.green, color.blue)
            self._text_color = color
        # Every string is placed by its own origin (setTextOrigin), so the cursor's advance
        # along the line is never used: textLine writes the string without measuring it again
        # for that advance (textOut would: a fifth of its cost), and with a leading of 0 its
        # step to the next line goes nowhere, so the text reads back exactly as before.
        if self._font != (bold, size):
            out.setFont(self._font_names[bold], size, 0)
            self._font = (bold, size)
        out.setTextOrigin(x, y)
        out.textLine(text)

    def lines(
        self,
        text: str,
        x: float,
        y: float,
        width: float,
        *,
        size: float,
        leading: float,
        max_lines: int,
        bold: bool = False,
        color: colors.Color = INK,
    ) -> float:
        """Words wrapped into at most `max_lines` lines (the last one cut short if need be);
        returns the baseline below the last line."""
        for line in self.wrap(text, width, size=size, max_lines=max_lines, bold=bold):
            self.text(x, y, line, size=size, bold=bold, width=width, color=color)
            y -= leading
        return y

    def wrap(
        self, text: str, width: float, *, size: float, max_lines: int, bold: bool = False
    ) -> list[str]:
        """The lines `lines` draws, without drawing them: a block's height is known before it
        is placed. Kept for the document: the legend, the rules and most penalty lines are the
        same text on every sheet of a round, wrapped once."""
        key = (text, width, size, max_lines, bold)
        kept = self._wrapped.get(key)
        if kept is None:
            kept = self._wrapped[key] = tuple(self._wrap(text, width, size, max_lines, bold))
        return list(kept)

    def _wrap(self, text: str, width: float, size: float, max_lines: int, bold: bool) -> list[str]:
        wrapped: list[str] = []
        line = ""
        words = text.split()
        for index, word in enumerate(words):
            if line and len(wrapped) == max_lines - 1:
                # The last line takes the rest, cut short when drawn: measuring it word by
                # word would measure a long text once per word.
                line = " ".join([line, *words[index:]])
                break
            candidate = f"{line} {word}".strip()
            too_wide = self.text_width(candidate, size, bold=bold) > width
            if line and too_wide and len(wrapped) < max_lines - 1:
                wrapped.append(line)
                line = word
            else:
                line = candidate
        if line:
            wrapped.append(line)
        return wrapped

    # Lines and boxes.

    def _path_for(self, style: PathStyle) -> PDFPathObject:
        if style != self._path_style or self._path is None:
            self._path = self.canvas.beginPath()
            self._path_style = style
            self._paths.append((style, self._path))
        return self._path

    def line(
        self,
        x1: float,
        y1: float,
        x2: float,
        y2: float,
        *,
        width: float = 0.5,
        color: colors.Color = RULE,
    ) -> None:
        path = self._path_for(("stroke", width, color, None))
        path.moveTo(x1, y1)
        path.lineTo(x2, y2)

    def box(
        self,
        x: float,
        y: float,
        width: float,
        height: float,
        *,
        line: float = 0.5,
        stroke: colors.Color | None = RULE,
        fill: colors.Color | None = None,
    ) -> None:
        """A rectangle from its lower left corner."""
        if fill is None and stroke is None:
            return
        if fill is None:
            style: PathStyle = ("stroke", line, stroke, None)
        elif stroke is None:
            style = ("fill", None, None, fill)
        else:
            style = ("both", line, stroke, fill)
        self._path_for(style).rect(x, y, width, height)

    def static(self, key: Hashable, draw: Callable[[], None]) -> None:
        """Lines and boxes that come back the same on many pages of the document (a sheet's
        grid, its shading, its tally boxes), drawn by `draw` once into a form XObject
        (`canvas.beginForm`/`endForm`) and placed by reference (`canvas.doForm`) on every page
        that asks for the same `key`: the key must name everything the drawing depends on.

        Only lines and boxes: text stays in the page's own text object, in reading order. The
        form is painted where it is asked for among the page's lines and boxes, so what was
        drawn before lies under it and what comes after on top, as if drawn in place."""
        name = self._forms.get(key)
        if name is None:
            name = f"ZoleStatic{len(self._forms) + 1}"
            page = (self._paths, self._path_style, self._path)
            self._paths, self._path_style, self._path = [], None, None
            self.canvas.beginForm(name)
            draw()
            self._flush_paths()
            self.canvas.endForm()
            self._paths, self._path_style, self._path = page
            self._forms[key] = name
        self._flush_paths()
        self.canvas.doForm(name)

    def qr(self, text: str, *, x: float, y: float, size: float) -> None:
        """The QR code of `text` in a `size` square from its lower left corner (quiet zone
        included), drawn in its place among the lines and boxes."""
        self._flush_paths()
        draw_qr(self.canvas, text, x=x, y=y, size=size)

    def _flush_paths(self) -> None:
        canvas = self.canvas
        for (paint, line_width, stroke, fill), path in self._paths:
            if line_width is not None:
                canvas.setLineWidth(line_width)
            if stroke is not None:
                canvas.setStrokeColorRGB(stroke.red, stroke.green, stroke.blue)
            if fill is not None:
                canvas.setFillColorRGB(fill.red, fill.green, fill.blue)
            canvas.drawPath(path, stroke=paint != "fill", fill=paint != "stroke")
        self._paths = []
        self._path_style = None
        self._path = None

    def end_page(self) -> None:
        self._flush_paths()
        self.canvas.drawText(self._text)
        self.canvas.showPage()
        self._start_page()


def open_document(
    *, page_size: tuple[float, float], title: str, subject: str
) -> tuple[io.BytesIO, Pen]:
    prepare_reportlab()
    buffer = io.BytesIO()
    canvas = Canvas(
        buffer,
        pagesize=page_size,
        pageCompression=1,
        # The canvas's own start-of-page font: ours, so no Helvetica resource is written.
        initialFontName=REGULAR,
        initialFontSize=9,
        # The document's language (the tournament's, made active by scoring.documents), for
        # screen readers and hyphenation.
        lang=get_language() or settings.LANGUAGE_CODE,
    )
    canvas.setTitle(title)
    canvas.setSubject(subject)
    canvas.setCreator("Zole")
    return buffer, Pen(canvas, page_size)


def close_document(buffer: io.BytesIO, pen: Pen) -> bytes:
    pen.canvas.save()
    return buffer.getvalue()


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


def draw_grid(
    pen: Pen,
    *,
    x: float,
    top: float,
    columns: Sequence[Column],
    header_height: float,
    row_height: float,
    rows: int,
    header_size: float = 7.5,
) -> None:
    """A table's lines and column titles (the cells are filled by the caller)."""
    draw_grid_lines(
        pen,
        x=x,
        top=top,
        widths=[column.width for column in columns],
        header_height=header_height,
        row_height=row_height,
        rows=rows,
    )
    draw_column_titles(
        pen, x=x, top=top, columns=columns, header_height=header_height, header_size=header_size
    )


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
        heading: Callable[[Pen], None],
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
