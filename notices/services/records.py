"""A notice written in the transaction of what happened (one row, whatever the number of
players: the round's publication waits for no one), and the sender woken once it commits."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from notices.models import Notice, NoticeKind
from notices.services.sender import wake_sender
from signups.models import SignUp
from tournaments.models import AuditRecord, Round, Table, Tournament
from tournaments.services.audit import audit
from tournaments.services.refusal import ServiceError

ANNOUNCEMENT_MAX_LENGTH = 200


def notice_record(
    *,
    tournament: Tournament,
    kind: NoticeKind,
    round_: Round | None = None,
    table: Table | None = None,
    signup: SignUp | None = None,
    text: str = "",
    by: User | None = None,
) -> Notice:
    """Record the notice in the caller's transaction; it is sent after the commit (and never,
    if the transaction is undone)."""
    notice = Notice.objects.create(
        tournament=tournament,
        kind=kind,
        round=round_,
        table=table,
        signup=signup,
        text=text,
        created_by=by,
    )
    transaction.on_commit(wake_sender)
    return notice


@transaction.atomic
def announcement_send(
    *, tournament: Tournament, text: str, by: User, ip_address: str | None = None
) -> Notice:
    """The organiser's short message to every player of the tournament who receives
    messages ("Lunch: 30 minutes")."""
    text = " ".join(text.split())
    if not text:
        raise ServiceError(_("Write the announcement first."))
    if len(text) > ANNOUNCEMENT_MAX_LENGTH:
        raise ServiceError(
            _("An announcement is at most %(count)d characters: this one has %(length)d.")
            % {"count": ANNOUNCEMENT_MAX_LENGTH, "length": len(text)}
        )
    notice = notice_record(tournament=tournament, kind=NoticeKind.ANNOUNCEMENT, text=text, by=by)
    audit(
        action=AuditRecord.Action.ANNOUNCEMENT_SENT,
        by=by,
        tournament=tournament,
        ip_address=ip_address,
        text=text,
    )
    return notice
