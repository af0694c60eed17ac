"""The API's answers, declared once: ninja validates them, the OpenAPI schema and the
documentation page (api.docs) are read from them.

Place points are exact, as the engine's `places` writes them: "6", "5/2", "14/3" (text, so no
reader rounds a third)."""

from __future__ import annotations

import datetime
from typing import Any

from ninja import Schema as NinjaSchema
from pydantic import ConfigDict, Field, create_model

from engine.statistics import TALLY_FIELDS


class Schema(NinjaSchema):
    """An answer's shape, exactly: a field it does not declare is an error (the tests validate
    every answer against its schema), and the OpenAPI schema says so (additionalProperties)."""

    model_config = ConfigDict(extra="forbid")


class Error(Schema):
    detail: str = Field(description="What is wrong, in words.")
    field: str | None = Field(None, description="The parameter it is about, if one.")


class Paged(Schema):
    count: int = Field(description="Items in all pages.")
    next: str | None = Field(description="The next page's address; null on the last.")
    previous: str | None = Field(description="The previous page's address; null on the first.")


# -- Tournaments ---------------------------------------------------------------------------------


class TournamentSummary(Schema):
    slug: str = Field(description="The tournament's address: /api/v1/tournaments/{slug}.")
    name: str
    venue: str
    starts_on: datetime.date
    ends_on: datetime.date | None
    level: str = Field(description="club, district or national.")
    status: str = Field(description="upcoming, in_progress or finished.")
    rounds_planned: int
    rounds_published: int = Field(
        description="Rounds the public sees (published, in play, closed)."
    )
    registrations: int
    url: str


class TournamentPage(Paged):
    results: list[TournamentSummary]


class RuleSet(Schema):
    rules: dict[str, Any] = Field(
        description="The engine's rules, as a sheet's \"rules\" for `python -m engine score`."
    )
    place_points: dict[str, list[int]] = Field(
        description='Place points by table size ("3", "4"), first place first.'
    )
    shared_place_points: dict[str, dict[str, int]] = Field(
        description='Fixed points for shared places by table size, e.g. {"4": {"1-4": 2}}.'
    )
    deals_per_round: int
    deals_at_three: int | None = Field(description="Deals at a table of 3, if not the above.")
    deals_at_four: int | None = Field(description="Deals at a table of 4, if not the above.")
    table_size: int = Field(description="3 or 4: the tables the seating builds.")
    round_time_limit: int | None = Field(description="Minutes; null: rounds are not timed.")
    standings_order: list[str] = Field(description="The standings' tie-breaks, in order.")


class RoundSummary(Schema):
    number: int
    status: str = Field(description="published, in_play or closed.")
    tables: int
    confirmed_tables: int
    url: str = Field(description="The round's address: its clock and seating.")


class Tournament(Schema):
    slug: str
    name: str
    venue: str
    starts_on: datetime.date
    ends_on: datetime.date | None
    level: str
    status: str
    rounds_planned: int
    registrations: int
    rule_set: RuleSet
    rounds: list[RoundSummary] = Field(description="The rounds the public sees.")
    standings_url: str = Field(description="The tournament's standings.")


class Clock(Schema):
    timed: bool = Field(description="The round is played against a clock.")
    limit_minutes: int | None
    started_at: datetime.datetime | None = Field(description="When the clock was started.")
    deadline: datetime.datetime | None = Field(description="When the limit runs out.")
    time_called_at: datetime.datetime | None = Field(
        description="When the chief referee called time, if he did."
    )
    ended_at: datetime.datetime | None = Field(description="When time was up, if it is.")


class Seat(Schema):
    seat: int = Field(description="1-based, in seat order.")
    player_id: int
    name: str
    club: str
    deals_first: bool = Field(description="This player deals the first deal.")
    game_points: int | None = Field(description="null until the table is confirmed.")
    place_points: str | None = Field(description='Exact: "6", "5/2"; null until confirmed.')
    place: int | None = Field(description="1 + how many at the table did better.")


