"""The phone's sync: the entries a table's phone kept in its own storage, sent in order, each
written as its plain form would be (`entry.entries.entry_outcome`: the same forms and services,
each its own transaction), stopping at the first one not stored; the answer is what became of
each, the table's state after the writes (entry.state) and the page's parts to show it.

    POST /r/<token>/entries/                (the table's link)
    POST /organise/tables/<id>/entries/     (a signed-in account that may write the table)

A body that is not this protocol is answered 400 with what is wrong, and nothing is written.
Every sync records when the table was last heard from and what is still on its phone once it
has the answer (`scoring.services.table_heard`), for the chief referee's round page.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, replace

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse, RawPostDataException
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from core.dropped_connections import repeatable_posts
from core.http import AuthenticatedHttpRequest
from core.ratelimit import TABLE_LINK_FAILURES
from entry.entries import ENTRY_ACTIONS, entry_outcome
from entry.offered_forms import OfferedForms, entry_forms_html
from entry.page import CLOSED, STORED, Outcome, SheetPage, closed_message
from entry.phone import phone_draws_forms
from entry.state import table_state
from scoring import services
from scoring.models import DealResult
from scoring.sheet.door import table_role_required
from scoring.sheet.reader import DoorTable, read_sheet, sheet_frame, table_by_link
from scoring.sheet.shape import TableSheet
from tournaments import permissions
from tournaments.models import Table
from tournaments.services import TableGoneError, table_gone_message

logger = logging.getLogger("entry")

MAX_ENTRIES = 30
# Thirty entries of a table of four with every galdiņš field and a long reason are some 30 KB.
MAX_BODY_BYTES = 256 * 1024
MAX_COUNT = 100_000  # "waiting" and "refused": a phone holds a round or two, not more
MAX_SCORE = 1_000_000
# The fields a plain form posts that are not the entry's own.
NOT_FIELDS = frozenset({"csrfmiddlewaretoken", "action"})


class BadBody(ValueError):
    """A body that is not the sync protocol: its message says what is wrong, and where."""


@dataclass(frozen=True)
class SentEntry:
    key: str
    action: str
    fields: dict[str, str]
    scores: dict[str, int] | None


@dataclass(frozen=True)
class SyncBody:
    entries: tuple[SentEntry, ...]
    waiting: int | None
    refused: int | None


def _count(data: dict, name: str) -> int | None:
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        raise BadBody(
            _('"%(name)s" must be a whole number from 0 to %(max)d.')
            % {"name": name, "max": MAX_COUNT}
        )
    return value


def _entry(index: int, data: object) -> SentEntry:
    where = {"number": index}
    if not isinstance(data, dict):
        raise BadBody(_("Entry %(number)d is not a JSON object.") % where)
    key = data.get("key")
    if not isinstance(key, str) or not 1 <= len(key) <= 64:
        raise BadBody(_('Entry %(number)d: "key" must be text of 1 to 64 characters.') % where)
    action = data.get("action")
    if action not in ENTRY_ACTIONS:
        raise BadBody(
            _('Entry %(number)d: "action" must be one of %(actions)s.')
            % {**where, "actions": ", ".join(ENTRY_ACTIONS)}
        )
    fields = data.get("fields")
    if not isinstance(fields, dict) or not all(
        isinstance(name, str) and isinstance(value, str) for name, value in fields.items()
    ):
        raise BadBody(
            _('Entry %(number)d: "fields" must be an object of texts (the form\'s fields).') % where
        )
    scores = data.get("scores")
    if scores is not None and not (
        isinstance(scores, dict)
        and len(scores) <= 4
        and all(
            isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_SCORE
            for value in scores.values()
        )
    ):
        raise BadBody(
            _('Entry %(number)d: "scores" must be null or an object of whole numbers by player.')
            % where
        )
    return SentEntry(
        key=key,
        action=action,
        fields={name: value for name, value in fields.items() if name not in NOT_FIELDS},
        scores=scores,
    )


def sync_body(request: HttpRequest) -> SyncBody:
    """The request's body as the protocol says, or BadBody."""
    try:
        body = request.body
    except RawPostDataException:  # a form's body, read as one already (the CSRF check)
        raise BadBody(_("The request is not JSON: reload the page.")) from None
    except RequestDataTooBig:
        body = None
    if body is None or len(body) > MAX_BODY_BYTES:
        raise BadBody(
            _("The request is too large: send at most %(count)d entries at a time.")
            % {"count": MAX_ENTRIES}
        )
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):  # not UTF-8, not JSON, numbers too long, too deep
        raise BadBody(_("The request is not JSON: reload the page.")) from None
    if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
        raise BadBody(_('The request must be a JSON object with a list of "entries".'))
    entries = data["entries"]
    if len(entries) > MAX_ENTRIES:
        raise BadBody(
            _("%(sent)d entries sent at once: send at most %(count)d at a time.")
            % {"sent": len(entries), "count": MAX_ENTRIES}
        )
    return SyncBody(
        entries=tuple(_entry(index, entry) for index, entry in enumerate(entries, 1)),
        waiting=_count(data, "waiting"),
        refused=_count(data, "refused"),
    )


