"""What the notices read: who hears of a notice (the players it concerns and their phones),
the facts its message says (a seat, a table's result, a place), and what the organiser sees
(how many players receive messages, how the last notices went)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Count, Q, QuerySet

from notices.models import Delivery, DeliveryState, Notice, NoticeKind, PushSubscription
from scoring.models import SeatResult
from scoring.selectors import prize_list, tournament_standings
from tournaments.models import CheckIn, Registration, Seat, Tournament


@dataclass(frozen=True)
class Recipient:
    """A player the notice concerns, with his page's secret and his phones."""

    registration_id: int
    name: str
    check_in_token: str
    subscriptions: tuple[PushSubscription, ...]


def _recipients(registrations: QuerySet[Registration]) -> list[Recipient]:
    """The players among `registrations` who have a phone subscribed (two queries)."""
    by_registration: dict[int, list[PushSubscription]] = defaultdict(list)
    for subscription in PushSubscription.objects.filter(registration__in=registrations).order_by(
        "pk"
    ):
        by_registration[subscription.registration_id].append(subscription)
    if not by_registration:
        return []
    return [
        Recipient(pk, name, token, tuple(by_registration[pk]))
        for pk, name, token in Registration.objects.filter(pk__in=by_registration)
        .values_list("pk", "player__full_name", "check_in_token")
        .order_by("pk")
    ]


def notice_recipients(notice: Notice) -> list[Recipient]:
    """Who hears of the notice: the players of the round (its check-in, its seating), of the
    table, or of the whole tournament (an announcement, the final standings)."""
    registrations = Registration.objects.filter(tournament_id=notice.tournament_id)
    round_id, table_id = notice.round_id or 0, notice.table_id or 0
    if notice.kind == NoticeKind.CHECK_IN_OPENED:
        registrations = registrations.filter(
            pk__in=CheckIn.objects.filter(round_id=round_id).values("registration_id")
        )
    elif notice.kind in (
        NoticeKind.SEATING_PUBLISHED,
        NoticeKind.ROUND_STARTED,
        NoticeKind.TIME_CALLED,
        NoticeKind.ROUND_CLOSED,
    ):
        registrations = registrations.filter(
            pk__in=Seat.objects.filter(table__round_id=round_id).values("registration_id")
        )
    elif notice.kind == NoticeKind.TABLE_CONFIRMED:
        registrations = registrations.filter(
            pk__in=Seat.objects.filter(table_id=table_id).values("registration_id")
        )
    return _recipients(registrations)


@dataclass(frozen=True)
class SeatFacts:
    """A player's seat in a round: his table, his seat and who sits with him (by seat)."""

    table_number: int
    position: int
    others: tuple[str, ...]


def round_seats(*, round_id: int) -> dict[int, SeatFacts]:
    """Every seated player's seat in the round, by registration (one query)."""
    tables: dict[int, list[tuple[int, int, str]]] = defaultdict(list)
    numbers: dict[int, int] = {}
    for table_id, table_number, position, registration_id, name in (
        Seat.objects.filter(table__round_id=round_id)
        .values_list(
            "table_id",
            "table__number",
            "position",
            "registration_id",
            "registration__player__full_name",
        )
        .order_by("table__number", "position")
    ):
        tables[table_id].append((position, registration_id, name))
        numbers[table_id] = table_number
    seats = {}
    for table_id, seated in tables.items():
        for position, registration_id, _name in seated:
            seats[registration_id] = SeatFacts(
                table_number=numbers[table_id],
                position=position,
                others=tuple(name for _p, other, name in seated if other != registration_id),
            )
    return seats


@dataclass(frozen=True)
class TableLine:
    """A player's result at a confirmed table."""

    game_points: int
    place: int
    place_points: Fraction


def table_lines(*, table_id: int) -> dict[int, TableLine]:
    """The confirmed table's result of each of its players, by registration (one query)."""
    return {
        registration_id: TableLine(game_points, place, Fraction(twelfths, 12))
        for registration_id, game_points, place, twelfths in SeatResult.objects.filter(
            table_result__table_id=table_id
        )
        .values_list("registration_id", "game_points", "place", "place_points_twelfths")
        .order_by()
    }


@dataclass(frozen=True)
class Placing:
    """A player's place in the standings so far ("5" or "4–6") of how many."""

    rank_label: str
    of: int


def standings_places(*, tournament: Tournament) -> dict[int, Placing]:
    """Every player's place in the confirmed standings, by registration."""
    rows = tournament_standings(tournament=tournament).rows
    return {row.registration_id: Placing(row.rank_label, len(rows)) for row in rows}


def prizes_won(*, tournament: Tournament) -> dict[int, str]:
    """The final prize list's amounts in words, by the prized player's registration."""
    prizes = prize_list(tournament=tournament)
    if not prizes.finished:
        return {}
    return {row.registration_id: row.amount_text for row in prizes.rows if row.cents}


@dataclass(frozen=True)
class NoticeReach:
    """What the organiser sees of the messages: how many players receive them, and how the
    deliveries went."""

    players: int  # registrations with at least one phone subscribed
    phones: int
    registrations: int
    sent: int
    waiting: int
    failed: int


def notice_reach(*, tournament: Tournament) -> NoticeReach:
    subscriptions = PushSubscription.objects.filter(registration__tournament=tournament)
    counts = Delivery.objects.filter(notice__tournament=tournament).aggregate(
        sent=Count("pk", filter=Q(state=DeliveryState.SENT)),
        waiting=Count("pk", filter=Q(state=DeliveryState.PENDING)),
        failed=Count("pk", filter=Q(state__in=[DeliveryState.FAILED, DeliveryState.GONE])),
    )
    return NoticeReach(
        players=subscriptions.values("registration_id").distinct().count(),
        phones=subscriptions.count(),
        registrations=tournament.registrations.filter(withdrawn_after_round__isnull=True).count(),
        sent=counts["sent"],
        waiting=counts["waiting"],
        failed=counts["failed"],
    )


def recent_announcements(*, tournament: Tournament, limit: int = 10) -> list[Notice]:
    return list(
        Notice.objects.filter(tournament=tournament, kind=NoticeKind.ANNOUNCEMENT)
        .annotate(delivered=Count("deliveries", filter=Q(deliveries__state=DeliveryState.SENT)))
        .order_by("-created_at", "-pk")[:limit]
    )