class RoundTable(Schema):
    number: int
    confirmed: bool
    time_called_after: int | None = Field(
        description="Confirmed short when time was up: the deals played."
    )
    seats: list[Seat]
    url: str | None = Field(description="The confirmed table's sheet; null while in play.")


class Round(Schema):
    tournament: str = Field(description="The tournament's slug.")
    number: int
    status: str = Field(description="published, in_play or closed.")
    clock: Clock
    rule_set: RuleSet = Field(description="The rules this round is played with.")
    tables: list[RoundTable]


class SheetPlayer(Schema):
    seat: int
    player_id: int
    name: str = Field(description="As the sheet names the player (namesakes told apart).")


class TablePlace(Schema):
    name: str
    game_points: int
    place: int
    place_points: str = Field(description='Exact: "6", "5/2".')


class Table(Schema):
    tournament: str = Field(description="The tournament's slug.")
    round: int = Field(description="The round's number.")
    number: int = Field(description="The table's number in its round.")
    time_called: bool = Field(description="Confirmed with fewer deals: the round's time was up.")
    players: list[SheetPlayer]
    sheet: dict[str, Any] = Field(
        description="The sheet in the engine's JSON: the input of `python -m engine score`."
    )
    scored: dict[str, Any] = Field(
        description="What `python -m engine score` answers for the sheet."
    )
    results: list[TablePlace] = Field(description="The confirmed results, seat by seat.")


class RoundCell(Schema):
    game_points: int
    place_points: str = Field(description='Exact: "6", "5/2".')
    place: int = Field(description="1 + how many at the table did better.")
    provisional: bool = Field(description="From a table still in play (?provisional=true).")


class Standing(Schema):
    position: int = Field(description="1-based, in the standings' order.")
    rank: int = Field(description="Shared by equal players.")
    rank_label: str = Field(description='"2–3" when shared.')
    shared: bool
    player_id: int
    name: str
    club: str
    team: str
    place_points: str = Field(description='Exact: "17", "29/2".')
    game_points: int
    wins: int = Field(description="Rounds in which nobody at his table did better.")
    provisional: bool = Field(description="Counts a table still in play.")
    rounds: dict[str, RoundCell] = Field(description="By round number.")


class TeamStanding(Schema):
    rank: int
    rank_label: str
    team: str
    members: list[str]
    place_points: str
    game_points: int


class Standings(Paged):
    tournament: str = Field(description="The tournament's slug.")
    round_numbers: list[int] = Field(description="The rounds counted.")
    only_round: int | None = Field(description="One round's standings alone (?round=).")
    provisional: bool = Field(description="Tables in play counted (?provisional=true).")
    provisional_tables: int = Field(description="Tables in play counted.")
    is_live: bool = Field(description="A round is being played: the standings may change.")
    order: list[str] = Field(description="The tie-breaks, in order.")
    teams: list[TeamStanding]
    results: list[Standing]


# -- Players and clubs ---------------------------------------------------------------------------


class PlayerSummary(Schema):
    id: int
    name: str
    club: str
    url: str = Field(description="The player's address: his public history.")


class PlayerPage(Paged):
    results: list[PlayerSummary]


class PlayerRound(Schema):
    round: int
    table: int
    confirmed: bool
    game_points: int | None
    place_points: str | None
    place: str | None = Field(description='"2–3" when shared.')
    cumulative_game_points: int | None


class RatingFigures(Schema):
    mu: float = Field(description="The skill estimate.")
    sigma: float = Field(description="Its uncertainty.")
    ordinal: float = Field(description="The rating listed: mu − 3·sigma.")


