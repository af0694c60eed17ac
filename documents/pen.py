"""The pen that draws every document through reportlab's public canvas API, the page sizes,
margins and inks the documents share, and opening and closing a document.

Only reportlab's public API is used (tests/documents/test_documents_public_api.py): a reportlab
release may change anything else."""

from __future__ import annotations

import io
from collections.abc import Callable, Hashable
from typing import Literal

from django.conf import settings
from django.utils.translation import get_language
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.pathobject import PDFPathObject

from documents.fonts import BOLD, REGULAR, prepare_reportlab
from documents.qr import draw_qr

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
        # (text, size, width, bold, align) → the text and size drawn (fitted to the width) and
        # the offset from x that aligns it: a round's names, numbers and words come back on
        # every row and every sheet, placed once for the document
        self._placed: dict[tuple[str, float, float | None, bool, str], tuple[str, float, float]]
        self._placed = {}
        # the key of a drawing of lines and boxes → the name of the form XObject holding it
        self._forms: dict[Hashable, str] = {}
        # (text, width, size, lines, bold) → the lines `wrap` made of it
        self._wrapped: dict[tuple[str, float, float, int, bool], tuple[str, ...]] = {}
        self._start_page()

    def _start_page(self) -> None:
        self._text = self.canvas.beginText()
        self._bold: bool | None = None  # the text object's font and size, once it has one
        self._size: float | None = None
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
        # The hot path of every document: a few hundred calls a page, so kept lean. Text set
        # from the left at its own size is drawn as it is, without being measured.
        if width is not None or align != "left":
            key = (text, size, width, bold, align)
            placed = self._placed.get(key)
            if placed is None:
                placed = self._placed[key] = self._place(text, size, width, bold, align)
            text, size, offset = placed
            if not text:
                return
            x += offset
        self._write(x, y, text, size, bold, color)

    def _place(
        self, text: str, size: float, width: float | None, bold: bool, align: Align
    ) -> tuple[str, float, float]:
        """The text and size drawn (fitted to `width` if given) and its offset from the left
        edge (or from the anchor, without a width) for `align`."""
        if width is not None:
            text, size = self.fit(text, size, width, bold=bold)
        if align == "left" or not text:
            return text, size, 0.0
        room = width or 0.0
        drawn = self._measure(text, bold) * size
        return text, size, room - drawn if align == "right" else (room - drawn) / 2

    def _write(
        self, x: float, y: float, text: str, size: float, bold: bool, color: colors.Color
    ) -> None:
        out = self._text
        if color is not self._text_color:
            # As RGB values: a Color object also sets its alpha, a graphics state of its own.
            out.setFillColorRGB(color.red, color.green, color.blue)
            self._text_color = color
        # Every string is placed by its own origin (setTextOrigin), so the cursor's advance
        # along the line is never used: textLine writes the string without measuring it again
        # for that advance (textOut would: a fifth of its cost), and with a leading of 0 its
        # step to the next line goes nowhere, so the text reads back exactly as before.
        if bold is not self._bold or size != self._size:
            out.setFont(self._font_names[bold], size, 0)
            self._bold, self._size = bold, size
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
        initialFontName=REGULAR,  # type: ignore[arg-type]  # the stubs say a number: it is a name
        initialFontSize=9,
        # The document's language (the tournament's, made active by documents), for
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
