"""The forms a table's sheet offers (entry/_entry_forms.html), and their markup rendered once
per shape: the forms are sent after every deal.

After every deal a referee's phone is sent the next forms: the deal form, the penalty pule and
"remove the last entry". Their markup is the same from one deal to the next but for a handful of
values: the next position and deal number, the last entry's version, who deals, the players'
names and keys, the page's address, the CSRF token and each form's client key. Django renders a
form through a good many template nodes and field objects, which is most of the CPU of a deal's
answer; so the plain next-deal forms are rendered once per *shape* (the language, the rules, the
number of players, who deals and sits out, which forms are offered), with a mark in place of each
of those values, and each page fills its own values in (escaped as the template escapes them).
Everything else (a correction, a refused form and its errors, the confirmation at the end of the
sheet, a locked table) is rendered as it stands. tests/entry/test_entry_forms.py checks
that a page filled from the memory is the page rendered directly, over tables of three and four,
every rule set, names that need escaping.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from functools import cached_property, lru_cache

from django import forms
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from engine import Rules
from entry.forms import (
    AllowDealsForm,
    ConfirmForm,
    DealForm,
    PenaltyForm,
    RemoveForm,
    UnlockForm,
    correction_initial,
)
from scoring.sheet_view import SheetPlayer, SheetRow, TableSheetView

FORMS_TEMPLATE = "entry/_entry_forms.html"
FORM_NAMES = (
    "deal_form",
    "correction_form",
    "penalty_form",
    "remove_form",
    "confirm_form",
    "unlock_form",
    "allow_form",
)


def correction_form(
    sheet: TableSheetView, row: SheetRow, data: object | None = None
) -> DealForm | PenaltyForm:
    if row.is_penalty:
        return PenaltyForm(
            data,
            prefix="fix",
            players=sheet.players,
            correction=True,
            initial=correction_initial(row),
        )
    return DealForm(
        data,
        prefix="fix",
        players=sheet.players,
        sitting_out=row.sitting_out,
        rules=sheet.rules,
        correction=True,
        initial=correction_initial(row),
    )


def offers_next_deal(sheet: TableSheetView | MarkedSheet, correcting: SheetRow | None) -> bool:
    return (
        sheet.accepts_entries
        and not sheet.is_complete
        and not sheet.at_time_limit
        and correcting is None
    )


def default_forms(
    sheet: TableSheetView | MarkedSheet,
    *,
    is_chief: bool,
    correcting: SheetRow | None,
    client_keys: dict[str, str] | None = None,
) -> dict[str, forms.Form | None]:
    """The forms the sheet offers now; a locked table (confirmed, or its round not open)
    offers none, except unlock for the chief referee. `client_keys`: the deal's, the penalty's
    and the removal's submission keys (new ones by default)."""
    keys = client_keys or {}
    open_ = sheet.accepts_entries
    last = sheet.last_row
    next_entry = {"position": sheet.next_position}
    return {
        "deal_form": (
            DealForm(
                prefix="deal",
                players=sheet.players,
                sitting_out=sheet.next_sitting_out,
                rules=sheet.rules,
                initial=next_entry,
                client_key=keys.get("deal"),
            )
            if offers_next_deal(sheet, correcting)
            else None
        ),
        "correction_form": (
            correction_form(sheet, correcting) if open_ and correcting is not None else None
        ),
        "penalty_form": (
            PenaltyForm(
                prefix="penalty",
                players=sheet.players,
                initial=next_entry,
                client_key=keys.get("penalty"),
            )
            if open_ and sheet.rules.pules and correcting is None
            else None
        ),
        "remove_form": (
            RemoveForm(
                prefix="remove",
                initial={"position": last.position, "base_version": last.version},
                client_key=keys.get("remove"),
            )
            if open_ and last is not None and correcting is None
            else None
        ),
        "confirm_form": (
            ConfirmForm(
                prefix="confirm",
                players=sheet.players,
                needs_confirmer=not is_chief,
                initial={"deals": sheet.deals_played},
            )
            if sheet.can_confirm and correcting is None
            else None
        ),
        "unlock_form": (
            UnlockForm(prefix="unlock")
            if is_chief and sheet.is_confirmed and sheet.round_is_open
            else None
        ),
        "allow_form": (
            AllowDealsForm(prefix="allow")
            if is_chief and sheet.can_allow_more and correcting is None
            else None
        ),
    }