class RatingChange(Schema):
    tables: int = Field(description="His tables of the tournament that were rated.")
    rating_before: RatingFigures = Field(description="Before his first table there.")
    rating_after: RatingFigures = Field(description="After his last table there.")
    expected_place: float = Field(
        description="The place the ratings before each table expected of him there (1 is the "
        "best), as the rating model computes it; the mean over his tables."
    )
    actual_place: float = Field(
        description="The place he took, tied players sharing the mean of their places (two "
        "tied for second: 2.5 each); the mean over his tables. Below expected_place: better "
        "than expected, which raises mu."
    )


class PlayerTournament(Schema):
    slug: str
    name: str
    starts_on: datetime.date
    team: str
    game_points: int
    place_points: str
    rating_change: RatingChange | None = Field(
        description="How the tournament moved his rating; null before a table of it is rated."
    )
    rounds: list[PlayerRound]


class Player(Schema):
    id: int
    name: str
    club: str
    tournaments: list[PlayerTournament]


# A seat tally's counts (engine.statistics.SeatTally), field for field.
StatisticsCounts = create_model(
    "StatisticsCounts",
    __base__=Schema,
    **{name: (int, Field(ge=0)) for name in TALLY_FIELDS},  # type: ignore[call-overload]
)


class StatisticsTotals(Schema):
    players: int = Field(description="Players summed: 1 for his own, the field's number.")
    tournaments: int
    rounds: int = Field(description="Rounds at a confirmed table.")
    game_points: int
    places: list[int] = Field(description="How many times 1st, 2nd, 3rd and 4th at the table.")
    counts: StatisticsCounts = Field(  # type: ignore[valid-type]
        description="Every count of the confirmed deals: each declared game by its band "
        "(lielais_win: won with 61-90 …), the deals defended and won, passed by all, and the "
        "pules written, collected and paid."
    )
    lielais_won_share: float | None = Field(description="Won of played, 0-1; null: none.")
    zole_won_share: float | None
    maza_zole_won_share: float | None
    defender_won_share: float | None
    game_points_per_deal: float | None


class StatisticsFinish(Schema):
    tournament: str = Field(description="The tournament's slug.")
    name: str
    place: int


class StatisticsSeason(Schema):
    id: int
    name: str
    points: int = Field(description="His season ranking points (his best K results).")
    rank: int | None


class PlayerStatistics(Schema):
    id: int
    name: str
    season: int | None = Field(description="The season chosen; null: his career or a tournament.")
    tournament: str | None = Field(description="The tournament chosen (its slug), if one.")
    his: StatisticsTotals
    field: StatisticsTotals = Field(description="Every player's sums in the same tournaments.")
    best_finishes: list[StatisticsFinish]
    season_ranking: StatisticsSeason | None


class Club(Schema):
    id: int
    name: str
    city: str


class ClubPage(Paged):
    results: list[Club]


# -- Ranking -------------------------------------------------------------------------------------


class Season(Schema):
    id: int
    name: str
    starts_on: datetime.date
    ends_on: datetime.date
    best_k: int = Field(description="A player's best results counted in the ranking.")


class RankingRow(Schema):
    position: int = Field(description="1-based, in the ranking's order.")
    rank: int = Field(description="In the whole ranking, also when one club is listed.")
    rank_label: str
    shared: bool
    player_id: int
    name: str
    club_id: int | None
    club: str
    points: int = Field(description="Ranking points of the results counted.")
    wins: int
    game_points: int
    counted: int = Field(description="Results counted (the season's best).")
    events: int = Field(description="Tournaments played in the season.")


class SeasonRanking(Paged):
    season: Season | None
    tournaments: int
    results: list[RankingRow]


class RatingRow(Schema):
    position: int
    rank: int
    player_id: int
    name: str
    club: str
    mu: float = Field(description="The skill estimate.")
    sigma: float = Field(description="Its uncertainty.")
    ordinal: float = Field(description="The rating listed: mu − 3·sigma.")
    tables: int = Field(description="Tables rated.")


class Rating(Paged):
    results: list[RatingRow]
