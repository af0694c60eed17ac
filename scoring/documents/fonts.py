"""The documents' fonts: DejaVu Sans shipped with the project (fonts/), registered once.

The PDF standard fonts (Helvetica, ...) have no ā č ē ģ ī ķ ļ ņ š ū ž nor Cyrillic, so every
document draws with this TTF; reportlab embeds the subset of glyphs a document uses, with a
ToUnicode map, so the names also read back as text. Nothing is loaded from the machine's fonts.
"""

from __future__ import annotations

import threading
from pathlib import Path

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = "ZoleDejaVuSans"
BOLD = "ZoleDejaVuSans-Bold"
FONT_FILES = {REGULAR: FONT_DIR / "DejaVuSans.ttf", BOLD: FONT_DIR / "DejaVuSans-Bold.ttf"}

_lock = threading.Lock()
_registered = False


def register_fonts() -> None:
    """Register the fonts with reportlab, once per process (parsing a TTF takes milliseconds;
    a request must not pay that for every document)."""
    global _registered
    if _registered:
        return
    with _lock:
        if _registered:
            return
        for name, path in FONT_FILES.items():
            pdfmetrics.registerFont(TTFont(name, str(path)))
        # <b> in a platypus paragraph, should one ever be used, picks the bold file.
        addMapping(REGULAR, 0, 0, REGULAR)
        addMapping(REGULAR, 1, 0, BOLD)
        addMapping(REGULAR, 0, 1, REGULAR)
        addMapping(REGULAR, 1, 1, BOLD)
        _registered = True
