"""The one error type the engine raises for bad input."""

from __future__ import annotations

import json


class SheetError(ValueError):
    """Bad input, with where it is: the deal (1-based entry of the sheet) and the field.

    `str()` gives the one-line message shown to people and printed by the command line,
    e.g. ``deal 7: points must be 0-120, got 130``.
    """

    def __init__(self, message: str, *, deal: int | None = None, field: str | None = None) -> None:
        self.message = message
        self.deal = deal
        self.field = field
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"deal {self.deal}: " if self.deal is not None else ""
        return f"{where}{self.message}"

    def at_deal(self, deal: int) -> SheetError:
        """The same error, placed at a deal of the sheet."""
        return SheetError(self.message, deal=deal, field=self.field)


def shown(value: object) -> str:
    """A value as the person typed it in JSON (Latvian letters kept), for error messages."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)
