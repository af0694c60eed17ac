"""Tournaments, rounds, registrations, check-in, a round's tables, who met whom, players and
clubs."""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict, cast

from django.core.validators import slug_re
from django.db.models import Count, Max, Prefetch, QuerySet
from django.db.models.functions import Coalesce

from core.engine_text import display_name_key
from engine.names import NameKey, search_key
from engine.rules import deals_per_round_fits
from engine.seating import meeting_counts
from tournaments.models import (
    Club,
    Player,
    Registration,
    Round,
    RoundStatus,
    Seat,
    Table,
    Tournament,
)
from tournaments.namesakes import club_key
from tournaments.rule_set import round_rule_set
from tournaments.selectors.seating import seating_history

if TYPE_CHECKING:  # the stubs' type of a model with attributes of its own
    from django_stubs_ext import WithAnnotations


def tournament_id_of(slug: str) -> int | None:
    """The id of the tournament at `slug` (None: no such tournament), read alone: what a
    cached page needs to find its answer, with no row to build."""
    return Tournament.objects.filter(slug=slug).values_list("pk", flat=True).first()


def tournament_list() -> QuerySet[Tournament]:
    return Tournament.objects.annotate(registration_count=Count("registrations")).order_by(
        "-starts_on", "name"
    )


def round_list(*, tournament: Tournament) -> QuerySet[Round]:
    return tournament.rounds.annotate(
        table_count=Count("tables", distinct=True), check_in_count=Count("check_ins", distinct=True)
    ).order_by("number")


def last_round_number(*, tournament: Tournament) -> int:
    return tournament.rounds.aggregate(last=Max("number"))["last"] or 0


def playing_round(*, tournament: Tournament) -> Round | None:
    """The round being played (published or in play), which fixes the rule set; None between
    rounds."""
    return (
        tournament.rounds.filter(status__in=(RoundStatus.PUBLISHED, RoundStatus.IN_PLAY))
        .order_by("number")
        .first()
    )


def next_round_number(*, tournament: Tournament) -> int:
    """The first round a player registered now can play: the next one not yet published."""
    started = tournament.rounds.exclude(status=RoundStatus.DRAFT).aggregate(last=Max("number"))
    return (started["last"] or 0) + 1


def round_to_join(*, tournament: Tournament) -> int | None:
    """The round a player entered now would play first; None when every planned round is
    published already (the tournament has no round left to join)."""
    number = next_round_number(tournament=tournament)
    return number if number <= tournament.rounds_planned else None


def registration_list(*, tournament: Tournament) -> list[Registration]:
    return sorted(
        tournament.registrations.select_related("player__club"),
        key=lambda registration: display_name_key(registration.player.full_name),
    )


def checked_in(*, round_: Round) -> list[int]:
    return list(round_.check_ins.values_list("registration_id", flat=True))


class AttendanceNames(TypedDict, total=False):
    """An attendance difference in the audit log, if there is one: the players by name."""

    present_not_seated: list[str]
    seated_not_present: list[str]


@dataclass(frozen=True)
class AttendanceDifference:
    """Where a round's seating and its check-in disagree, each list in the reader's order."""

    present_not_seated: list[Registration]
    seated_not_present: list[Registration]

    def __bool__(self) -> bool:
        return bool(self.present_not_seated or self.seated_not_present)

    def names(self) -> AttendanceNames:
        """The players by name (for the audit log)."""
        return {
            "present_not_seated": [
                registration.player.full_name for registration in self.present_not_seated
            ],
            "seated_not_present": [
                registration.player.full_name for registration in self.seated_not_present
            ],
        }


def attendance_difference(
    *, round_: Round, present: Iterable[int] | None = None, seated: Iterable[int] | None = None
) -> AttendanceDifference:
    """Who is checked in (or `present`: the registration ids ticked on screen) but not seated,
    and who is seated (`seated`: the registration ids, when the caller has them) but not checked
    in. Nothing differs before the round is seated. A query for each set not given, one more
    when they differ."""
    if seated is None:
        seated = Seat.objects.filter(table__round=round_).values_list("registration_id", flat=True)
    seated = set(seated)
    if not seated:
        return AttendanceDifference([], [])
    present = set(checked_in(round_=round_) if present is None else present)
    if present == seated:
        return AttendanceDifference([], [])
    differing = list(
        Registration.objects.filter(
            tournament_id=round_.tournament_id, pk__in=seated ^ present
        ).select_related("player")
    )

    def by_name(registrations: Iterable[Registration]) -> list[Registration]:
        return sorted(
            registrations, key=lambda registration: display_name_key(registration.player.full_name)
        )

    return AttendanceDifference(
        present_not_seated=by_name(
            registration for registration in differing if registration.pk in present
        ),
        seated_not_present=by_name(
            registration for registration in differing if registration.pk in seated
        ),
    )


@dataclass(frozen=True)
class TableView:
    table: Table
    seats: list[Seat]
    flags: list[dict[str, str]]

    @property
    def warning_flags(self) -> list[dict[str, str]]:
        return [flag for flag in self.flags if flag["code"] in WARNING_FLAGS]


# The flags that make a table worth a second look (the others only explain why it is so).
WARNING_FLAGS = frozenset({"repeat_meeting", "same_club"})


