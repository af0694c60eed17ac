"""The one error type the engine raises for bad input, and how its messages get translated.

The engine stays free of Django and prints English. A message that reaches web pages is raised
from a *template* with named placeholders and its *params*::

    SheetError(gettext_noop("points must be %(low)s-%(high)s, got %(value)s"),
               field="points", low=0, high=120, value=130)

`message` is the English text (``template % params``), what `str()`, the command line and the
JSON contract show. The Django layer (`core.engine_text`) shows ``gettext(template) % params``
instead. `gettext_noop` only marks the literal for extraction (Django's makemessages runs xgettext
with ``--keyword=gettext_noop``).

A field name inside a message ("points", "tricks", "declarer") is never a param: each field has
its own template ("points must be ...", "tricks must be ..."), so a translation can phrase and
decline it as its language needs. Params named in `PLAYER_PARAMS` name a player (as the engine
knows him: the Django layer passes registration ids and shows the players' names instead).
"""

from __future__ import annotations

import json


def gettext_noop(message: str) -> str:
    """Mark `message` for translation without translating it (the engine prints English)."""
    return message


# Params that name a player, as typed or as `shown` (quoted): the Django layer may show a name.
PLAYER_PARAMS = frozenset({"player", "first", "second"})


class SheetError(ValueError):
    """Bad input, with where it is: the deal (1-based entry of the sheet) and the field.

    `str()` gives the one-line message shown to people and printed by the command line,
    e.g. ``deal 7: points must be 0-120, got 130``. `template` and `params` give the same
    message for translation (see the module's documentation); a plain message has no params.
    """

    def __init__(
        self,
        message: str,
        *,
        deal: int | None = None,
        field: str | None = None,
        **params: object,
    ) -> None:
        self.template = message
        self.params: dict[str, object] = dict(params)
        self.message = message % params if params else message
        self.deal = deal
        self.field = field
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"deal {self.deal}: " if self.deal is not None else ""
        return f"{where}{self.message}"

    def at_deal(self, deal: int) -> SheetError:
        """The same error, placed at a deal of the sheet."""
        return SheetError(self.template, deal=deal, field=self.field, **self.params)


def shown(value: object) -> str:
    """A value as the person typed it in JSON (Latvian letters kept), for error messages."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)