SUBMISSIONS = ("deal", "penalty", "remove")  # the forms whose submissions carry a client key


class OfferedForms:
    """The forms a page of the sheet offers: those refused and shown again (`bound`), the
    others as `default_forms` makes them, each built only when it is read (a page filled in
    from the memory of rendered forms builds none), and the client keys of their submissions
    (the same whichever way the page is rendered)."""

    def __init__(
        self,
        sheet: TableSheetView,
        *,
        is_chief: bool,
        correcting: SheetRow | None = None,
        bound: dict[str, forms.Form] | None = None,
    ) -> None:
        self.sheet = sheet
        self.is_chief = is_chief
        self.correcting = correcting
        self.bound = bound or {}
        self.client_keys = {name: str(uuid.uuid4()) for name in SUBMISSIONS}

    @cached_property
    def all(self) -> dict[str, forms.Form | None]:
        made = default_forms(
            self.sheet,
            is_chief=self.is_chief,
            correcting=self.correcting,
            client_keys=self.client_keys,
        )
        return {**made, **self.bound}

    @property
    def deal_form(self) -> forms.Form | None:
        return self.all["deal_form"]

    @property
    def correction_form(self) -> forms.Form | None:
        return self.all["correction_form"]

    @property
    def penalty_form(self) -> forms.Form | None:
        return self.all["penalty_form"]

    @property
    def remove_form(self) -> forms.Form | None:
        return self.all["remove_form"]

    @property
    def confirm_form(self) -> forms.Form | None:
        return self.all["confirm_form"]

    @property
    def unlock_form(self) -> forms.Form | None:
        return self.all["unlock_form"]

    @property
    def allow_form(self) -> forms.Form | None:
        return self.all["allow_form"]


# --- The memory of rendered forms ---------------------------------------------------------------

# A mark is a name between two ASCII record separators: no template, name or value holds one,
# and a value filled in is never read again for marks.
MARK = "\x1e{}\x1e"
MARKS = re.compile("\x1e([a-z_0-9]+)\x1e")
SHAPES_KEPT = 256  # languages x rule sets x tables of 3 and 4 x who deals: a handful in use


def mark(name: str) -> str:
    return MARK.format(name)


@dataclass(frozen=True)
class FormsShape:
    """What the plain next-deal forms are decided by: the memory's key."""

    language: str
    rules: Rules
    deals_per_round: int
    seats: int  # 3 or 4
    dealer: int  # the seat (0-based) of the next deal's dealer, who sits out at a table of 4
    has_last_row: bool  # "remove the last entry" is offered


@dataclass(frozen=True)
class MarkedRow:
    position: str
    version: str


@dataclass(frozen=True)
class MarkedSheet:
    """The sheet as the plain next-deal forms read it, with a mark for what changes from one
    page to the next (entry/_entry_forms.html and `default_forms` read nothing else of it
    when a table takes its next deal: the memory's test holds them to that)."""

    players: tuple[SheetPlayer, ...]
    rules: Rules
    deals_per_round: int
    next_dealer: SheetPlayer
    next_sitting_out: SheetPlayer | None
    last_row: MarkedRow | None
    next_position: str = mark("position")
    next_deal_number: str = mark("number")
    deals_played: str = mark("deals")
    accepts_entries: bool = True
    round_is_open: bool = True
    is_complete: bool = False
    at_time_limit: bool = False
    can_allow_more: bool = False
    can_confirm: bool = False
    is_confirmed: bool = False
    result: None = None
    confirmed_by: None = None
    time_called_after: None = None


