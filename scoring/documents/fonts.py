"""The documents' fonts: DejaVu Sans shipped with the project (fonts/), registered once; and the
one reportlab setting the documents change, set once, here.

The PDF standard fonts (Helvetica, ...) have no ā č ē ģ ī ķ ļ ņ š ū ž nor Cyrillic, so every
document draws with this TTF; reportlab embeds the subset of glyphs a document uses, with a
ToUnicode map, so the names also read back as text. Nothing is loaded from the machine's fonts.
"""

from __future__ import annotations

import threading
from pathlib import Path

from reportlab import rl_config
from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = "ZoleDejaVuSans"
BOLD = "ZoleDejaVuSans-Bold"
FONT_FILES = {REGULAR: FONT_DIR / "DejaVuSans.ttf", BOLD: FONT_DIR / "DejaVuSans-Bold.ttf"}

_lock = threading.Lock()
_prepared = False


def prepare_reportlab() -> None:
    """Register the fonts with reportlab and make its one setting, once per process (parsing a
    TTF takes milliseconds; a request must not pay that for every document).

    The setting: `useA85`, documented in reportlab's rl_settings.py (whose values a program may
    override in rl_config), is turned off, so that compressed streams are written as binary
    rather than also ASCII85-encoded: a quarter smaller, and the encoding cost a fifth of a
    round's build time. The documents are this process's only use of reportlab, and the value
    never changes afterwards, so no thread ever sees it change under a document. This is the
    one place that sets an rl_config value (tests/scoring/test_documents_public_api.py)."""
    global _prepared
    if _prepared:
        return
    with _lock:
        if _prepared:
            return
        rl_config.useA85 = 0
        for name, path in FONT_FILES.items():
            pdfmetrics.registerFont(TTFont(name, str(path)))
        # <b> in a platypus paragraph, should one ever be used, picks the bold file.
        addMapping(REGULAR, 0, 0, REGULAR)
        addMapping(REGULAR, 1, 0, BOLD)
        addMapping(REGULAR, 0, 1, REGULAR)
        addMapping(REGULAR, 1, 1, BOLD)
        _prepared = True
