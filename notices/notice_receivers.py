"""The notices' receivers of the signals the apps below send (a round published, a table
confirmed, a sign-up accepted): each records a notice in the write's own transaction, to be
sent once it commits. Connected in notices/apps.py."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from notices.models import NoticeKind
from notices.services import notice_record
from scoring import reactions as scoring_reactions
from signups import signup_reactions
from signups.models import SignUpStatus
from tournaments import round_reactions

if TYPE_CHECKING:
    from scoring.models import TableResult
    from signups.models import SignUp
    from tournaments.models import Round


def round_created(*, round_: Round, **_signal: Any) -> None:
    notice_record(tournament=round_.tournament, kind=NoticeKind.CHECK_IN_OPENED, round_=round_)


def round_published(*, round_: Round, **_signal: Any) -> None:
    notice_record(tournament=round_.tournament, kind=NoticeKind.SEATING_PUBLISHED, round_=round_)


def round_clock_started(*, round_: Round, **_signal: Any) -> None:
    notice_record(tournament=round_.tournament, kind=NoticeKind.ROUND_STARTED, round_=round_)


def round_time_called(*, round_: Round, **_signal: Any) -> None:
    notice_record(tournament=round_.tournament, kind=NoticeKind.TIME_CALLED, round_=round_)


def table_confirmed(*, table_result: TableResult, **_signal: Any) -> None:
    table = table_result.table
    notice_record(
        tournament=table.round.tournament,
        kind=NoticeKind.TABLE_CONFIRMED,
        round_=table.round,
        table=table,
    )


def round_closed(*, round_: Round, **_signal: Any) -> None:
    tournament = round_.tournament
    last = round_.number >= tournament.rounds_planned
    notice_record(
        tournament=tournament,
        kind=NoticeKind.FINAL_STANDINGS if last else NoticeKind.ROUND_CLOSED,
        round_=round_,
    )


def signup_created(*, signup: SignUp, **_signal: Any) -> None:
    kind = (
        NoticeKind.SIGNUP_WAITING
        if signup.status == SignUpStatus.WAITING
        else NoticeKind.SIGNUP_LISTED
    )
    notice_record(tournament=signup.tournament, kind=kind, signup=signup)


def signups_accepted(*, signups: list[SignUp], **_signal: Any) -> None:
    for signup in signups:
        notice_record(tournament=signup.tournament, kind=NoticeKind.SIGNUP_ACCEPTED, signup=signup)


def signup_moved(*, signup: SignUp, **_signal: Any) -> None:
    kind = (
        NoticeKind.SIGNUP_MOVED_UP
        if signup.status == SignUpStatus.LISTED
        else NoticeKind.SIGNUP_WAITING
    )
    notice_record(tournament=signup.tournament, kind=kind, signup=signup)


def signup_refused(*, signup: SignUp, **_signal: Any) -> None:
    notice_record(tournament=signup.tournament, kind=NoticeKind.SIGNUP_REFUSED, signup=signup)


def connect() -> None:
    round_reactions.round_created.connect(round_created)
    round_reactions.round_published.connect(round_published)
    round_reactions.round_clock_started.connect(round_clock_started)
    round_reactions.round_time_called.connect(round_time_called)
    scoring_reactions.table_confirmed.connect(table_confirmed)
    scoring_reactions.round_closed.connect(round_closed)
    signup_reactions.signup_created.connect(signup_created)
    signup_reactions.signups_accepted.connect(signups_accepted)
    signup_reactions.signup_moved.connect(signup_moved)
    signup_reactions.signup_refused.connect(signup_refused)
