"""Reads of self check-in and of the tables' calls to the chief referee."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from tournaments.models import (
    CheckIn,
    CheckInMethod,
    RefereeCall,
    Registration,
    Round,
    RoundStatus,
    Table,
    Tournament,
)

SELF_METHODS = (CheckInMethod.CODE, CheckInMethod.LINK)


def open_check_in_round(tournament: Tournament) -> Round | None:
    """The round players check themselves in for: the draft round not yet seated (one at most:
    a round is prepared only when the previous one is published). None when there is none."""
    return (
        Round.objects.filter(tournament=tournament, status=RoundStatus.DRAFT, tables__isnull=True)
        .order_by("number")
        .first()
    )


def self_check_ins(*, round_: Round) -> list[CheckIn]:
    """The round's check-ins the players made themselves, the latest first, with names."""
    return list(
        CheckIn.objects.filter(round=round_, method__in=SELF_METHODS)
        .select_related("registration__player")
        .order_by("-checked_in_at", "-pk")
    )


def registration_by_check_in_token(*, slug: str, token: str) -> Registration | None:
    if not token or len(token) > 64:
        return None
    return (
        Registration.objects.select_related("player__club", "tournament")
        .filter(tournament__slug=slug, check_in_token=token)
        .first()
    )


def round_check_in(*, round_: Round, registration: Registration) -> CheckIn | None:
    return CheckIn.objects.filter(round=round_, registration=registration).first()


def open_calls() -> QuerySet[RefereeCall]:
    return (
        RefereeCall.objects.filter(answered_at__isnull=True)
        .select_related("table__round__tournament")
        .order_by("called_at", "pk")
    )


def round_referee_calls(*, round_: Round) -> list[RefereeCall]:
    """The round's open calls, the longest waiting first."""
    return list(open_calls().filter(table__round=round_))


def referee_calls_for(*, user: object, is_staff: bool) -> list[RefereeCall]:
    """The open calls of the rounds in play of the tournaments the account answers for (their
    organisers and chief referees; federation staff: every tournament)."""
    calls = open_calls().filter(
        table__round__status__in=(RoundStatus.PUBLISHED, RoundStatus.IN_PLAY)
    )
    if not is_staff:
        answered_for = Tournament.objects.filter(
            Q(organisers=user) | Q(chief_referees=user)
        ).values("pk")
        calls = calls.filter(table__round__tournament__in=answered_for)
    return list(calls)


def table_referee_call(*, table: Table) -> RefereeCall | None:
    """The table's open call, if it has one."""
    return RefereeCall.objects.filter(table=table, answered_at__isnull=True).first()
