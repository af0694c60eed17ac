"""The table's entry page: the paper sheet, the form for the next deal, corrections, penalties,
confirmation and unlock.

Two doors open the same page: the table's private link /r/<token>/ (whoever holds it, signed in
or not), and /organise/tables/<id>/sheet/ for the accounts tournaments.roles lets write the table
(its tournament's organisers and chief referees, the referees assigned to it). Every
write goes through scoring.services; a successful write redirects back to the page
(POST-redirect-GET), a refused one shows the page again with the message and stores nothing. A
deal sent by the page's script is answered, when nothing else changed, with its new row and the
next forms alone (`deal_saved`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property, partial, wraps

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.messages import constants as message_levels
from django.contrib.messages.storage.base import Message
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.functional import Promise, lazy
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from core.dropped_connections import repeatable_posts
from core.query import whole_number
from core.ratelimit import TABLE_LINK_FAILURES
from core.security import client_ip
from scoring import services
from scoring.entry.entry_forms import OfferedForms, correction_form, entry_forms_html
from scoring.entry.link_read import linked_table
from scoring.entry.phone import phone_data
from scoring.forms import (
    AllowDealsForm,
    ConfirmForm,
    DealForm,
    PenaltyForm,
    RemoveForm,
    UnlockForm,
)
from scoring.models import TableResult
from scoring.services import ConflictError, LockedError, Writer
from scoring.sheet_view import (
    SheetFrame,
    SheetPlayer,
    SheetRow,
    TableSheetView,
    sheet_frame,
    sheet_table,
    sheet_with_entries,
    table_confirmation,
    table_sheet_view,
)
from scoring.templatetags.sheet_rows import rows_html
from tournaments import permissions
from tournaments.models import Table, TableToken
from tournaments.services import ServiceError, TableGoneError, table_gone_message

TEMPLATE = "scoring/sheet.html"


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
    given_sheet: TableSheetView | None = None  # the sheet, when it is known already

    @cached_property
    def sheet(self) -> TableSheetView:
        if self.given_sheet is not None:
            return self.given_sheet
        return sheet_with_entries(self.frame)

    @property
    def writer(self) -> Writer:
        return Writer(user=self.request.user, token=self.token, ip_address=client_ip(self.request))

    def posted_position(self, prefix: str) -> int | None:
        return whole_number(self.request.POST.get(f"{prefix}-position"))

    def with_sheet(self, sheet: TableSheetView) -> SheetPage:
        return replace(self, frame=sheet.frame, given_sheet=sheet)

    def refreshed(self) -> SheetPage:
        """The same page with the sheet read again (another device has written meanwhile)."""
        return self.with_sheet(table_sheet_view(table_id=self.frame.table.pk))

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
        }

    def conflict(self, message: str, position: int | None) -> HttpResponse:
        """Another device got there first: the sheet as it is now, and what happened."""
        page = self.refreshed()
        number = deal_label(page.sheet, position)
        return page.render(error=message % {"number": number}, status=409)

    def done(self, message: str) -> HttpResponse:
        """Saved: back to the sheet at its entry forms, the message and the last rows in view."""
        messages.success(self.request, message)
        return redirect(f"{self.url}#entry-form")

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
        answer: Callable[[SheetPage, str, object], HttpResponse | None] | None = None,
    ) -> HttpResponse:
        """Run one write of an entry form and answer as every entry form does: back to the
        sheet with `saved` (or `answer`'s response to what the write returned, when it gives
        one); or the sheet again saying what happened: another device got there first
        (`conflict`, 409), the table was locked meanwhile (409), or the service refused (the
        form with the reason)."""
        try:
            written = service_call()
        except ConflictError:
            return self.conflict(conflict, position)
        except LockedError as error:
            return self.refreshed().render(error=str(error), status=409)
        except TableGoneError:
            raise
        except ServiceError as error:
            form.add_error(None, str(error))
            return self.render({form_name: form}, correcting=correcting)
        response = answer(self, saved, written) if answer is not None else None
        return response if response is not None else self.done(saved)


def deal_label(sheet: TableSheetView, position: int | None) -> str:
    """The deal number people see for an entry position (penalties use no deal)."""
    row = sheet.row_at(position) if position is not None else None
    if row is not None and row.number is not None:
        return str(row.number)
    return str(position) if position is not None else "?"


def posted_sitting_out(page: SheetPage, position: int | None) -> SheetPlayer | None:
    """Who sits out the deal being sent, as the page that sent it showed (its form's hidden
    `sits_out`): the form reads that deal's players by it, without reading the sheet first. The
    write checks the deal against the sheet under the table's lock: a position another device
    took is a conflict, and a deal that names a player who sits out it is the engine's
    refusal. A page that does not say is answered from the sheet."""
    if len(page.frame.players) != 4:
        return None
    key = page.request.POST.get(f"deal-{DealForm.SITS_OUT}")
    player = page.frame.player(key) if key else None
    return player if player is not None else sitting_out_at(page.sheet, position)


def sitting_out_at(sheet: TableSheetView, position: int | None) -> SheetPlayer | None:
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
    linked = linked_table(token)
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
        return link_gone(request, linked.token, reseated=True)
    if linked.token.revoked_at is not None:
        return link_gone(request, linked.token, reseated=False)
    return sheet_page(
        request,
        table=linked.table,
        confirmation=linked.confirmation,
        token=linked.token,
        url=reverse("scoring:token_sheet", args=[token]),
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
    return render(request, "scoring/link_gone.html", context, status=410)


def table_role_required(
    allowed: Callable[[object, Table], bool], refusal: str | Promise
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Views of one table (`table_id` in the URL): visitors are sent to sign in, accounts the
    check refuses get 403, before anything else is read or the method is looked at. The view
    receives the table, with its round and tournament."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @login_required
        @wraps(view)
        def wrapped(request: HttpRequest, table_id: int, **kwargs: object) -> HttpResponse:
            table = _table(table_id)
            if not allowed(request.user, table):
                raise PermissionDenied(refusal)
            return view(request, table=table, **kwargs)

        return wrapped

    return decorator


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
def organiser_sheet(request: HttpRequest, table: Table) -> HttpResponse:
    """The table's sheet for a signed-in account that may write it (tournaments.roles)."""
    return sheet_page(
        request,
        table=table,
        confirmation=table_confirmation(table),
        token=None,
        url=reverse("scoring:table_sheet", args=[table.pk]),
    )


