"""Calling the chief referee from a table's page, and his answer. A table has one open call
at most; pressing again is refused for a minute, then it reminds him."""

import datetime

from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from hall.models import RefereeCall
from tournaments.models import AuditRecord, RoundStatus, Table
from tournaments.services.audit import audit
from tournaments.services.locks import lock_round_and_table
from tournaments.services.refusal import ServiceError

# The least time between two presses of one table's call button that both count.
CALL_AGAIN_AFTER = datetime.timedelta(minutes=1)


class CallTooSoonError(ServiceError):
    """The table called less than a minute ago and the call is still open."""


@transaction.atomic
def referee_call(
    *,
    table: Table,
    by: User | AnonymousUser | None = None,
    via_link: bool = False,
    ip_address: str | None = None,
) -> RefereeCall:
    """The table calls the chief referee: a new call, or, when its call is open for a minute
    already, a reminder of it. Refused while the round is not in play (a draft, closed) and
    within a minute of the table's last press. A link's holder who is not signed in calls as
    no account."""
    round_, table = lock_round_and_table(table)
    if round_.status not in (RoundStatus.PUBLISHED, RoundStatus.IN_PLAY):
        raise ServiceError(
            _("Round %(number)d is not in play: the chief referee is not called from here.")
            % {"number": round_.number}
        )
    now = timezone.now()
    call = RefereeCall.objects.filter(table=table, answered_at__isnull=True).first()
    if call is not None:
        last = call.reminded_at or call.called_at
        if now - last < CALL_AGAIN_AFTER:
            raise CallTooSoonError(
                _("The chief referee is called already; you can call again after a minute.")
            )
        call.reminded_at = now
        call.save(update_fields=["reminded_at"])
        again = True
    else:
        try:
            with transaction.atomic():
                call = RefereeCall.objects.create(table=table, called_at=now)
        except IntegrityError:  # another phone of the table called at the same moment
            raise CallTooSoonError(
                _("The chief referee is called already; you can call again after a minute.")
            ) from None
        again = False
    audit(
        action=AuditRecord.Action.REFEREE_CALLED,
        by=by,
        tournament=round_.tournament,
        table=table,
        ip_address=ip_address,
        round=round_.number,
        table_number=table.number,
        again=again,
        via_link=via_link,
    )
    return call


@transaction.atomic
def referee_call_answer(
    *, call: RefereeCall, by: User, ip_address: str | None = None
) -> RefereeCall:
    """The chief referee (or an organiser) marks the table's call answered. Answering one
    answered already changes nothing."""
    call = (
        RefereeCall.objects.select_for_update(of=("self",))
        .select_related("table__round__tournament")
        .get(pk=call.pk)
    )
    if call.answered_at is not None:
        return call
    call.answered_at = timezone.now()
    call.answered_by = by
    call.save(update_fields=["answered_at", "answered_by"])
    audit(
        action=AuditRecord.Action.REFEREE_CALL_ANSWERED,
        by=by,
        tournament=call.table.round.tournament,
        table=call.table,
        ip_address=ip_address,
        round=call.table.round.number,
        table_number=call.table.number,
        called_at=call.called_at.isoformat(),
        waited_seconds=int((call.answered_at - call.called_at).total_seconds()),
    )
    return call
