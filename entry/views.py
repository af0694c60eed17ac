"""The table's entry page: the paper sheet, the form for the next deal, corrections, penalties,
confirmation and unlock.

Two doors open the same page: the table's private link /r/<token>/ (whoever holds it, signed in
or not), and /organise/tables/<id>/sheet/ for the accounts tournaments.permissions lets write
the table (its tournament's organisers and chief referees, the referees assigned to it). Every
write goes through scoring.services; a successful write redirects back to the page
(POST-redirect-GET), a refused one shows the page again with the message and stores nothing.
Each entry's action (`ENTRY_ACTIONS`) gives an `Outcome`, which the plain form's answer turns
into a page here and the phone's sync (entry.sync) into its JSON.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property, partial

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.functional import lazy
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from core.dropped_connections import repeatable_posts
from core.query import whole_number
from core.ratelimit import REFEREE_CALLS, TABLE_LINK_FAILURES
from core.security import client_ip
from engine.lateness import out_of_round_due
from entry.forms import (
    AllowDealsForm,
    ConfirmForm,
    DealForm,
    LateArrivalForm,
    OutOfRoundForm,
    PenaltyForm,
    RemoveForm,
    UnlockForm,
)
from entry.offered_forms import OfferedForms, correction_form, entry_forms_html
from entry.phone import phone_data
from entry.state import table_state
from scoring import late_players, services
from scoring.services import ConflictError, KeyReusedError, LockedError, Writer
from scoring.sheet.door import table_role_required
from scoring.sheet.reader import (
    DoorTable,
    read_sheet,
    sheet_frame,
    table_by_link,
    table_sheet,
)
from scoring.sheet.shape import SheetFrame, SheetPlayer, SheetRow, TableSheet
from tournaments import permissions
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.models import Table, TableToken
from tournaments.services import ServiceError, TableGoneError, table_gone_message

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
            "referee_call": tournament_selectors.table_referee_call(table=sheet.table)
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
            if name != forms.forms.NON_FIELD_ERRORS
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
        message = " ".join(form.non_field_errors()) or str(
            FIELDS_REFUSED
            % {
                "errors": "; ".join(
                    f"{form.fields[name].label or name}: {' '.join(errors)}"
                    if name in form.fields
                    else " ".join(errors)
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


# --- The two doors ------------------------------------------------------------------------------

# Submissions that may run twice after a dropped database connection: an entry's client key
# records it once, and a second confirmation finds the table confirmed. Unlocking is not one.
REPEATABLE_ACTIONS = frozenset({"deal", "penalty", "correct", "remove", "confirm"})


def is_repeatable(request: HttpRequest) -> bool:
    return request.POST.get("action") in REPEATABLE_ACTIONS


# The sheet is never kept by the browser (Cache-Control: no-store, which also keeps it out of the
# back-forward cache): back after saving, a kept page would offer a deal already saved, its form
# filled from memory (static/js/entry-form.js covers a browser that keeps it all the same).
@never_cache
@repeatable_posts(when=is_repeatable)
@require_http_methods(["GET", "HEAD", "POST"])
def token_sheet(request: HttpRequest, token: str) -> HttpResponse:
    """The table's private link: anyone holding it enters the table's deals."""
    # The link with its table as the sheet reads it: one statement (a link without its table
    # still names its round and tournament, read when its holder is told: link_gone).
    linked = table_by_link(token)
    if linked is None:
        # Only an unknown link is refused to an address that keeps failing: a venue shares
        # one address, and a valid link is served whatever the other phones did.
        refusal = TABLE_LINK_FAILURES.begin(request)  # counted first: parallel guesses too
        if refusal is not None:
            return refusal
        raise Http404
    # A link that was issued (32 random bytes: never guessed) and no longer works: its holder
    # is told why, and that is no failed guess.
    if linked.table is None:
        return link_gone(request, linked.link, reseated=True)
    if linked.link.revoked_at is not None:
        return link_gone(request, linked.link, reseated=False)
    if request.method != "POST":  # its phone is heard from (a write is heard from by its sync)
        services.table_heard(table_id=linked.table.pk, last=linked.heard)
    return sheet_page(
        request,
        door=linked,
        url=reverse("entry:token_sheet", args=[token]),
        sync_url=reverse("entry:token_sync", args=[token]),
    )


def link_gone(request: HttpRequest, token: TableToken | None, *, reseated: bool) -> HttpResponse:
    """410: the link was replaced by a new one, or its table went when the round was seated
    again. A plain page, never Django's list of addresses."""
    if reseated:
        title = _("This round was re-seated")
        message = table_gone_message()
        advice = _(
            "The organiser seated the round again, so the tables and their links changed. Ask "
            "the organiser for your table's new link, or scan the code on the new score sheet."
        )
    else:
        title = _("This link was replaced")
        message = _("This link was replaced: ask the organiser for the new one.")
        advice = _(
            "The organiser replaced this table's entry link (a lost phone, a leaked link). "
            "Nothing entered through the old link is lost."
        )
    context = {
        "title": title,
        "message": message,
        "advice": advice,
        "tournament": token.round.tournament if token is not None else None,
    }
    return render(request, "entry/link_gone.html", context, status=410)


