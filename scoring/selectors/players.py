"""A player's public page: his tournaments, round by round."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from core.engine_text import display_name_key
from scoring.models import SeatResult, twelfths_fraction
from scoring.selectors.public_results import (
    PUBLIC_STATUSES,
    has_public_result,
    points_text,
    seat_place_text,
    tied_at_table,
)
from tournaments.models import Player, Registration, Seat, Tournament


@dataclass(frozen=True)
class PlayerRound:
    round_number: int
    table_number: int
    confirmed: bool
    game_points: int | None
    place_points: Fraction | None
    place: str | None  # "2–3" when shared
    cumulative_game_points: int | None  # over the confirmed rounds so far

    @property
    def place_points_text(self) -> str:
        return points_text(self.place_points)


@dataclass(frozen=True)
class PlayerTournament:
    tournament: Tournament
    team: str
    rounds: list[PlayerRound]

    @property
    def confirmed_rounds(self) -> list[PlayerRound]:
        return [round_ for round_ in self.rounds if round_.confirmed]

    @property
    def game_points(self) -> int:
        return sum(round_.game_points or 0 for round_ in self.confirmed_rounds)

    @property
    def place_points(self) -> Fraction:
        return sum((r.place_points or Fraction(0) for r in self.confirmed_rounds), Fraction(0))

    @property
    def place_points_text(self) -> str:
        return points_text(self.place_points)


def public_player(*, player_id: int) -> Player | None:
    """The player of a public page: None for an unknown id and for a player with no public
    result alike (has_public_result), so the page does not tell them apart."""
    return Player.objects.select_related("club").filter(has_public_result(), pk=player_id).first()


def public_players() -> list[Player]:
    """Every player with a public page (has_public_result), in the reader's alphabetical order
    (the database sorts by character code). One query."""
    players = Player.objects.select_related("club").filter(has_public_result())
    return sorted(players, key=lambda player: display_name_key(player.full_name))


def player_history(*, player: Player) -> list[PlayerTournament]:
    """The player's tournaments, newest first, each with his public rounds: his table, and his
    confirmed results with the running total of game points. Three queries."""
    entries = list(
        Registration.objects.filter(player=player)
        .select_related("tournament")
        .order_by("-tournament__starts_on", "tournament__name")
    )
    seats = (
        Seat.objects.filter(registration__player=player, table__round__status__in=PUBLIC_STATUSES)
        .values_list("registration_id", "table__round__number", "table__number")
        .order_by("table__round__number")
    )
    played = (
        SeatResult.objects.filter(registration__player=player)
        .annotate(tied=tied_at_table())
        .values_list(
            "registration_id",
            "round_number",
            "game_points",
            "place_points_twelfths",
            "place",
            "tied",
        )
        .order_by()
    )
    results = {
        (registration_id, round_number): (
            game_points,
            twelfths_fraction(twelfths),
            seat_place_text(place, tied),
        )
        for registration_id, round_number, game_points, twelfths, place, tied in played
    }
    rounds_by_registration: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for registration_id, round_number, table_number in seats:
        rounds_by_registration[registration_id].append((round_number, table_number))
    history = []
    for entry in entries:
        running = 0
        rounds = []
        for round_number, table_number in rounds_by_registration[entry.pk]:
            result = results.get((entry.pk, round_number))
            if result is None:
                rounds.append(
                    PlayerRound(round_number, table_number, False, None, None, None, None)
                )
                continue
            game_points, place_points, place = result
            running += game_points
            rounds.append(
                PlayerRound(
                    round_number, table_number, True, game_points, place_points, place, running
                )
            )
        history.append(
            PlayerTournament(tournament=entry.tournament, team=entry.team, rounds=rounds)
        )
    return history