def bad_request(message: str) -> JsonResponse:
    return JsonResponse({"error": message}, status=400)


def gone(*, reseated: bool) -> JsonResponse:
    """410: the link was replaced, or the round was seated again (its tables went)."""
    message = (
        table_gone_message()
        if reseated
        else _("This link was replaced: ask the organiser for the new one.")
    )
    return JsonResponse({"gone": True, "message": str(message)}, status=410)


# --- The two doors ------------------------------------------------------------------------------


def is_sync(request: HttpRequest) -> bool:
    """Every sync may run twice after a dropped database connection: each entry's client key
    records it once, a confirmation finds the table confirmed."""
    return True


@never_cache
@repeatable_posts(when=is_sync)
@require_POST
def token_sync(request: HttpRequest, token: str) -> HttpResponse:
    """The table's link: whoever holds it sends its entries (the page's own checks)."""
    linked = table_by_link(token)
    if linked is None:
        refusal = TABLE_LINK_FAILURES.begin(request)  # an unknown link, as on the page
        if refusal is not None:
            return refusal
        return JsonResponse({"error": _("There is no such table link.")}, status=404)
    if linked.table is None:
        return gone(reseated=True)
    assert linked.link is not None  # read by its link
    if linked.link.revoked_at is not None:
        return gone(reseated=False)
    return sync(
        request,
        door=linked,
        url=reverse("entry:token_sheet", args=[token]),
        sync_url=reverse("entry:token_sync", args=[token]),
    )


@never_cache
@repeatable_posts(when=is_sync)
@table_role_required(
    permissions.can_write_table,
    gettext_lazy(
        "Only the tournament's organisers and chief referees, and the table's referees, "
        "open it here."
    ),
)
@require_POST
def table_sync(request: AuthenticatedHttpRequest, door: DoorTable) -> HttpResponse:
    """A signed-in account that may write the table (tournaments.permissions) sends its entries."""
    table_id = door.seated_table.pk
    return sync(
        request,
        door=door,
        url=reverse("entry:table_sheet", args=[table_id]),
        sync_url=reverse("entry:table_sync", args=[table_id]),
    )


# --- The entries ----------------------------------------------------------------------------------


def sync(request: HttpRequest, *, door: DoorTable, url: str, sync_url: str) -> HttpResponse:
    """`door`: the table as its door read it (`scoring.sheet.reader`)."""
    token = door.link
    try:
        body = sync_body(request)
    except BadBody as error:
        return bad_request(str(error))
    try:
        table = door.seated_table
        frame = sheet_frame(table, door.confirmation)
    except Table.DoesNotExist:  # seated again since the link was read
        return gone(reseated=True)
    is_chief = permissions.is_chief_referee(request.user, table.round.tournament)
    page = SheetPage(request, frame, token, is_chief, url, sync_url=sync_url)
    handled: list[tuple[SentEntry, Outcome]] = []
    try:
        for sent in body.entries:
            outcome = sent_outcome(page, sent)
            handled.append((sent, outcome))
            if outcome.status != STORED:
                break
            # The next entry reads the sheet as the write left it.
            written = outcome.written
            if isinstance(written, services.RecordedEntry | services.ConfirmedTable):
                page = page.with_sheet(written.sheet)
            else:
                page = replace(page, given_sheet=None)
        sheet = sheet_after(page, handled)
    except (TableGoneError, Table.DoesNotExist):  # seated again while this request ran
        return gone(reseated=True)
    services.table_heard(table_id=table.pk, last=door.heard, **counts_after(body, handled))
    page = page.with_sheet(sheet)
    return JsonResponse(
        {
            "results": [result(sheet, sent, outcome) for sent, outcome in handled],
            "state": table_state(sheet, link=url, sync=sync_url),
            "html": page_parts(page),
        }
    )


