"""QR codes on the score sheets, from reportlab's own encoder: `qrencoder.QRCode`, the one its
widget reportlab.graphics.barcode.qr.QrCodeWidget draws with (no other library).

Four shortcuts make a code cheap enough for a 200-page round (bench/pdf.py):
- the mask pattern is fixed: the encoder's search for the best of the eight masks scores every
  one of them and takes about 80 % of its time (5-10 ms a code in pure Python). Any mask decodes;
  the search only picks the one least likely to confuse a reader, which matters little at the
  size printed here (over 0.6 mm a module, error correction level M);
- the Reed-Solomon error-correction codewords come from log tables (reportlab multiplies and
  divides polynomial objects, recursively, about 1 ms a code); everything else, the data bits,
  the blocks, the padding and the placing of the modules, is reportlab's;
- where the data modules go is worked out once per version, not once per code;
- the dark modules are written straight into the page as one path of rectangles in module units
  (one `re` per run of dark modules in a row), instead of one reportlab shape per run.
The tests check the codewords against reportlab's own and decode the printed codes.
"""

from __future__ import annotations

import functools
import itertools
from typing import ClassVar

from reportlab.graphics.barcode import qrencoder

ERROR_CORRECTION = "M"  # 15 % of the code may be smudged or written over
MASK_PATTERN = 0
QUIET_ZONE = 4  # modules of white around the code, as the standard asks


@functools.cache
def _generator_logs(error_codewords: int) -> tuple[int, ...]:
    """The logarithms of the Reed-Solomon generator polynomial's coefficients after its leading
    1, from reportlab's own polynomial (its coefficients are never 0)."""
    generator = qrencoder.QRUtil.getErrorCorrectPolynomial(error_codewords)
    return tuple(qrencoder.QRMath.glog(coefficient) for coefficient in generator.num[1:])


def _remainder(data: list[int], generator_logs: tuple[int, ...]) -> list[int]:
    """The error-correction codewords of one block: the remainder of the data polynomial,
    shifted, divided by the generator (the textbook shift register, over GF(256))."""
    exp, log = qrencoder.EXP_TABLE, qrencoder.LOG_TABLE
    remainder = [0] * len(generator_logs)
    for byte in data:
        factor = byte ^ remainder.pop(0)
        remainder.append(0)
        if factor:
            factor_log = log[factor]
            for index, generator_log in enumerate(generator_logs):
                remainder[index] ^= exp[(factor_log + generator_log) % 255]
    return remainder


def codewords(code: qrencoder.QRCode) -> list[int]:
    """What reportlab's `QRCode.createData` returns: the data bits padded to the version's
    capacity, split into blocks, each block's error correction, interleaved."""
    blocks = qrencoder.QRRSBlock.getRSBlocks(code.version, code.errorCorrectLevel)
    buffer = qrencoder.QRBitBuffer()
    for data in code.dataList:
        data.write(buffer, code.version)
    capacity = sum(block.dataCount for block in blocks) * 8
    if buffer.getLengthInBits() > capacity:
        raise ValueError(f"{buffer.getLengthInBits()} bits do not fit {capacity}")
    if buffer.getLengthInBits() + 4 <= capacity:
        buffer.put(0, 4)  # the terminator
    while buffer.getLengthInBits() % 8:
        buffer.putBit(False)
    pads = itertools.cycle((qrencoder.QRCode.PAD0, qrencoder.QRCode.PAD1))
    while buffer.getLengthInBits() < capacity:
        buffer.put(next(pads), 8)
    data_blocks, error_blocks = [], []
    offset = 0
    for block in blocks:
        data = buffer.buffer[offset : offset + block.dataCount]
        offset += block.dataCount
        data_blocks.append(data)
        error_blocks.append(_remainder(data, _generator_logs(block.totalCount - block.dataCount)))
    return [
        byte
        for column in itertools.chain(
            itertools.zip_longest(*data_blocks), itertools.zip_longest(*error_blocks)
        )
        for byte in column
        if byte is not None
    ]


class _QRCode(qrencoder.QRCode):
    """reportlab's encoder (the one QrCodeWidget wraps), remembering where the data modules go
    in each version: the same for every code of that version, and reportlab works them out
    again for each code."""

    _positions_by_version: ClassVar[dict[int, list[tuple[int, int]]]] = {}

    def dataPosIterator(self) -> list[tuple[int, int]]:  # reportlab's method, overridden
        positions = self._positions_by_version.get(self.version)
        if positions is None:
            positions = list(self._dataPosIterator())
            self._positions_by_version[self.version] = positions
        return positions


def qr_modules(text: str) -> list[list[bool]]:
    """The code's modules, row by row from the top; True is dark."""
    code = _QRCode(None, getattr(qrencoder.QRErrorCorrectLevel, ERROR_CORRECTION))
    code.addData(text)
    code.version = code.calculate_version()
    code.dataCache = codewords(code)  # makeImpl uses these rather than computing its own
    code.makeImpl(False, MASK_PATTERN)
    return code.modules


def dark_runs(modules: list[list[bool]]) -> list[tuple[int, int, int]]:
    """(row, first column, length) of every run of dark modules."""
    runs = []
    for row_index, row in enumerate(modules):
        column = 0
        for dark, group in itertools.groupby(row):
            length = len(list(group))
            if dark:
                runs.append((row_index, column, length))
            column += length
    return runs


@functools.lru_cache(maxsize=1024)
def qr_path(text: str) -> tuple[int, str]:
    """The code's size in modules and the path of its dark modules in module units, rows
    growing downwards from the top left corner. Cached: a round's sheets are printed blank and
    then filled, with the same links."""
    modules = qr_modules(text)
    path = " ".join(
        f"{column} {-row - 1} {length} 1 re" for row, column, length in dark_runs(modules)
    )
    return len(modules), path


def qr_operators(text: str, *, x: float, y: float, size: float) -> str:
    """PDF operators that draw the code of `text` in a `size` square whose lower left corner is
    (x, y), quiet zone included."""
    count, path = qr_path(text)
    unit = size / (count + 2 * QUIET_ZONE)
    top = y + size - QUIET_ZONE * unit
    left = x + QUIET_ZONE * unit
    return f"0 g {unit:.4f} 0 0 {unit:.4f} {left:.3f} {top:.3f} cm {path} f"