def round_tables(*, round_: Round) -> list[TableView]:
    """The round's tables with their seats in order and their flags, in two queries."""
    tables = round_.tables.prefetch_related(
        Prefetch(
            "seats",
            queryset=Seat.objects.select_related("registration__player__club").order_by("position"),
        )
    ).order_by("number")
    return [TableView(table, list(table.seats.all()), table.flags) for table in tables]


@dataclass(frozen=True)
class UnevenDealing:
    """Tables of `size` play `deals`, not a multiple of their size: some players deal once more."""

    size: int
    deals: int
    tables: int  # how many tables of that size the round has


def uneven_dealing(*, round_: Round, tables: Iterable[TableView]) -> list[UnevenDealing]:
    """Each table size the round seats whose deal count is not a multiple of the size."""
    rule_set = round_rule_set(round_)
    sizes = Counter(len(view.seats) for view in tables if view.seats)
    return [
        UnevenDealing(size=size, deals=rule_set.deals_at(size), tables=count)
        for size, count in sorted(sizes.items())
        if not deals_per_round_fits(rule_set.deals_at(size), (size,))
    ]


def meeting_matrix(*, tournament: Tournament) -> dict[str, object]:
    """Who met whom: every pair that has sat at one table, with how often, most often first."""
    history = seating_history(tournament=tournament, before_round=10_000)
    counts = meeting_counts(history)
    registrations = {
        str(registration.pk): registration
        for registration in tournament.registrations.select_related("player__club")
    }

    def pair_by_name(a: str, b: str) -> tuple[Registration, Registration]:
        first, second = sorted(
            (registrations[a], registrations[b]),
            key=lambda e: display_name_key(e.player.full_name),
        )
        return first, second

    pairs = sorted(
        (
            (count, *pair_by_name(a, b))
            for pair, count in counts.items()
            for a, b in [sorted(pair)]
            if a in registrations and b in registrations
        ),
        key=lambda row: (-row[0], display_name_key(row[1].player.full_name)),
    )
    repeated = [row for row in pairs if row[0] > 1]
    return {
        "pairs": pairs,
        "repeated_pairs": repeated,
        "rounds_seated": len(history),
    }


def players_found(players: Iterable[Player], query: str) -> list[Player]:
    """The players a search for `query` finds by name, club or licence, read as every search
    reads a name (`engine.names.search_key`: "berzins" finds "Bērziņš"). The players' clubs are
    read: select them with the players."""
    needle = search_key(query)
    return [
        player
        for player in players
        if needle
        and needle
        in search_key(
            " ".join(
                (player.full_name, player.club.name if player.club else "", player.licence_number)
            )
        )
    ]


class PlayerSortKeys(TypedDict):
    """A player of the register as its table sorts him: by name, or by club then name."""

    name_key: NameKey
    club_key: tuple[NameKey, NameKey]


def player_list(*, query: str = "") -> list[WithAnnotations[Player, PlayerSortKeys]]:
    """The register (or the players a search for `query` finds: `players_found`) in the
    reader's alphabetical order, each with `name_key` and `club_key` for sorting the table by
    name or club: the database's collation sorts by character code (Juris before Jānis)."""
    listed = list(Player.objects.select_related("club"))
    if query:
        listed = players_found(listed, query)
    # The keys are set on the players here: only the stubs' annotated type can say so.
    keyed = cast("list[WithAnnotations[Player, PlayerSortKeys]]", listed)
    for player in keyed:
        player.name_key = display_name_key(player.full_name)
        # No club sorts first; within a club, by name.
        player.club_key = (
            display_name_key(player.club.name if player.club else ""),
            player.name_key,
        )
    return sorted(keyed, key=lambda player: player.name_key)


def club_list() -> list[Club]:
    clubs = Club.objects.annotate(player_count=Count("players"))
    return sorted(clubs, key=lambda club: display_name_key(club.name))


def club_named(name: str) -> Club | None:
    """The register's club whose name reads as `name` (`namesakes.club_key`: no case, no marks,
    nothing invisible, a look-alike letter as the Latin one), the oldest one; None: no club."""
    wanted = club_key(name)
    return next(
        (club for club in Club.objects.order_by("pk") if club_key(club.name) == wanted), None
    )


def unregistered_players(*, tournament: Tournament, pks: Iterable[int]) -> list[Player]:
    """The active players among `pks` who are not yet registrations of the tournament."""
    return list(
        Player.objects.filter(pk__in=list(pks), is_active=True).exclude(
            registrations__tournament=tournament
        )
    )


def tournament_named(slug: str) -> Tournament | None:
    """The tournament of a slug from a query string, or None (a text no slug can be, a NUL
    included, is not looked up)."""
    if not slug_re.fullmatch(slug):
        return None
    return Tournament.objects.filter(slug=slug).first()


def coming_tournaments_for(
    *, pks: Iterable[int], today: datetime.date, limit: int = 5
) -> list[tuple[Tournament, int]]:
    """The tournaments not yet over (the soonest first) in which some of the players `pks` are
    not yet registered, each with how many of them are not."""
    pks = list(pks)
    if not pks:
        return []
    coming = Tournament.objects.annotate(last_day=Coalesce("ends_on", "starts_on")).filter(
        last_day__gte=today
    )
    found: list[tuple[Tournament, int]] = []
    for tournament in coming.order_by("starts_on", "name"):
        missing = len(unregistered_players(tournament=tournament, pks=pks))
        if missing:
            found.append((tournament, missing))
            if len(found) == limit:
                break
    return found