@never_cache
@repeatable_posts(when=is_repeatable)
@table_role_required(
    permissions.can_write_table,
    gettext_lazy(
        "Only the tournament's organisers and chief referees, and the table's referees, "
        "open it here."
    ),
)
@require_http_methods(["GET", "HEAD", "POST"])
def organiser_sheet(request: HttpRequest, door: DoorTable) -> HttpResponse:
    """The table's sheet for a signed-in account that may write it (tournaments.permissions)."""
    return sheet_page(
        request,
        door=door,
        url=reverse("entry:table_sheet", args=[door.table.pk]),
        sync_url=reverse("entry:table_sync", args=[door.table.pk]),
    )


def sheet_page(request: HttpRequest, *, door: DoorTable, url: str, sync_url: str) -> HttpResponse:
    """The table as its door read it (`scoring.sheet.reader`): its link, or none for a
    signed-in account."""
    table = door.table
    token = door.link
    try:
        frame = sheet_frame(table, door.confirmation)
    except Table.DoesNotExist:
        if token is not None:  # the round was seated again since the link was read
            return link_gone(request, token, reseated=True)
        raise Http404 from None
    # Who may open the page is settled by its door (the link, or table_role_required); the
    # chief referee is offered more: confirming as himself, unlocking.
    is_chief = permissions.is_chief_referee(request.user, table.round.tournament)
    page = SheetPage(request, frame, token, is_chief, url, sync_url=sync_url)
    if request.method == "POST":
        action = request.POST.get("action", "")
        handler = CHIEF_ACTIONS.get(action) or LATE_ACTIONS.get(action)
        if handler is None and action not in ENTRY_ACTIONS and action != CALL_REFEREE:
            return page.render(
                error=_("That request is not understood: reload the page."), status=400
            )
        try:
            if action == CALL_REFEREE:
                return post_call_referee(page)
            if handler is None:
                return page.answer(entry_outcome(page, action, request.POST))
            if action != "unlock" and not frame.accepts_entries:
                return page.render(error=closed_message(page.sheet), status=409)
            return handler(page)
        except TableGoneError:  # seated again while this request was on its way
            return link_gone(request, token, reseated=True)
    return show(page)


def entry_outcome(page: SheetPage, action: str, data: Mapping[str, str]) -> Outcome:
    """An entry sent to the sheet (`action`: one of ENTRY_ACTIONS, its form's fields in
    `data`), written as its form says: the same for a plain form and the phone's sync."""
    if action != "confirm" and not page.frame.accepts_entries:
        return Outcome(CLOSED, closed_message(page.sheet))
    return ENTRY_ACTIONS[action](page, data)


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


def show(page: SheetPage) -> HttpResponse:
    """The sheet; with ?correct=<position>, the correction form of that entry."""
    correct = page.request.GET.get("correct")
    if correct is None:
        return page.render()
    position = whole_number(correct)
    row = page.sheet.row_at(position) if position is not None else None
    if row is None or not page.sheet.accepts_entries:
        return page.render(error=_("This entry cannot be corrected now."))
    return page.render(correcting=row)


# --- Writes -------------------------------------------------------------------------------------


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


def post_unlock(page: SheetPage) -> HttpResponse:
    if not page.is_chief:
        raise PermissionDenied(_("Only the chief referee can unlock a confirmed table."))
    form = UnlockForm(page.request.POST, prefix="unlock")
    if not form.is_valid():
        return page.render({"unlock_form": form})
    try:
        services.table_unlock(
            table=page.sheet.table, writer=page.writer, reason=form.cleaned_data["reason"]
        )
    except TableGoneError:
        raise
    except ServiceError as error:
        form.add_error(None, str(error))
        return page.render({"unlock_form": form})
    return page.done(_("The table is unlocked: deals can be corrected again."))