def counts_after(body: SyncBody, handled: list[tuple[SentEntry, Outcome]]) -> dict[str, int | None]:
    """What waits and what was refused on the phone once it reads this answer: the counts it
    sent (its waiting entries, the ones sent among them) less the entries stored; the first one
    not stored stays on it refused. None: the phone did not say."""
    stored = sum(1 for _sent, outcome in handled if outcome.status == STORED)
    refused_now = len(handled) - stored
    return {
        "waiting": None if body.waiting is None else max(0, body.waiting - len(handled)),
        "refused": None if body.refused is None else body.refused + refused_now,
    }


def sheet_after(page: SheetPage, handled: list[tuple[SentEntry, Outcome]]) -> TableSheet:
    """The sheet after the writes: the one the last write read under the table's lock and
    handed back with its entry or confirmation (nothing read or scored twice); otherwise (no
    write, or the last entry not stored) its entries read again."""
    last = handled[-1][1] if handled else None
    written = last.written if last is not None and last.status == STORED else None
    if isinstance(written, services.RecordedEntry | services.ConfirmedTable):
        return written.sheet
    return read_sheet(page.frame)


def sent_outcome(page: SheetPage, sent: SentEntry) -> Outcome:
    if sent.action == "confirm" and page.frame.confirmation is not None:
        # Confirmed already: by this phone's own confirmation (its answer lost), when it is the
        # sheet it saw; otherwise the table is closed to it.
        seen = sent.fields.get("confirm-deals", "").strip()
        if seen.isascii() and seen.isdigit() and int(seen) == page.sheet.deals_played:
            return entry_outcome(page, sent.action, sent.fields)
        return Outcome(CLOSED, closed_message(page.sheet))
    return entry_outcome(page, sent.action, sent.fields)


def written_result(outcome: Outcome) -> DealResult | None:
    written = outcome.written
    if isinstance(written, services.RecordedEntry):
        return written.result
    return written if isinstance(written, DealResult) else None


def server_scores(sheet: TableSheet, written: DealResult | None) -> dict[str, int] | None:
    """The server's scores of a stored entry, as the sheet stands now (None: the entry is no
    longer the current version of its position, or the sheet does not score)."""
    if written is None or written.kind == "void":
        return None
    row = sheet.row_at(written.position)
    if row is None or row.result.pk != written.pk:
        return None
    scores = {}
    for cell in row.cells:
        if cell.score is None:
            return None
        scores[cell.player.key] = cell.score
    return scores


def result(sheet: TableSheet, sent: SentEntry, outcome: Outcome) -> dict[str, object]:
    disagreed = False
    if outcome.status == STORED and sent.scores is not None:
        written = written_result(outcome)
        scores = server_scores(sheet, written)
        if written is not None and scores is not None and scores != sent.scores:
            disagreed = True
            logger.warning(
                "table %s (round %s, %s): the phone scored entry %s as %s, the server as %s",
                sheet.table.number,
                sheet.round.number,
                sheet.tournament.slug,
                written.position,
                json.dumps(sent.scores, sort_keys=True),
                json.dumps(scores, sort_keys=True),
            )
    return {
        "key": sent.key,
        "status": outcome.status,
        "message": str(outcome.message),
        "errors": outcome.errors,
        "disagreed": disagreed,
    }


def page_parts(page: SheetPage) -> dict[str, str | None]:
    """The page's parts after the writes, as the page renders them: the sheet, the progress
    under its heading, the section of the next entry forms (None when the next entry is an
    ordinary deal, which the phone fills in from its own forms: `phone_draws_forms`)."""
    sheet = page.sheet
    context = {
        "sheet": sheet,
        "page_url": page.url,
        "editable": sheet.accepts_entries,
    }
    return {
        "sheet": render_to_string(
            "scoring/_sheet_table.html", context, request=page.request
        ).strip(),
        "progress": render_to_string("entry/_entry_progress.html", context).strip(),
        "forms": None if phone_draws_forms(sheet) else forms_section(page, context),
    }


def forms_section(page: SheetPage, context: dict[str, object]) -> str:
    offered = OfferedForms(page.sheet, is_chief=page.is_chief)
    forms = entry_forms_html(page.request, offered, page_url=page.url)
    return render_to_string(
        "entry/_entry_form_section.html",
        {**context, "entry_forms": forms},
        request=page.request,
    ).strip()
