"""The deals, penalties and the confirmation a table's sheet takes, by a plain form or the
phone's sync: each read from its form's fields and written through scoring.services, giving an
`Outcome` (entry.page)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.query import whole_number
from entry.forms import ConfirmForm, DealForm, PenaltyForm
from entry.page import (
    CLOSED,
    CONFLICT,
    REFUSED,
    STORED,
    Outcome,
    SheetPage,
    closed_message,
    refused,
)
from scoring import services
from scoring.services import ConflictError, LockedError
from scoring.sheet.shape import SheetPlayer, TableSheet
from tournaments.services import ServiceError, TableGoneError


def posted_position(data: Mapping[str, str], prefix: str) -> int | None:
    return whole_number(data.get(f"{prefix}-position"))


def posted_sitting_out(
    page: SheetPage, data: Mapping[str, str], position: int | None
) -> SheetPlayer | None:
    """Who sits out the deal being sent, as the page that sent it showed (its form's hidden
    `sits_out`): the form reads that deal's players by it, without reading the sheet first. The
    write checks the deal against the sheet under the table's lock: a position another device
    took is a conflict, and a deal that names a player who sits out it is the engine's
    refusal. A page that does not say is answered from the sheet."""
    if len(page.frame.players) != 4:
        return None
    key = data.get(f"deal-{DealForm.SITS_OUT}")
    player = page.frame.player(key) if key else None
    return player if player is not None else sitting_out_at(page.sheet, position)


def sitting_out_at(sheet: TableSheet, position: int | None) -> SheetPlayer | None:
    """Who sits out the deal at this position: the next deal's dealer, or, for a position
    already on the sheet (a resent request, another device), that deal's dealer."""
    row = sheet.row_at(position) if position is not None else None
    if row is not None and not row.is_penalty:
        return row.sitting_out
    return sheet.next_sitting_out


def post_deal(page: SheetPage, data: Mapping[str, str]) -> Outcome:
    frame = page.frame
    position = posted_position(data, "deal")
    form = DealForm(
        data,
        prefix="deal",
        players=frame.players,
        sitting_out=posted_sitting_out(page, data, position),
        rules=frame.rule_set.rules,
    )
    if not form.is_valid():
        return refused(form, "deal_form")
    return page.write(
        partial(
            services.deal_record_on_sheet,
            table=frame.table,
            entry=form.cleaned_data["entry"],
            position=form.cleaned_data["position"],
            client_key=form.cleaned_data["client_key"],
            writer=page.writer,
            frame=frame,
        ),
        form=form,
        form_name="deal_form",
        saved=_("Deal saved."),
        conflict=_("Another device entered deal %(number)s: here is the sheet now."),
        position=position,
    )


def post_penalty(page: SheetPage, data: Mapping[str, str]) -> Outcome:
    frame = page.frame
    form = PenaltyForm(data, prefix="penalty", players=frame.players)
    if not form.is_valid():
        return refused(form, "penalty_form")
    return page.write(
        partial(
            services.deal_record_on_sheet,
            table=frame.table,
            entry=form.cleaned_data["entry"],
            position=form.cleaned_data["position"],
            client_key=form.cleaned_data["client_key"],
            writer=page.writer,
            frame=page.frame,
        ),
        form=form,
        form_name="penalty_form",
        saved=_("Penalty pule given."),
        conflict=_("Another device entered deal %(number)s: here is the sheet now."),
        position=posted_position(data, "penalty"),
    )


CONFIRMED = gettext_lazy("The table is confirmed and locked.")


def post_confirm(page: SheetPage, data: Mapping[str, str]) -> Outcome:
    # What the confirmation needs before its write is the frame's: the write reads the
    # entries under the table's lock and hands the sheet back.
    frame = page.frame
    if frame.confirmation is not None:  # a double tap: the first one confirmed it
        return Outcome(STORED, str(CONFIRMED))
    if not frame.round_is_open:
        return Outcome(CLOSED, closed_message(page.sheet))
    needs_confirmer = not page.is_chief
    form = ConfirmForm(
        data, prefix="confirm", players=frame.players, needs_confirmer=needs_confirmer
    )
    if not form.is_valid():
        if "deals" in form.errors:
            # The count of deals the confirmer checked is what makes the confirmation his: a
            # page that does not send it is shown the sheet again.
            return Outcome(
                REFUSED,
                _(
                    "The confirmation did not say how many deals you checked: look at the sheet "
                    "again before confirming."
                ),
                page=page.refreshed(),
            )
        return refused(form, "confirm_form")
    confirmer = frame.player(form.cleaned_data["confirmer"]) if needs_confirmer else None
    try:
        written = services.table_confirm_on_sheet(
            table=frame.table,
            writer=page.writer,
            confirmer=confirmer.registration if confirmer is not None else None,
            deals_seen=form.cleaned_data["deals"],
        )
    except ConflictError as error:
        return Outcome(CONFLICT, str(error), page=page.refreshed())
    except TableGoneError:
        raise
    except LockedError as error:  # confirmed meanwhile from another device
        form.add_error(None, str(error))
        return Outcome(CLOSED, str(error), form=form, form_name="confirm_form")
    except ServiceError as error:
        form.add_error(None, str(error))
        return refused(form, "confirm_form", message=str(error))
    return Outcome(STORED, str(CONFIRMED), written=written)
