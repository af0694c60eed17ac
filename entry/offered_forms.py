"""The forms a table's sheet offers (entry/_entry_forms.html) and their markup: the next deal,
a penalty pule, removing the last entry, a correction, the confirmation, the chief referee's
unlock and "more deals". Rendered by the template engine (its cached loader in production) for
the page without the phone's script and for the sync's answer; the phone's script fills in its
own from the per-dealer forms entry.phone hands it.
"""

from __future__ import annotations

import uuid
from functools import cached_property

from django import forms
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from entry.forms import (
    AllowDealsForm,
    ConfirmForm,
    DealForm,
    PenaltyForm,
    RemoveForm,
    UnlockForm,
    correction_initial,
)
from scoring.sheet.shape import SheetRow, TableSheet

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
    sheet: TableSheet, row: SheetRow, data: object | None = None
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


def offers_next_deal(sheet: TableSheet, correcting: SheetRow | None) -> bool:
    return (
        sheet.accepts_entries
        and not sheet.is_complete
        and not sheet.at_time_limit
        and correcting is None
    )


def default_forms(
    sheet: TableSheet,
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
    others as `default_forms` makes them, built when first read, and the client keys of their
    submissions."""

    def __init__(
        self,
        sheet: TableSheet,
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


def forms_context(
    sheet: TableSheet,
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


def entry_forms_html(request: HttpRequest, offered: OfferedForms, *, page_url: str) -> SafeString:
    """The sheet's entry forms, rendered by their template."""
    context = forms_context(
        offered.sheet,
        offered.all,
        page_url=page_url,
        csrf_token=get_token(request),
        correcting=offered.correcting,
        is_chief=offered.is_chief,
    )
    return mark_safe(render_to_string(FORMS_TEMPLATE, context))  # the template escapes
