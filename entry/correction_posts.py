"""The corrections and removals a table's sheet takes, by a plain form or the phone's sync:
each written through scoring.services, the earlier version kept, giving an `Outcome`
(entry.page)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from django.utils.translation import gettext as _

from entry.deal_posts import posted_position
from entry.forms import RemoveForm
from entry.offered_forms import correction_form
from entry.page import CONFLICT, Outcome, SheetPage, refused
from scoring import services


def post_correct(page: SheetPage, data: Mapping[str, str]) -> Outcome:
    sheet = page.sheet
    position = posted_position(data, "fix")
    row = sheet.row_at(position) if position is not None else None
    if row is None:
        return Outcome(
            CONFLICT,
            _("That entry is no longer on the sheet: here is the sheet now."),
            page=page.refreshed(),
        )
    form = correction_form(row, players=sheet.players, rules=sheet.rules, data=data)
    if not form.is_valid():
        return refused(form, "correction_form", correcting=row)
    return page.write(
        partial(
            services.deal_correct_on_sheet,
            table=sheet.table,
            position=row.position,
            entry=form.cleaned_data["entry"],
            base_version=form.cleaned_data["base_version"],
            client_key=form.cleaned_data["client_key"],
            reason=form.cleaned_data["reason"],
            writer=page.writer,
            frame=page.frame,
        ),
        form=form,
        form_name="correction_form",
        saved=_("Correction saved; the earlier version is kept."),
        conflict=_("Another device corrected deal %(number)s meanwhile: here is the sheet now."),
        position=position,
        correcting=row,
    )


def post_remove(page: SheetPage, data: Mapping[str, str]) -> Outcome:
    form = RemoveForm(data, prefix="remove")
    if not form.is_valid():
        return refused(form, "remove_form")
    position = form.cleaned_data["position"]
    return page.write(
        partial(
            services.deal_correct_on_sheet,
            table=page.frame.table,
            position=position,
            entry=None,
            base_version=form.cleaned_data["base_version"],
            client_key=form.cleaned_data["client_key"],
            reason=form.cleaned_data["reason"],
            writer=page.writer,
            frame=page.frame,
        ),
        form=form,
        form_name="remove_form",
        saved=_("The last entry is removed; the removed version is kept."),
        conflict=_("Another device changed deal %(number)s meanwhile: here is the sheet now."),
        position=position,
    )
