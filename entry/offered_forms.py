"""The forms a table's sheet offers (entry/_entry_forms.html) and their markup: the next deal,
a penalty pule, removing the last entry, a correction, the confirmation, the chief referee's
unlock and "more deals". Rendered by the template engine (its cached loader in production) for
the page without the phone's script and for the sync's answer; the phone's script fills in its
own from the per-dealer forms entry.phone hands it.
"""

from __future__ import annotations

import datetime
import uuid
from dataclasses import dataclass
from functools import cached_property

from django import forms
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

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
from scoring.sheet.shape import SheetPlayer, SheetRow, TableSheet

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


@dataclass(frozen=True)
class FormsState:
    """What the entry forms and their template read of a table's sheet: taken from the sheet
    (`of`), or, for the forms the phone fills in (entry.phone), with a placeholder for each
    value that changes from one deal to the next (the positions and counts are text then)."""

    players: tuple[SheetPlayer, ...]
    rules: Rules
    deals_per_round: int
    next_dealer: SheetPlayer
    next_sitting_out: SheetPlayer | None
    next_position: int | str
    next_deal_number: int | str
    deals_played: int | str
    last_position: int | str | None  # the last entry's (None: the sheet is empty)
    last_version: int | str | None
    accepts_entries: bool = True
    round_is_open: bool = True
    is_complete: bool = False
    at_time_limit: bool = False
    can_confirm: bool = False
    can_allow_more: bool = False
    is_confirmed: bool = False
    time_up_at: datetime.datetime | None = None  # when time was up (None: it is not)
    deal_limit: int | None = None  # the deals the table may have in all, once time is up
    deals_allowed_after_time: int = 0
    confirmed_by: str | None = None
    confirmed_at: datetime.datetime | None = None
    time_called_after: int | None = None

    @classmethod
    def of(cls, sheet: TableSheet) -> FormsState:
        last = sheet.last_row
        time_up = sheet.clock.is_up
        result = sheet.result
        return cls(
            players=sheet.players,
            rules=sheet.rules,
            deals_per_round=sheet.deals_per_round,
            next_dealer=sheet.next_dealer,
            next_sitting_out=sheet.next_sitting_out,
            next_position=sheet.next_position,
            next_deal_number=sheet.next_deal_number,
            deals_played=sheet.deals_played,
            last_position=last.position if last is not None else None,
            last_version=last.version if last is not None else None,
            accepts_entries=sheet.accepts_entries,
            round_is_open=sheet.round_is_open,
            is_complete=sheet.is_complete,
            at_time_limit=sheet.at_time_limit,
            can_confirm=sheet.can_confirm,
            can_allow_more=sheet.can_allow_more,
            is_confirmed=sheet.is_confirmed,
            time_up_at=sheet.clock.ended_at if time_up else None,
            deal_limit=sheet.deal_limit if time_up else None,
            deals_allowed_after_time=sheet.table.deals_allowed_after_time,
            confirmed_by=sheet.confirmed_by if sheet.is_confirmed else None,
            confirmed_at=result.confirmed_at if result is not None else None,
            time_called_after=sheet.time_called_after,
        )

    @property
    def time_is_up(self) -> bool:
        return self.time_up_at is not None


def correction_form(
    row: SheetRow,
    *,
    players: tuple[SheetPlayer, ...],
    rules: Rules,
    data: object | None = None,
) -> DealForm | PenaltyForm:
    if row.is_penalty:
        return PenaltyForm(
            data,
            prefix="fix",
            players=players,
            correction=True,
            initial=correction_initial(row),
        )
    return DealForm(
        data,
        prefix="fix",
        players=players,
        sitting_out=row.sitting_out,
        rules=rules,
        correction=True,
        initial=correction_initial(row),
    )


def offers_next_deal(state: FormsState, correcting: SheetRow | None) -> bool:
    return (
        state.accepts_entries
        and not state.is_complete
        and not state.at_time_limit
        and correcting is None
    )


def default_forms(
    state: FormsState,
    *,
    is_chief: bool,
    correcting: SheetRow | None,
    client_keys: dict[str, str] | None = None,
) -> dict[str, forms.Form | None]:
    """The forms the sheet offers now; a locked table (confirmed, or its round not open)
    offers none, except unlock for the chief referee. `client_keys`: the deal's, the penalty's
    and the removal's submission keys (new ones by default)."""
    keys = client_keys or {}
    open_ = state.accepts_entries
    next_entry = {"position": state.next_position}
    return {
        "deal_form": (
            DealForm(
                prefix="deal",
                players=state.players,
                sitting_out=state.next_sitting_out,
                rules=state.rules,
                initial=next_entry,
                client_key=keys.get("deal"),
            )
            if offers_next_deal(state, correcting)
            else None
        ),
        "correction_form": (
            correction_form(correcting, players=state.players, rules=state.rules)
            if open_ and correcting is not None
            else None
        ),
        "penalty_form": (
            PenaltyForm(
                prefix="penalty",
                players=state.players,
                initial=next_entry,
                client_key=keys.get("penalty"),
            )
            if open_ and state.rules.pules and correcting is None
            else None
        ),
        "remove_form": (
            RemoveForm(
                prefix="remove",
                initial={"position": state.last_position, "base_version": state.last_version},
                client_key=keys.get("remove"),
            )
            if open_ and state.last_position is not None and correcting is None
            else None
        ),
        "confirm_form": (
            ConfirmForm(
                prefix="confirm",
                players=state.players,
                needs_confirmer=not is_chief,
                initial={"deals": state.deals_played},
            )
            if state.can_confirm and correcting is None
            else None
        ),
        "unlock_form": (
            UnlockForm(prefix="unlock")
            if is_chief and state.is_confirmed and state.round_is_open
            else None
        ),
        "allow_form": (
            AllowDealsForm(prefix="allow")
            if is_chief and state.can_allow_more and correcting is None
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
    def state(self) -> FormsState:
        return FormsState.of(self.sheet)

    @cached_property
    def all(self) -> dict[str, forms.Form | None]:
        made = default_forms(
            self.state,
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
    state: FormsState,
    chosen: dict[str, forms.Form | None],
    *,
    page_url: str,
    csrf_token: str,
    correcting: SheetRow | None = None,
    is_chief: bool = False,
) -> dict[str, object]:
    """Everything entry/_entry_forms.html reads."""
    return {
        "state": state,
        "page_url": page_url,
        "csrf_token": csrf_token,
        "correcting": correcting,
        "is_chief": is_chief,
        **chosen,
    }


def entry_forms_html(request: HttpRequest, offered: OfferedForms, *, page_url: str) -> SafeString:
    """The sheet's entry forms, rendered by their template."""
    context = forms_context(
        offered.state,
        offered.all,
        page_url=page_url,
        csrf_token=get_token(request),
        correcting=offered.correcting,
        is_chief=offered.is_chief,
    )
    return mark_safe(render_to_string(FORMS_TEMPLATE, context))  # the template escapes