def sheet_page(
    request: HttpRequest,
    *,
    table: Table,
    confirmation: TableResult | None,
    token: TableToken | None,
    url: str,
) -> HttpResponse:
    """`table`: with its round and tournament, as the sheet reads them (`sheet_tables`)."""
    try:
        frame = sheet_frame(table, confirmation)
    except Table.DoesNotExist:
        if token is not None:  # the round was seated again since the link was read
            return link_gone(request, token, reseated=True)
        raise Http404 from None
    # Who may open the page is settled by its door (the link, or table_role_required); the
    # chief referee is offered more: confirming as himself, unlocking.
    is_chief = permissions.is_chief_referee(request.user, table.round.tournament)
    page = SheetPage(request, frame, token, is_chief, url)
    if request.method == "POST":
        action = request.POST.get("action", "")
        handler = POST_ACTIONS.get(action)
        if handler is None:
            return page.render(
                error=_("That request is not understood: reload the page."), status=400
            )
        if action not in ("unlock", "confirm") and not frame.accepts_entries:
            return page.render(error=closed_message(page.sheet), status=409)
        try:
            return handler(page)
        except TableGoneError:  # seated again while this request was on its way
            return link_gone(request, token, reseated=True)
    return show(page)


def closed_message(sheet: TableSheetView) -> str:
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


def post_deal(page: SheetPage) -> HttpResponse:
    frame = page.frame
    position = page.posted_position("deal")
    form = DealForm(
        page.request.POST,
        prefix="deal",
        players=frame.players,
        sitting_out=posted_sitting_out(page, position),
        rules=frame.rule_set.rules,
    )
    if not form.is_valid():
        return page.render({"deal_form": form})
    return page.write(
        lambda: services.deal_record_on_sheet(
            table=frame.table,
            entry=form.cleaned_data["entry"],
            position=form.cleaned_data["position"],
            client_key=form.cleaned_data["client_key"],
            writer=page.writer,
            seats=list(frame.seats),
        ),
        form=form,
        form_name="deal_form",
        saved=_("Deal saved."),
        conflict=_("Another device entered deal %(number)s: here is the sheet now."),
        position=position,
        answer=deal_saved(form.cleaned_data["client_key"]),
    )


# static/js/entry-resend.js sends a deal with this header: the mark (TableSheetView.mark) of the
# sheet its page shows. When the saved deal is the only change since, the answer is the new row,
# the progress and the next forms alone (scoring/_deal_saved.html), not a redirect to the page.
SHOWN_SHEET_HEADER = "X-Entry-Sheet"
FRAGMENT_HEADER = "X-Entry-Fragment"


def deal_saved(client_key: str) -> Callable[[SheetPage, str, object], HttpResponse | None]:
    """The answer to a saved deal that the entry script sent: only what the deal changed, or
    None (the page is loaded whole, as without the script) when the page is not the sheet as
    it was just before this deal (another device wrote meanwhile), or the sheet is now closed
    (its settlement, the confirmation) or does not score. The entries are the ones the write
    read under the table's lock, with the new one (`services.RecordedEntry`): not read again."""

    def answer(page: SheetPage, saved: str, recorded: object) -> HttpResponse | None:
        shown = whole_number(page.request.headers.get(SHOWN_SHEET_HEADER))
        if shown is None or not isinstance(recorded, services.RecordedEntry):
            return None
        sheet = sheet_with_entries(page.frame, recorded.versions, scored_open=recorded.scored)
        row = sheet.last_row
        if (
            row is None
            or row.result.client_key != client_key
            or row.result.pk != sheet.mark
            or sheet.mark_before != shown
            or sheet.is_closed
            or sheet.error
            or not sheet.accepts_entries
        ):
            return None
        page = page.with_sheet(sheet)
        context = page.context()
        context["messages"] = [Message(message_levels.SUCCESS, saved)]
        context["rows"] = rows_html(sheet, [row], editable=True, page_url=page.url)
        response = render(page.request, "scoring/_deal_saved.html", context)
        response[FRAGMENT_HEADER] = "1"
        return response

    return answer


