"""The documents' fonts: DejaVu Sans shipped with the project (fonts/), registered once (as
`DocumentTTFont`, which splits each string into the font's subsets once per document); and the
one reportlab setting the documents change, set once, here.

The PDF standard fonts (Helvetica, ...) have no ā č ē ģ ī ķ ļ ņ š ū ž nor Cyrillic, so every
document draws with this TTF; reportlab embeds the subset of glyphs a document uses, with a
ToUnicode map, so the names also read back as text. Nothing is loaded from the machine's fonts.
"""

from __future__ import annotations

import threading
import weakref
from pathlib import Path
from typing import Any

from reportlab import rl_config
from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = "ZoleDejaVuSans"
BOLD = "ZoleDejaVuSans-Bold"
FONT_FILES = {REGULAR: FONT_DIR / "DejaVuSans.ttf", BOLD: FONT_DIR / "DejaVuSans-Bold.ttf"}

Chunks = list[tuple[int, bytes]]  # a string as (subset, its codes in that subset), in order


class DocumentTTFont(TTFont):
    """reportlab's TTFont, keeping how it split each string it wrote into subsets, for each
    document.

    reportlab's protocol for dynamic fonts (the note opening reportlab.pdfbase.ttfonts): the
    text object asks the font's `splitString(text, doc)` for a string's chunks, each one
    subset's codes, every time it writes the string; TTFont works them out character by
    character in Python, each time. A round's names, numbers and words come back on every row
    and sheet: a sixth of a score sheet's drawing would go to splitting the same strings again.
    A document's subsets only grow (a character keeps the code it was first given), so a
    string's chunks stay what they were; they are kept per document, in a weak dictionary
    that forgets a document with it, and dropped once the font writes the document's subsets
    out (`addObjects`, at save), when TTFont forgets them too."""

    def __init__(self, name: str, filename: str) -> None:
        super().__init__(name, filename)
        self.chunks: weakref.WeakKeyDictionary[Any, dict[str, Chunks]] = weakref.WeakKeyDictionary()
        # The document written last and its chunks: a document's strings come one after the
        # other, and looking the document up in the weak dictionary made a new weak reference
        # each time.
        self.last: tuple[weakref.ref[Any], dict[str, Chunks]] | None = None

    def splitString(self, text: Any, doc: Any, *args: Any, **kwargs: Any) -> Chunks:
        if args or kwargs or type(text) is not str:
            # Bytes, an encoding, a shaped string: as TTFont does it, not kept.
            return super().splitString(text, doc, *args, **kwargs)
        last = self.last
        kept: dict[str, Chunks] | None
        if last is not None and last[0]() is doc:
            kept = last[1]
        else:
            kept = self.chunks.get(doc)
            if kept is None:
                kept = self.chunks[doc] = {}
            self.last = (weakref.ref(doc), kept)
        chunks = kept.get(text)
        if chunks is None:
            chunks = kept[text] = super().splitString(text, doc)
        return chunks

    def addObjects(self, doc: Any) -> None:
        self.chunks.pop(doc, None)
        self.last = None
        super().addObjects(doc)


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
    one place that sets an rl_config value (tests/documents/test_documents_public_api.py)."""
    global _prepared
    if _prepared:
        return
    with _lock:
        if _prepared:
            return
        rl_config.useA85 = 0
        for name, path in FONT_FILES.items():
            pdfmetrics.registerFont(DocumentTTFont(name, str(path)))
        # <b> in a platypus paragraph, should one ever be used, picks the bold file.
        addMapping(REGULAR, 0, 0, REGULAR)
        addMapping(REGULAR, 1, 0, BOLD)
        addMapping(REGULAR, 0, 1, REGULAR)
        addMapping(REGULAR, 1, 1, BOLD)
        _prepared = True
