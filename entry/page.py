"""One request to a table's sheet (`SheetPage`: who asks, through which door, the table as
read, and the page shown from it) and what became of an entry sent to it (`Outcome`): what the
plain form's answer (entry.views) and the phone's sync (entry.sync) share.

An entry's write (entry.deal_posts, entry.correction_posts) gives an `Outcome`; the plain form
turns it into a page (`SheetPage.answer`), the sync into its JSON.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property, partial

from django import forms
from django.contrib import messages
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.functional import lazy
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.security import client_ip
from engine.lateness import out_of_round_due
from entry.forms import LateArrivalForm, OutOfRoundForm
from entry.offered_forms import OfferedForms, entry_forms_html
from entry.phone import phone_data
from entry.state import table_state
from hall import selectors as hall_selectors
from scoring import late_players
from scoring.services import ConflictError, KeyReusedError, LockedError, Writer
from scoring.sheet.reader import read_sheet, table_sheet
from scoring.sheet.shape import SheetFrame, SheetRow, TableSheet
from tournaments.models import TableToken
from tournaments.services import ServiceError, TableGoneError

TEMPLATE = "entry/sheet.html"

# What became of an entry sent to the sheet (`Outcome.status`).
STORED = "stored"  # written now, or earlier (its client key was recorded: a resend)
CONFLICT = "conflict"  # another device wrote that position first
CLOSED = "closed"  # the table was confirmed or locked, its round closed
REFUSED = "refused"  # the form or the service refused it

# The words a form refused with a field's error says, when it has no error of its own.
FIELDS_REFUSED = gettext_lazy("The entry was not saved: %(errors)s")


@dataclass(frozen=True)
class SheetPage:
    """One request to a table's sheet: who asks, through which door, and the table as read.
    The table's entries are read when the page needs them (`sheet`): a deal is written without
    reading them first, as its write reads them under the table's lock."""

    request: HttpRequest
    frame: SheetFrame
    token: TableToken | None  # None: a signed-in organiser or chief referee
    is_chief: bool
    url: str
    given_sheet: TableSheet | None = None  # the sheet, when it is known already (a write's)
    sync_url: str = ""  # the phone's sync endpoint for this door (entry.sync)

    @cached_property
    def sheet(self) -> TableSheet:
        if self.given_sheet is not None:
            return self.given_sheet
        return read_sheet(self.frame)

    @property
    def writer(self) -> Writer:
        return Writer(user=self.request.user, token=self.token, ip_address=client_ip(self.request))

    def with_sheet(self, sheet: TableSheet) -> SheetPage:
        return replace(self, frame=sheet.frame, given_sheet=sheet)

    def refreshed(self) -> SheetPage:
        """The same page with the sheet read again (another device has written meanwhile)."""
        return self.with_sheet(table_sheet(table_id=self.frame.table.pk))

    def render(
        self,
        bound: dict[str, forms.Form] | None = None,
        *,
        correcting: SheetRow | None = None,
        error: str | None = None,
        status: int = 200,
    ) -> HttpResponse:
        context = self.context(bound, correcting=correcting, error=error)
        return render(self.request, TEMPLATE, context, status=status)

    def context(
        self,
        bound: dict[str, forms.Form] | None = None,
        *,
        correcting: SheetRow | None = None,
        error: str | None = None,
    ) -> dict[str, object]:
        sheet = self.sheet
        offered = OfferedForms(sheet, is_chief=self.is_chief, correcting=correcting, bound=bound)
        return {
            "sheet": sheet,
            "table": sheet.table,
            "round": sheet.round,
            "tournament": sheet.tournament,
            "page_url": self.url,
            "is_chief": self.is_chief,
            "via_link": self.token is not None,
            "correcting": correcting,
            "page_error": error,
            "offered": offered,
            # Rendered where the template shows it (so the page's own context is the one a
            # test client records first).
            "entry_forms": lazy(entry_forms_html, SafeString)(
                self.request, offered, page_url=self.url
            ),
            # What the page's script needs to take entries on the phone (called when shown).
            "phone": partial(phone_data, self.request, offered),
            # What the phone's script starts from (entry.state).
            "table_state": self.state(),
            # Late and absent players: what is recorded, and the referee's forms.
            "late": late_panel(self, bound or {}),
            # The table's open call to the chief referee, if any (asked while the round is in
            # play, when the page offers the call: not to the chief referee himself).
            "referee_call": hall_selectors.table_referee_call(table=sheet.table)
            if sheet.round_is_open and not sheet.round_is_draft and not self.is_chief
            else None,
        }

    def state(self) -> dict[str, object]:
        return table_state(self.sheet, link=self.url, sync=self.sync_url)

    def done(self, message: str) -> HttpResponse:
        """Saved: back to the sheet at its entry forms, the message and the last rows in view."""
        messages.success(self.request, message)
        return redirect(f"{self.url}#entry-form")

    def answer(self, outcome: Outcome) -> HttpResponse:
        """The plain form's answer to an entry's outcome: back to the sheet with what was
        saved; the refused form with its errors; or the sheet (read again when another device
        wrote meanwhile) saying what happened (409)."""
        if outcome.status == STORED:
            return self.done(outcome.message)
        if outcome.form is not None:
            return self.render({outcome.form_name: outcome.form}, correcting=outcome.correcting)
        return (outcome.page or self).render(error=outcome.message, status=409)

    def write(
        self,
        service_call: Callable[[], object],
        *,
        form: forms.Form,
        form_name: str,
        saved: str,
        conflict: str,
        position: int | None,
        correcting: SheetRow | None = None,
    ) -> Outcome:
        """Run one write of an entry form, as every entry form does: stored (`saved`); another
        device got there first (`conflict`, with the sheet as it is now); the table was locked
        meanwhile; or the service refused (the form with the reason)."""
        try:
            written = service_call()
        except KeyReusedError as error:
            page = self.refreshed()
            number = deal_label(page.sheet, error.position)
            message = _(
                "Another entry was sent under the key of deal %(number)s, which is stored as it "
                "was sent first: here is the sheet now."
            )
            return Outcome(CONFLICT, message % {"number": number}, page=page)
        except ConflictError:
            page = self.refreshed()
            number = deal_label(page.sheet, position)
            return Outcome(CONFLICT, conflict % {"number": number}, page=page)
        except LockedError as error:
            return Outcome(CLOSED, str(error), page=self.refreshed())
        except TableGoneError:
            raise
        except ServiceError as error:
            form.add_error(None, str(error))
            return refused(form, form_name, correcting=correcting, message=str(error))
        return Outcome(STORED, saved, written=written)