def forms_shape(offered: OfferedForms) -> FormsShape | None:
    """The shape of these forms, when they are the plain next-deal forms: a table taking its
    next deal, nothing refused or being corrected, not yet to be confirmed. Otherwise None."""
    sheet = offered.sheet
    plain = (
        offers_next_deal(sheet, offered.correcting)
        and not sheet.clock.is_up
        and not sheet.can_confirm
        and not sheet.is_confirmed
        and not offered.bound
    )
    if not plain:
        return None
    return FormsShape(
        language=get_language(),
        rules=sheet.rules,
        deals_per_round=sheet.deals_per_round,
        seats=len(sheet.players),
        dealer=sheet.players.index(sheet.next_dealer),
        has_last_row=sheet.last_row is not None,
    )


def marked_player(index: int) -> SheetPlayer:
    return SheetPlayer(
        key=mark(f"key{index}"),
        entry=None,  # type: ignore[arg-type]  # the forms read the key and the names only
        seat=index + 1,
        name=mark(f"name{index}"),
        short_name=mark(f"short{index}"),
        initials=mark(f"initials{index}"),
    )


@lru_cache(maxsize=SHAPES_KEPT)
def marked_forms(shape: FormsShape) -> str:
    """The plain next-deal forms of this shape, rendered with marks (in the shape's language,
    which is the active one: it is part of the key)."""
    players = tuple(marked_player(index) for index in range(shape.seats))
    dealer = players[shape.dealer]
    sheet = MarkedSheet(
        players=players,
        rules=shape.rules,
        deals_per_round=shape.deals_per_round,
        next_dealer=dealer,
        next_sitting_out=dealer if shape.seats == 4 else None,
        last_row=MarkedRow(mark("last_position"), mark("last_version"))
        if shape.has_last_row
        else None,
    )
    chosen = default_forms(
        sheet,
        is_chief=False,  # a chief referee is offered more only at the end, or once confirmed
        correcting=None,
        client_keys={name: mark(f"{name}_key") for name in SUBMISSIONS},
    )
    context = forms_context(sheet, chosen, page_url=mark("url"), csrf_token=mark("csrf"))
    return render_to_string(FORMS_TEMPLATE, context)


def forms_context(
    sheet: TableSheetView | MarkedSheet,
    chosen: dict[str, forms.Form | None],
    *,
    page_url: str,
    csrf_token: str,
    correcting: SheetRow | None = None,
    is_chief: bool = False,
) -> dict[str, object]:
    """Everything entry/_entry_forms.html reads."""
    return {
        "sheet": sheet,
        "page_url": page_url,
        "csrf_token": csrf_token,
        "correcting": correcting,
        "is_chief": is_chief,
        **chosen,
    }


def mark_values(offered: OfferedForms, *, page_url: str, csrf_token: str) -> dict[str, str]:
    """This page's values for the marks, escaped as the template escapes them."""
    sheet = offered.sheet
    values = {
        "url": page_url,
        "csrf": csrf_token,
        "position": sheet.next_position,
        "number": sheet.next_deal_number,
        "deals": sheet.deals_played,
    }
    last = sheet.last_row
    if last is not None:
        values |= {"last_position": last.position, "last_version": last.version}
    for name, key in offered.client_keys.items():
        values[f"{name}_key"] = key
    for index, player in enumerate(sheet.players):
        values |= {
            f"key{index}": player.key,
            f"name{index}": player.name,
            f"short{index}": player.short_name,
            f"initials{index}": player.initials,
        }
    return {name: escape(value) for name, value in values.items()}


def entry_forms_html(request: HttpRequest, offered: OfferedForms, *, page_url: str) -> SafeString:
    """The sheet's entry forms: the plain next-deal forms filled in from the memory, any others
    rendered as they stand."""
    csrf_token = get_token(request)
    shape = forms_shape(offered)
    if shape is None:
        context = forms_context(
            offered.sheet,
            offered.all,
            page_url=page_url,
            csrf_token=csrf_token,
            correcting=offered.correcting,
            is_chief=offered.is_chief,
        )
        return mark_safe(render_to_string(FORMS_TEMPLATE, context))
    values = mark_values(offered, page_url=page_url, csrf_token=csrf_token)
    # Rendered by the template, which escapes; the values filled in are escaped above.
    return mark_safe(MARKS.sub(lambda found: values[found[1]], marked_forms(shape)))
