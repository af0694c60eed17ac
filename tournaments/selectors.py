"""Reads for the tournaments app (HackSoft style: views call these, never the ORM directly)."""

from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Count, Max, Prefetch, Q, QuerySet

from engine.names import latvian_sort_key
from engine.seating import meeting_counts
from engine.standings import RoundResult, rank_standings
from tournaments.models import Club, Entry, Player, Round, RoundStatus, Seat, Table, Tournament


def seating_history(*, tournament: Tournament, before_round: int) -> list[list[list[str]]]:
    """The tables of the earlier rounds, as the engine's seating history (entry ids)."""
    seats = (
        Seat.objects.filter(
            table__round__tournament=tournament, table__round__number__lt=before_round
        )
        .order_by("table__round__number", "table__number", "position")
        .values_list("table__round__number", "table__number", "entry_id")
    )
    rounds: dict[int, dict[int, list[str]]] = {}
    for round_number, table_number, entry_id in seats:
        rounds.setdefault(round_number, {}).setdefault(table_number, []).append(str(entry_id))
    return [list(tables.values()) for _, tables in sorted(rounds.items())]


def round_seating(*, round_: Round) -> list[list[str]]:
    """A round's tables as lists of player names in seat order (for audit before/after)."""
    tables: dict[int, list[str]] = {}
    for table_number, name in (
        Seat.objects.filter(table__round=round_)
        .order_by("table__number", "position")
        .values_list("table__number", "entry__player__full_name")
    ):
        tables.setdefault(table_number, []).append(name)
    return list(tables.values())


def entry_scores(*, tournament: Tournament, before_round: int) -> dict[int, float]:
    """Each entry's standing before a round, for swiss seating: the better the rank in the
    standings of the confirmed results so far, the higher the score (entries without results
    stand at the bottom together)."""
    rows = (
        tournament.entries.filter(seat_results__round_number__lt=before_round)
        .values_list(
            "pk",
            "seat_results__round_number",
            "seat_results__game_points",
            "seat_results__place_points_twelfths",
        )
        .order_by()
    )
    results = [
        RoundResult(
            player=str(entry_id),
            round_number=round_number,
            game_points=game_points,
            place_points=Fraction(twelfths, 12),
        )
        for entry_id, round_number, game_points, twelfths in rows
    ]
    standings = rank_standings(results, order=tournament.standings_order.split(","))
    return {
        int(standing.player): float(len(standings) - standing.rank + 1) for standing in standings
    }


def tournament_list() -> QuerySet[Tournament]:
    return Tournament.objects.annotate(entry_count=Count("entries")).order_by("-starts_on", "name")


def round_list(*, tournament: Tournament) -> QuerySet[Round]:
    return tournament.rounds.annotate(
        table_count=Count("tables", distinct=True), check_in_count=Count("check_ins", distinct=True)
    ).order_by("number")


def last_round_number(*, tournament: Tournament) -> int:
    return tournament.rounds.aggregate(last=Max("number"))["last"] or 0


def next_round_number(*, tournament: Tournament) -> int:
    """The first round a player registered now can play: the next one not yet published."""
    started = tournament.rounds.exclude(status=RoundStatus.DRAFT).aggregate(last=Max("number"))
    return (started["last"] or 0) + 1


def entry_list(*, tournament: Tournament) -> list[Entry]:
    return sorted(
        tournament.entries.select_related("player__club"),
        key=lambda entry: latvian_sort_key(entry.player.full_name),
    )


def checked_in(*, round_: Round) -> list[int]:
    return list(round_.check_ins.values_list("entry_id", flat=True))


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
            queryset=Seat.objects.select_related("entry__player__club").order_by("position"),
        )
    ).order_by("number")
    return [TableView(table, list(table.seats.all()), table.flags) for table in tables]


def meeting_matrix(*, tournament: Tournament) -> dict[str, object]:
    """Who met whom: every pair that has sat at one table, with how often, most often first."""
    history = seating_history(tournament=tournament, before_round=10_000)
    counts = meeting_counts(history)
    entries = {str(entry.pk): entry for entry in tournament.entries.select_related("player__club")}
    pairs = sorted(
        (
            (
                count,
                *sorted(
                    (entries[a], entries[b]), key=lambda e: latvian_sort_key(e.player.full_name)
                ),
            )
            for pair, count in counts.items()
            for a, b in [sorted(pair)]
            if a in entries and b in entries
        ),
        key=lambda row: (-row[0], latvian_sort_key(row[1].player.full_name)),
    )
    repeated = [row for row in pairs if row[0] > 1]
    return {
        "pairs": pairs,
        "repeated_pairs": repeated,
        "rounds_seated": len(history),
    }


def player_list(*, query: str = "") -> QuerySet[Player]:
    players = Player.objects.select_related("club")
    if query:
        players = players.filter(
            Q(full_name__icontains=query)
            | Q(club__name__icontains=query)
            | Q(licence_number__icontains=query)
        )
    return players.order_by("full_name")


def club_list() -> list[Club]:
    clubs = Club.objects.annotate(player_count=Count("players"))
    return sorted(clubs, key=lambda club: latvian_sort_key(club.name))