@dataclass(frozen=True)
class Outcome:
    """What became of one entry sent to the sheet, by a plain form or the phone's sync."""

    status: str  # STORED, CONFLICT, CLOSED or REFUSED
    message: str  # the words the page shows
    written: object = None  # stored: what the service returned
    form: forms.Form | None = None  # refused by its form or the service: shown again
    form_name: str = ""
    correcting: SheetRow | None = None
    page: SheetPage | None = None  # the sheet to show with the message, when read again

    @property
    def errors(self) -> dict[str, list[str]]:
        """The form's errors by (unprefixed) field name; the form's own are in `message`."""
        if self.form is None:
            return {}
        return {
            name: [str(error) for error in errors]
            for name, errors in self.form.errors.items()
            if name != NON_FIELD_ERRORS
        }


def refused(
    form: forms.Form,
    form_name: str,
    *,
    correcting: SheetRow | None = None,
    message: str | None = None,
) -> Outcome:
    """A form refused (its fields, or the service: `message`)."""
    if message is None:
        message = " ".join(map(str, form.non_field_errors())) or str(
            FIELDS_REFUSED
            % {
                "errors": "; ".join(
                    f"{form.fields[name].label or name}: {' '.join(map(str, errors))}"
                    if name in form.fields
                    else " ".join(map(str, errors))
                    for name, errors in form.errors.items()
                )
            }
        )
    return Outcome(REFUSED, message, form=form, form_name=form_name, correcting=correcting)


def deal_label(sheet: TableSheet, position: int | None) -> str:
    """The deal number people see for an entry position (penalties use no deal)."""
    row = sheet.row_at(position) if position is not None else None
    if row is not None and row.number is not None:
        return str(row.number)
    return str(position) if position is not None else "?"


def closed_message(sheet: TableSheet) -> str:
    """Why the sheet takes no entries now."""
    if sheet.round_is_draft:
        return _(
            "Round %(number)d is not published yet: its deals are entered once the organiser "
            "publishes the seating."
        ) % {"number": sheet.round.number}
    if not sheet.round_is_open:
        return _("Round %(number)d is closed: its results are final.") % {
            "number": sheet.round.number
        }
    return _("Table %(number)d is confirmed and locked; only the chief referee can unlock it.") % {
        "number": sheet.table.number
    }


# --- Late and absent players --------------------------------------------------------------------


@dataclass(frozen=True)
class LatePanel:
    """The sheet's part on late and absent players: the tournament's rule, who was late or is
    out, and the referee's two forms (None when not offered)."""

    wait_minutes: int | None
    out_deal: int | None
    started_at: datetime.datetime | None
    recorded: list
    arrival_form: forms.Form | None
    out_form: forms.Form | None
    hall_deals: int | None = None  # the round's furthest table, when someone may be put out


def late_panel(page: SheetPage, bound: Mapping[str, forms.Form]) -> LatePanel | None:
    frame = page.frame
    tournament = frame.round.tournament
    if not late_players.has_late_rules(tournament):
        return None
    recorded = late_players.table_late_players(frame.table)
    settled = {late.registration_id for late in recorded}
    waiting = [player for player in frame.players if player.registration.pk not in settled]
    open_ = frame.accepts_entries and bool(waiting)
    arrival = bound.get("late_form") or (
        LateArrivalForm(prefix="late", players=waiting) if open_ else None
    )
    # Only a table of 4 plays on without a player, only before its first deal, and once the
    # hall has reached the tournament's deal.
    out_deal = tournament.late_out_deal
    can_put_out = (
        open_ and out_deal is not None and len(frame.players) == 4 and page.sheet.deals_played == 0
    )
    hall = late_players.hall_deals(frame.round) if can_put_out else None
    due = hall is not None and out_deal is not None and out_of_round_due(hall, out_deal)
    out = bound.get("out_form") or (OutOfRoundForm(prefix="out", players=waiting) if due else None)
    return LatePanel(
        wait_minutes=tournament.late_wait_minutes,
        out_deal=tournament.late_out_deal,
        started_at=late_players.round_started_at(frame.round),
        recorded=recorded,
        arrival_form=arrival,
        out_form=out,
        hall_deals=hall,
    )