def post_allow(page: SheetPage) -> HttpResponse:
    if not page.is_chief:
        raise PermissionDenied(_("Only the chief referee can allow a table more deals."))
    form = AllowDealsForm(page.request.POST, prefix="allow")
    if not form.is_valid():
        return page.render({"allow_form": form})
    try:
        table = services.table_deals_allow(
            table=page.sheet.table,
            writer=page.writer,
            more=form.cleaned_data["more"],
            reason=form.cleaned_data["reason"],
        )
    except LockedError as error:
        return page.refreshed().render(error=str(error), status=409)
    except TableGoneError:
        raise
    except ServiceError as error:
        form.add_error(None, str(error))
        return page.render({"allow_form": form})
    return page.done(
        _("Table %(number)d may play more deals: enter them, then confirm the table.")
        % {"number": table.number}
    )


# Whoever has the table's page calls the chief referee (a plain form, whatever the sheet's state
# while the round is in play: a confirmed table may need him too).
CALL_REFEREE = "call_referee"


def post_call_referee(page: SheetPage) -> HttpResponse:
    table = page.frame.table
    counted = f"table:{table.pk}"  # per table: the venue's phones share an address
    refusal = REFEREE_CALLS.begin(page.request, key=counted)
    if refusal is not None:
        return refusal
    try:
        tournament_services.referee_call(
            table=table,
            by=page.request.user,
            via_link=page.token is not None,
            ip_address=client_ip(page.request),
        )
    except TableGoneError:
        REFEREE_CALLS.succeeded(page.request, key=counted)
        raise
    except tournament_services.CallTooSoonError as error:
        REFEREE_CALLS.succeeded(page.request, key=counted)  # a refused press costs nothing
        messages.info(page.request, str(error))
    except ServiceError as error:
        REFEREE_CALLS.succeeded(page.request, key=counted)
        return page.render(error=str(error), status=409)
    return redirect(f"{page.url}#referee-call")


# The entries of the sheet, sent by a plain form or the phone's sync: each gives an Outcome.
ENTRY_ACTIONS: dict[str, Callable[[SheetPage, Mapping[str, str]], Outcome]] = {
    "deal": post_deal,
    "penalty": post_penalty,
    "correct": post_correct,
    "remove": post_remove,
    "confirm": post_confirm,
}
# The chief referee's own forms (plain forms only).
CHIEF_ACTIONS: dict[str, Callable[[SheetPage], HttpResponse]] = {
    "unlock": post_unlock,
    "allow": post_allow,
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
    can_put_out = (
        open_
        and tournament.late_out_deal is not None
        and len(frame.players) == 4
        and page.sheet.deals_played == 0
    )
    hall = late_players.hall_deals(frame.round) if can_put_out else None
    due = hall is not None and out_of_round_due(hall, tournament.late_out_deal)
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


def post_late(page: SheetPage) -> HttpResponse:
    frame = page.frame
    form = LateArrivalForm(page.request.POST, prefix="late", players=frame.players)
    if not form.is_valid():
        return page.render({"late_form": form})
    time = form.cleaned_data["arrived_at"]
    started = late_players.round_started_at(frame.round)
    arrived_at = None if time is None else late_players.typed_arrival(time, started=started)
    try:
        arrival = late_players.late_arrival_record(
            table=frame.table,
            player_key=form.cleaned_data["player"],
            arrived_at=arrived_at,
            client_key=uuid.uuid4().hex,
            writer=page.writer,
        )
    except TableGoneError:
        raise
    except ServiceError as error:
        form.add_error(None, str(error))
        return page.render({"late_form": form})
    name = frame.player(form.cleaned_data["player"]).name
    minutes = arrival.late.minutes_late
    if arrival.pule_given:
        return page.done(
            _("%(name)s came %(minutes)d min late: a penalty pule is given.")
            % {"name": name, "minutes": minutes}
        )
    return page.done(
        _("%(name)s came %(minutes)d min late: no pule.") % {"name": name, "minutes": minutes}
    )


def post_out(page: SheetPage) -> HttpResponse:
    frame = page.frame
    form = OutOfRoundForm(page.request.POST, prefix="out", players=frame.players)
    if not form.is_valid():
        return page.render({"out_form": form})
    try:
        late_players.player_out_of_round(
            table=frame.table, player_key=form.cleaned_data["player"], writer=page.writer
        )
    except TableGoneError:
        raise
    except ServiceError as error:
        form.add_error(None, str(error))
        return page.render({"out_form": form})
    return page.done(
        _("%(name)s is out of the round: the table plays on without him.")
        % {"name": frame.player(form.cleaned_data["player"]).name}
    )


# The referee's forms for late and absent players (plain forms only).
LATE_ACTIONS: dict[str, Callable[[SheetPage], HttpResponse]] = {
    "late": post_late,
    "out": post_out,
}
