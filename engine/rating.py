"""Players' skill rating: Weng-Lin's Bayesian rating with the Plackett-Luce model (`openskill`).

Rules:
- Every player starts at mu 25 with an uncertainty sigma of 25/3. Each confirmed table updates
  the ratings of the players at it from their finishing order there: place 1 is the best result
  at the table, tied players share a place and are rated as a tie. The Plackett-Luce model rates
  a table of 3 or of 4 (any number of players) as one finishing order, not as pairs.
- A rating is shown as mu ± sigma and ranked by its conservative *ordinal* mu − 3·sigma: a player
  who has played little has a wide sigma and so a low ordinal, however well he started.
- A change is explained by the places expected: before a table the model gives each player an
  expected place there from the ratings of the players at it (`expected_places`). Finishing
  above it raises mu as a rule, below it lowers mu, and every table played narrows sigma; but
  the update weighs whom a player finished ahead of and behind, so third of four, below the
  place expected yet ahead of a much stronger player, can still raise mu.
- Ratings depend on the order of the tables, so tables are always rated in one stable order:
  the tournament's date, the tournament, the round, the table (`TableOutcome.order`). The same
  tables give the same ratings, whatever order they were confirmed or stored in.

The one outside package the engine uses: `openskill` is pure computation (no I/O), and this
module is the only place that calls it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from engine.errors import SheetError, shown

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0
ORDINAL_SIGMAS = 3.0

_MODEL = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def ordinal(self) -> float:
        """The conservative rating, mu − 3·sigma: what the rating list ranks by."""
        return self.mu - ORDINAL_SIGMAS * self.sigma


NEW_PLAYER = Rating()


@dataclass(frozen=True, slots=True)
class TableOutcome:
    """One confirmed table: where it comes in the order of play, and each player's place."""

    order: tuple[str | int, ...]  # e.g. (date, tournament, round, table number)
    table: str  # the table's key
    places: tuple[tuple[str, int], ...]  # (player, place); place 1 is the best, ties share


@dataclass(frozen=True, slots=True)
class RatingChange:
    player: str
    table: str
    place: int
    before: Rating
    after: Rating


def rate_table(ratings: Mapping[str, Rating], places: Mapping[str, int]) -> dict[str, Rating]:
    """The new ratings of the players at one table from their places there (1 is best, tied
    players share a place). A player missing from `ratings` starts as a new player."""
    if len(places) < 2:
        raise SheetError(f"a table to rate has 2 or more players, got {shown(list(places))}")
    for player, place in places.items():
        if isinstance(place, bool) or not isinstance(place, int) or place < 1:
            raise SheetError(f"{player}: a place is 1 or more, got {shown(place)}", field="place")

    # One order of the teams, decided by the values alone: tied players by their ratings, so
    # that new keys (an archive imported into another database) cannot reorder the floats'
    # sums. Players whose place and rating are all equal are interchangeable: their order
    # changes no result.
    def team_order(player: str) -> tuple[int, float, float, str]:
        rating = ratings.get(player, NEW_PLAYER)
        return (places[player], rating.mu, rating.sigma, player)

    players = sorted(places, key=team_order)
    teams = [
        [_MODEL.rating(mu=ratings.get(p, NEW_PLAYER).mu, sigma=ratings.get(p, NEW_PLAYER).sigma)]
        for p in players
    ]
    rated = _MODEL.rate(teams, ranks=[float(places[player]) for player in players])
    return {
        player: Rating(mu=float(team[0].mu), sigma=float(team[0].sigma))
        for player, team in zip(players, rated, strict=True)
    }


def table_order(outcome: TableOutcome) -> tuple[tuple[str | int, ...], str]:
    return (outcome.order, outcome.table)


def replay_ratings(
    tables: Iterable[TableOutcome],
    start: Mapping[str, Rating] | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
    every: int = 500,
) -> tuple[dict[str, Rating], list[RatingChange]]:
    """Rate the tables in their order of play, from the `start` ratings (new players otherwise):
    every player's final rating, and each player's change at each table, in that order.

    `progress(done, total)`, if given, is told every `every` tables how far the replay is."""
    ratings = dict(start or {})
    changes: list[RatingChange] = []
    ordered = sorted(tables, key=table_order)
    for index, outcome in enumerate(ordered):
        if progress is not None and index % every == 0:
            progress(index, len(ordered))
        places = dict(outcome.places)
        if len(places) != len(outcome.places):
            raise SheetError(f"table {outcome.table}: a player is listed twice", field="places")
        after = rate_table(ratings, places)
        for player in sorted(after, key=lambda p: (places[p], p)):
            changes.append(
                RatingChange(
                    player=player,
                    table=outcome.table,
                    place=places[player],
                    before=ratings.get(player, NEW_PLAYER),
                    after=after[player],
                )
            )
        ratings.update(after)
    return ratings, changes


def expected_places(ratings: Mapping[str, Rating]) -> dict[str, float]:
    """Each player's expected place at a table of players with these ratings (before the table:
    1 is the best), by the model the ratings are updated with.

    In Plackett-Luce a player finishes ahead of the others in proportion to his strength
    exp(mu / c), c being the table's spread sqrt(Σ (sigma² + beta²)); one player then finishes
    ahead of another with the probability of his strength over the pair's, whoever else sits at
    the table. So a player's expected place is 1 plus every other player's chance of finishing
    ahead of him, and the expected places add up to 1 + 2 + … + n, as the places taken do
    (`shared_places`)."""
    if len(ratings) < 2:
        raise SheetError(f"a table to rate has 2 or more players, got {shown(list(ratings))}")
    spread = math.sqrt(sum(r.sigma**2 + _MODEL.beta**2 for r in ratings.values()))

    def ahead(other: Rating, player: Rating) -> float:
        # exp(a/c) / (exp(a/c) + exp(b/c)), as a logistic of the difference: no overflow.
        return 1.0 / (1.0 + math.exp(max(-700.0, min(700.0, (player.mu - other.mu) / spread))))

    return {
        player: 1.0 + sum(ahead(other, rating) for name, other in ratings.items() if name != player)
        for player, rating in ratings.items()
    }


def shared_places(places: Mapping[str, int]) -> dict[str, float]:
    """Each player's place at a table counted as `expected_places` counts it: tied players take
    the mean of the places they share (two tied for second: 2.5 each), so that the places add
    up to 1 + 2 + … + n, however the tie was written (1, 2, 2 or 1, 2, 3 with a shared 2)."""
    ordered = sorted(places.values())
    return {
        player: sum(
            position
            for position, other in enumerate(ordered, start=1)
            if other == place  # the positions of everyone on the same place
        )
        / ordered.count(place)
        for player, place in places.items()
    }


@dataclass(frozen=True, slots=True)
class TablePlace:
    """A player's table: his rating before and after it, the place the ratings before it
    expected of him and the place he took (`shared_places`)."""

    before: Rating
    after: Rating
    expected: float
    actual: float


@dataclass(frozen=True, slots=True)
class RatingSpan:
    """A player's rating over a run of his tables (a tournament's): before the first, after the
    last, and his places there beside those expected, as means per table."""

    before: Rating
    after: Rating
    tables: int
    expected_place: float
    actual_place: float


def rating_span(tables: Sequence[TablePlace]) -> RatingSpan:
    """The span of a player's tables, given in their rating order."""
    if not tables:
        raise SheetError("a rating span has at least one table")
    return RatingSpan(
        before=tables[0].before,
        after=tables[-1].after,
        tables=len(tables),
        expected_place=sum(table.expected for table in tables) / len(tables),
        actual_place=sum(table.actual for table in tables) / len(tables),
    )
