"""The table's entry page: its two doors, the sheet shown, and the plain forms' posts.

Two doors open the same page: the table's private link /r/<token>/ (whoever holds it, signed in
or not), and /organise/tables/<id>/sheet/ for the accounts tournaments.permissions lets write
the table (its tournament's organisers and chief referees, the referees assigned to it). Every
write goes through scoring.services; a successful write redirects back to the page
(POST-redirect-GET), a refused one shows the page again with the message and stores nothing.
Each entry's action (entry.entries) gives an `Outcome` (entry.page), which the plain form's
answer turns into a page here and the phone's sync (entry.sync) into its JSON. The chief
referee's unlock and more deals, the call to him, and the late and absent players' forms are
plain forms only, answered here.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from core.dropped_connections import repeatable_posts
from core.http import AuthenticatedHttpRequest
from core.query import whole_number
from core.ratelimit import REFEREE_CALLS, TABLE_LINK_FAILURES
from core.security import client_ip
from entry.entries import ENTRY_ACTIONS, entry_outcome
from entry.forms import AllowDealsForm, LateArrivalForm, OutOfRoundForm, UnlockForm
from entry.page import SheetPage, closed_message
from hall.services import referee_calls
from scoring import late_players, services
from scoring.services import LockedError
from scoring.sheet.door import table_role_required
from scoring.sheet.reader import DoorTable, sheet_frame, table_by_link
from scoring.sheet.shape import SheetFrame
from tournaments import permissions
from tournaments.models import Table, TableToken
from tournaments.services import ServiceError, TableGoneError, table_gone_message

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
    link, table = linked.link, linked.table
    assert link is not None  # read by its link
    if table is None:
        return link_gone(request, link, reseated=True)
    if link.revoked_at is not None:
        return link_gone(request, link, reseated=False)
    if request.method != "POST":  # its phone is heard from (a write is heard from by its sync)
        services.table_heard(table_id=table.pk, last=linked.heard)
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
def organiser_sheet(request: AuthenticatedHttpRequest, door: DoorTable) -> HttpResponse:
    """The table's sheet for a signed-in account that may write it (tournaments.permissions)."""
    table_id = door.seated_table.pk
    return sheet_page(
        request,
        door=door,
        url=reverse("entry:table_sheet", args=[table_id]),
        sync_url=reverse("entry:table_sync", args=[table_id]),
    )


def sheet_page(request: HttpRequest, *, door: DoorTable, url: str, sync_url: str) -> HttpResponse:
    """The table as its door read it (`scoring.sheet.reader`): its link, or none for a
    signed-in account."""
    token = door.link
    try:
        table = door.seated_table
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


# --- The chief referee's forms and the call to him ----------------------------------------------


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
        referee_calls.referee_call(
            table=table,
            by=page.request.user,
            via_link=page.token is not None,
            ip_address=client_ip(page.request),
        )
    except TableGoneError:
        REFEREE_CALLS.succeeded(page.request, key=counted)
        raise
    except referee_calls.CallTooSoonError as error:
        REFEREE_CALLS.succeeded(page.request, key=counted)  # a refused press costs nothing
        messages.info(page.request, str(error))
    except ServiceError as error:
        REFEREE_CALLS.succeeded(page.request, key=counted)
        return page.render(error=str(error), status=409)
    return redirect(f"{page.url}#referee-call")


# The chief referee's own forms (plain forms only).
CHIEF_ACTIONS: dict[str, Callable[[SheetPage], HttpResponse]] = {
    "unlock": post_unlock,
    "allow": post_allow,
}


# --- Late and absent players --------------------------------------------------------------------


def seated_name(frame: SheetFrame, key: str) -> str:
    """The name of the player the form chose: one of the frame's (its choices are)."""
    player = frame.player(key)
    assert player is not None  # the form's choices are the frame's players
    return player.name


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
    name = seated_name(frame, form.cleaned_data["player"])
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
        % {"name": seated_name(frame, form.cleaned_data["player"])}
    )


# The referee's forms for late and absent players (plain forms only).
LATE_ACTIONS: dict[str, Callable[[SheetPage], HttpResponse]] = {
    "late": post_late,
    "out": post_out,
}
