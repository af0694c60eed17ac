"""QR codes on the score sheets, encoded by zxing-cpp (the C++ library maintained by the
zxing-cpp project, with Python bindings from the same project; the tests already read the
printed codes back with it) and drawn with reportlab's public canvas API as one filled path.

The encoder is C++, and is given the mask pattern (`MASK`) rather than left to search the
eight of them by the standard's penalty rules: the search is four fifths of the encoding
(0.3 of 0.4 ms a code), while a link's code reads as well under any mask (the penalty rules
only avoid patterns that confuse some scanners, rare in a short link's random-looking data).
The same link always prints the same code. Error correction level M: 15 % of the code may be
smudged or written over. The tests decode the printed codes (tests/documents/test_documents.py).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

import zxingcpp
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.pathobject import PDFPathObject

ERROR_CORRECTION = "M"
# The mask pattern of every code: the one the penalty rules pick most often for the entry
# links (about a third of them).
MASK = 2
QUIET_ZONE = 4  # modules of white around the code, as the standard asks
# zxing-cpp's image of a code: one byte a module, 0 dark and 255 light; here 1 dark, 0 light.
TO_MODULES = bytes(1 if value < 128 else 0 for value in range(256))


def qr_modules(text: str) -> tuple[bytes, ...]:
    """The code's modules: rows from the top, one byte a module (1 dark, 0 light), without the
    quiet zone."""
    code = zxingcpp.create_barcode(
        text, zxingcpp.BarcodeFormat.QRCode, ec_level=ERROR_CORRECTION, data_mask=MASK
    )
    image = code.to_image(scale=1, add_quiet_zones=False)
    height, width = image.shape
    # The image has the buffer protocol; zxing-cpp's stubs do not say so.
    data = memoryview(image).tobytes().translate(TO_MODULES)  # type: ignore[arg-type]
    return tuple(data[row * width : (row + 1) * width] for row in range(height))


def qr_matrix(text: str) -> tuple[tuple[bool, ...], ...]:
    """The code's modules, row by row from the top, without the quiet zone; True is dark."""
    return tuple(tuple(bool(module) for module in row) for row in qr_modules(text))


DARK_RUN = re.compile(b"\x01+")


def dark_blocks(rows: Sequence[bytes | bytearray]) -> list[tuple[int, int, int, int]]:
    """(first column, first row, width, height) of rectangles that cover the dark modules
    exactly: each run of dark modules in a row (found by a regular expression over the row's
    bytes, not module by module), stretched down over the rows below that have the very same
    run. Some 250 rectangles for a code of 33 × 33 modules instead of some 300 runs."""
    blocks = []
    open_runs: dict[tuple[int, int], int] = {}  # (start, end) → the row it began in
    runs = DARK_RUN.finditer
    for row_index, row in enumerate(rows):
        current = {}
        pop = open_runs.pop
        for span in map(re.Match.span, runs(row)):
            current[span] = pop(span, row_index)
        for (start, end), first in open_runs.items():
            blocks.append((start, first, end - start, row_index - first))
        open_runs = current
    for (start, end), first in open_runs.items():
        blocks.append((start, first, end - start, len(rows) - first))
    return blocks


@functools.lru_cache(maxsize=1024)
def qr_path(text: str) -> tuple[int, PDFPathObject]:
    """The code's size in modules and a path of its dark modules in module units, rows growing
    downwards from its top left corner: one rectangle per block of `dark_blocks`. Cached (a
    path is drawn as often as asked, into any document): a round's sheets are printed blank
    and then filled, with the same links."""
    rows = qr_modules(text)
    path = PDFPathObject()
    rect = path.rect
    for column, row, width, height in dark_blocks(rows):
        rect(column, -row - height, width, height)
    return len(rows), path


def draw_qr(canvas: Canvas, text: str, *, x: float, y: float, size: float) -> None:
    """The code of `text` in a `size` square whose lower left corner is (x, y), quiet zone
    included, scaled into place in its own graphics state."""
    count, path = qr_path(text)
    unit = size / (count + 2 * QUIET_ZONE)
    canvas.saveState()
    canvas.transform(unit, 0, 0, unit, x + QUIET_ZONE * unit, y + size - QUIET_ZONE * unit)
    canvas.setFillColorRGB(0, 0, 0)
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()