def post_penalty(page: SheetPage) -> HttpResponse:
    sheet = page.sheet
    form = PenaltyForm(page.request.POST, prefix="penalty", players=sheet.players)
    if not form.is_valid():
        return page.render({"penalty_form": form})
    return page.write(
        lambda: services.deal_record(
            table=sheet.table,
            entry=form.cleaned_data["entry"],
            position=form.cleaned_data["position"],
            client_key=form.cleaned_data["client_key"],
            writer=page.writer,
        ),
        form=form,
        form_name="penalty_form",
        saved=_("Penalty pule given."),
        conflict=_("Another device entered deal %(number)s: here is the sheet now."),
        position=page.posted_position("penalty"),
    )


def post_correct(page: SheetPage) -> HttpResponse:
    sheet = page.sheet
    position = page.posted_position("fix")
    row = sheet.row_at(position) if position is not None else None
    if row is None:
        return page.refreshed().render(
            error=_("That entry is no longer on the sheet: here is the sheet now."), status=409
        )
    form = correction_form(sheet, row, page.request.POST)
    if not form.is_valid():
        return page.render({"correction_form": form}, correcting=row)
    return page.write(
        lambda: services.deal_correct(
            table=sheet.table,
            position=row.position,
            entry=form.cleaned_data["entry"],
            base_version=form.cleaned_data["base_version"],
            client_key=form.cleaned_data["client_key"],
            reason=form.cleaned_data["reason"],
            writer=page.writer,
        ),
        form=form,
        form_name="correction_form",
        saved=_("Correction saved; the earlier version is kept."),
        conflict=_("Another device corrected deal %(number)s meanwhile: here is the sheet now."),
        position=position,
        correcting=row,
    )


def post_remove(page: SheetPage) -> HttpResponse:
    sheet = page.sheet
    form = RemoveForm(page.request.POST, prefix="remove")
    if not form.is_valid():
        return page.render({"remove_form": form})
    position = form.cleaned_data["position"]
    return page.write(
        lambda: services.deal_correct(
            table=sheet.table,
            position=position,
            entry=None,
            base_version=form.cleaned_data["base_version"],
            client_key=form.cleaned_data["client_key"],
            reason=form.cleaned_data["reason"],
            writer=page.writer,
        ),
        form=form,
        form_name="remove_form",
        saved=_("The last entry is removed; the removed version is kept."),
        conflict=_("Another device changed deal %(number)s meanwhile: here is the sheet now."),
        position=position,
    )


def post_confirm(page: SheetPage) -> HttpResponse:
    sheet = page.sheet
    if sheet.is_confirmed:  # a double tap: the first one confirmed it
        return page.done(_("The table is confirmed and locked."))
    if not sheet.round_is_open:
        return page.render(error=closed_message(sheet), status=409)
    needs_confirmer = not page.is_chief
    form = ConfirmForm(
        page.request.POST, prefix="confirm", players=sheet.players, needs_confirmer=needs_confirmer
    )
    if not form.is_valid():
        if "deals" in form.errors:
            # The count of deals the confirmer checked is what makes the confirmation his: a
            # page that does not send it is shown the sheet again.
            return page.refreshed().render(
                error=_(
                    "The confirmation did not say how many deals you checked: look at the sheet "
                    "again before confirming."
                ),
                status=409,
            )
        return page.render({"confirm_form": form})
    confirmer = sheet.player(form.cleaned_data["confirmer"]) if needs_confirmer else None
    try:
        services.table_confirm(
            table=sheet.table,
            writer=page.writer,
            confirmer=confirmer.entry if confirmer is not None else None,
            deals_seen=form.cleaned_data["deals"],
        )
    except ConflictError as error:
        return page.refreshed().render(error=str(error), status=409)
    except TableGoneError:
        raise
    except ServiceError as error:
        form.add_error(None, str(error))
        return page.render({"confirm_form": form})
    return page.done(_("The table is confirmed and locked."))


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


POST_ACTIONS: dict[str, Callable[[SheetPage], HttpResponse]] = {
    "deal": post_deal,
    "penalty": post_penalty,
    "correct": post_correct,
    "remove": post_remove,
    "confirm": post_confirm,
    "unlock": post_unlock,
    "allow": post_allow,
}


def _table(table_id: int) -> Table:
    try:
        return sheet_table(table_id)
    except Table.DoesNotExist:
        raise Http404 from None
