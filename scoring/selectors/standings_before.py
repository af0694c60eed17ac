"""The standings before a round, from the confirmed results of the rounds before it: what
seating by standings (swiss, ranked) cuts into tables and what the round page shows beside a
seat seated by rank."""

from __future__ import annotations

from engine.standings import RoundResult, Standing, rank_standings, rank_texts
from scoring.models import SeatResult, twelfths_fraction
from tournaments.models import Tournament
from tournaments.rule_set import absent_rule, standings_order


def standings_before(*, tournament: Tournament, before_round: int) -> list[Standing]:
    """The standings of the confirmed results of the rounds before `before_round`, every
    registration in them, ranked as the standings pages rank them (the tournament's order and its
    rule for absent players); a standing's player is the registration's id as text."""
    rows = (
        SeatResult.objects.filter(
            registration__tournament=tournament, round_number__lt=before_round
        )
        .values_list("registration_id", "round_number", "game_points", "place_points_twelfths")
        .order_by()
    )
    results = [
        RoundResult(
            player=str(registration_id),
            round_number=round_number,
            game_points=game_points,
            place_points=twelfths_fraction(twelfths),
        )
        for registration_id, round_number, game_points, twelfths in rows
    ]
    names = {
        str(pk): name
        for pk, name in tournament.registrations.values_list("pk", "player__full_name").order_by()
    }
    return rank_standings(
        results,
        players=names.keys(),
        names=names,
        order=standings_order(tournament),
        absent=absent_rule(tournament),
    )


def rank_labels_before(*, tournament: Tournament, before_round: int) -> dict[int, str]:
    """Each registration's rank before a round as the standings show it ("7–8" when shared)."""
    standings = standings_before(tournament=tournament, before_round=before_round)
    labels = rank_texts(standing.rank for standing in standings)
    return {int(standing.player): labels[standing.rank] for standing in standings}
