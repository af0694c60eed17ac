"""Self check-in: a player confirms he is present from his phone, by the round's code (the
hall display shows it) or with his own link. The organiser's ticks stay final: a player never
undoes one, and one the organiser unticked for the round cannot check himself in again."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.page_cache import tournament_changed
from hall.selectors import open_check_in_round, plays_round
from tournaments.models import (
    CHECK_IN_CODE_LETTERS,
    AuditRecord,
    CheckIn,
    CheckInMethod,
    CheckOut,
    Registration,
    Round,
    RoundStatus,
)
from tournaments.services.audit import audit
from tournaments.services.refusal import ServiceError

# A check-in the player may still confirm himself: made by the round's preparation only.
PROVISIONAL = CheckInMethod.ROUND


class CheckInClosedError(ServiceError):
    """No round takes self check-in now (none prepared, or it is seated already)."""


class WrongCodeError(ServiceError):
    """The code typed is not the round's: counted by the address's failure limit."""


def normalised_code(typed: str) -> str:
    """The code as typed, read forgivingly: case, spaces and dashes do not matter."""
    return "".join(char for char in typed.upper() if char not in " -\t")[:20]


def code_is_well_formed(code: str) -> bool:
    return bool(code) and all(char in CHECK_IN_CODE_LETTERS for char in code)


@transaction.atomic
def self_check_in(
    *,
    registration: Registration,
    method: str,
    code: str = "",
    ip_address: str | None = None,
) -> CheckIn:
    """The player checks himself in for the open round (`method` CODE with the typed `code`,
    or LINK with his own link). Returns his check-in; one he had already is returned as it is.
    Refused: no open round (CheckInClosedError), a wrong code (WrongCodeError), a player who
    does not play that round or whom the organiser unticked for it (ServiceError)."""
    if method not in (CheckInMethod.CODE, CheckInMethod.LINK):
        raise ValueError(method)
    tournament = registration.tournament
    round_ = open_check_in_round(tournament)
    if round_ is None:
        raise CheckInClosedError(
            _("Check-in is not open: the next round is not prepared yet, or already seated.")
        )
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status != RoundStatus.DRAFT or round_.tables.exists():
        raise CheckInClosedError(_("Check-in is closed: the round is seated already."))
    if method == CheckInMethod.CODE and normalised_code(code) != round_.check_in_code:
        raise WrongCodeError(
            _(
                "The code %(code)s is not this round's check-in code: type the code the hall "
                "display shows."
            )
            % {"code": normalised_code(code) or "–"}
        )
    plays = Registration.objects.filter(pk=registration.pk).filter(plays_round(round_)).exists()
    if not plays:
        raise ServiceError(
            _("%(name)s does not play round %(number)d: ask the organiser.")
            % {"name": registration.player.full_name, "number": round_.number}
        )
    if CheckOut.objects.filter(round=round_, registration=registration).exists():
        raise ServiceError(
            _(
                "The organiser marked %(name)s absent for round %(number)d: only he can check "
                "you in now."
            )
            % {"name": registration.player.full_name, "number": round_.number}
        )
    check_in = CheckIn.objects.filter(round=round_, registration=registration).first()
    if check_in is not None and check_in.method != PROVISIONAL:
        return check_in  # the organiser's tick, or his own earlier: kept as it is
    now = timezone.now()
    if check_in is None:
        check_in = CheckIn.objects.create(round=round_, registration=registration, method=method)
    else:
        CheckIn.objects.filter(pk=check_in.pk).update(method=method, checked_in_at=now)
        check_in.method, check_in.checked_in_at = method, now
    tournament_changed(tournament.pk)
    audit(
        action=AuditRecord.Action.SELF_CHECK_IN,
        by=None,
        tournament=tournament,
        ip_address=ip_address,
        round=round_.number,
        player=registration.player.full_name,
        registration=registration.pk,
        method=method,
    )
    return check_in
