"""Reads of self check-in (the hall display's private link with it) and of the tables' calls
to the chief referee."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, TypedDict, cast

from django.db.models import Max, Q, QuerySet
from django.utils import timezone

from core.engine_text import display_name_key
from engine.names import search_key
from hall.models import DisplayLink, RefereeCall
from tournaments.models import (
    CheckIn,
    CheckInMethod,
    CheckOut,
    Registration,
    Round,
    RoundStatus,
    Table,
    Tournament,
)

if TYPE_CHECKING:  # the stubs' type of a model with attributes of its own
    from django_stubs_ext import WithAnnotations

SELF_METHODS = (CheckInMethod.CODE, CheckInMethod.LINK)


def open_check_in_round(tournament: Tournament) -> Round | None:
    """The round players check themselves in for: the draft round not yet seated (one at most:
    a round is prepared only when the previous one is published). None when there is none."""
    return (
        Round.objects.filter(tournament=tournament, status=RoundStatus.DRAFT, tables__isnull=True)
        .order_by("number")
        .first()
    )


def confirmed_check_ins(*, round_: Round) -> list[CheckIn]:
    """The round's check-ins made by the players themselves (by the code, by their own links)
    or by the organiser's tick, the latest first, with names: not those the round's
    preparation made for everyone."""
    return list(
        CheckIn.objects.filter(round=round_)
        .exclude(method=CheckInMethod.ROUND)
        .select_related("registration__player")
        .order_by("-checked_in_at", "-pk")
    )


def display_link(tournament: Tournament) -> DisplayLink | None:
    """The tournament's working private link of the hall display, if it has one."""
    return DisplayLink.objects.filter(tournament=tournament, revoked_at__isnull=True).first()


def display_link_by_token(*, slug: str, token: str) -> DisplayLink | None:
    """The private display link of the address, working or not (None: no such link)."""
    if not token or len(token) > 64:
        return None
    return (
        DisplayLink.objects.select_related("tournament")
        .filter(tournament__slug=slug, token=token)
        .first()
    )


def last_check_in_id(*, round_: Round) -> int:
    """The newest check-in of the round (0 for none): what the organiser's screen shows."""
    return round_.check_ins.aggregate(last=Max("pk"))["last"] or 0


def registration_by_check_in_token(*, slug: str, token: str) -> Registration | None:
    if not token or len(token) > 64:
        return None
    return (
        Registration.objects.select_related("player__club", "tournament")
        .filter(tournament__slug=slug, check_in_token=token)
        .first()
    )


def round_check_in(*, round_: Round, registration: Registration) -> tuple[CheckIn | None, bool]:
    """The player's check-in for the round, and whether the organiser unticked him for it."""
    return (
        CheckIn.objects.filter(round=round_, registration=registration).first(),
        CheckOut.objects.filter(round=round_, registration=registration).exists(),
    )


def plays_round(round_: Round) -> Q:
    """The registrations that play the round (registered for it, not withdrawn before it)."""
    return Q(first_round__lte=round_.number) & (
        Q(withdrawn_after_round__isnull=True) | Q(withdrawn_after_round__gte=round_.number)
    )


class CheckInState(TypedDict):
    """A player found for check-in: his check-in to the round (None: not yet) and whether he
    has checked out of it."""

    check_in: CheckIn | None
    checked_out: bool


def check_in_matches(
    *, tournament: Tournament, round_: Round, query: str, limit: int
) -> list[WithAnnotations[Registration, CheckInState]]:
    """The players of the round a search for `query` finds by name, read as every search reads
    a name (`engine.names.search_key`: "berzins" finds "Bērziņš"), in the reader's alphabetical
    order, at most `limit`; each with `check_in` (or None) and `checked_out`. Three queries."""
    needle = search_key(query)
    if not needle:
        return []
    registrations = sorted(
        (
            registration
            for registration in tournament.registrations.filter(plays_round(round_)).select_related(
                "player__club"
            )
            if needle in search_key(registration.player.full_name)
        ),
        key=lambda registration: display_name_key(registration.player.full_name),
    )[:limit]
    check_ins = {
        check_in.registration_id: check_in
        for check_in in CheckIn.objects.filter(round=round_, registration__in=registrations)
    }
    checked_out = set(
        CheckOut.objects.filter(round=round_, registration__in=registrations).values_list(
            "registration_id", flat=True
        )
    )
    # The state is set on the registrations here: only the stubs' annotated type can say so.
    found = cast("list[WithAnnotations[Registration, CheckInState]]", registrations)
    for registration in found:
        registration.check_in = check_ins.get(registration.pk)
        registration.checked_out = registration.pk in checked_out
    return found


def open_calls() -> QuerySet[RefereeCall]:
    return (
        RefereeCall.objects.filter(answered_at__isnull=True)
        .select_related("table__round__tournament")
        .order_by("called_at", "pk")
    )


class Waiting(TypedDict):
    """A referee call as the lists show it: whole minutes since it was made."""

    waiting_minutes: int


def with_waiting(calls: Iterable[RefereeCall]) -> list[WithAnnotations[RefereeCall, Waiting]]:
    """The calls, each with `waiting_minutes`: whole minutes since it was made."""
    now = timezone.now()
    # The minutes are set on the calls here: only the stubs' annotated type can say so.
    listed = cast("list[WithAnnotations[RefereeCall, Waiting]]", list(calls))
    for call in listed:
        call.waiting_minutes = max(0, int((now - call.called_at).total_seconds() // 60))
    return listed


def round_referee_calls(*, round_: Round) -> list[WithAnnotations[RefereeCall, Waiting]]:
    """The round's open calls, the longest waiting first."""
    return with_waiting(open_calls().filter(table__round=round_))


def referee_calls_for(
    *, user: object, is_staff: bool
) -> list[WithAnnotations[RefereeCall, Waiting]]:
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
    return with_waiting(calls)


def table_referee_call(*, table: Table) -> RefereeCall | None:
    """The table's open call, if it has one (with `waiting_minutes`)."""
    calls = with_waiting(RefereeCall.objects.filter(table=table, answered_at__isnull=True))
    return calls[0] if calls else None
