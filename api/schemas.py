"""The API's answers, declared once: ninja validates them, the OpenAPI schema and the
documentation page (api.docs) are read from them.

Place points are exact, as the engine's `places` writes them: "6", "5/2", "14/3" (text, so no
reader rounds a third)."""

from __future__ import annotations

import datetime
from typing import Any

from ninja import Schema
from pydantic import Field


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
    url: str


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
    standings_url: str


class Clock(Schema):
    timed: bool
    limit_minutes: int | None
    started_at: datetime.datetime | None
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
    deals_first: bool
    game_points: int | None = Field(description="null until the table is confirmed.")
    place_points: str | None = Field(description='Exact: "6", "5/2"; null until confirmed.')
    place: int | None


class RoundTable(Schema):
    number: int
    confirmed: bool
    time_called_after: int | None = Field(
        description="Confirmed short when time was up: the deals played."
    )
    seats: list[Seat]
    url: str | None = Field(description="The confirmed table's sheet; null while in play.")


class Round(Schema):
    tournament: str
    number: int
    status: str
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
    tournament: str
    round: int
    number: int
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
    place_points: str
    place: int
    provisional: bool


class Standing(Schema):
    position: int
    rank: int
    rank_label: str = Field(description='"2–3" when shared.')
    shared: bool
    player_id: int
    name: str
    club: str
    team: str
    place_points: str = Field(description='Exact: "17", "29/2".')
    game_points: int
    wins: int
    provisional: bool
    rounds: dict[str, RoundCell] = Field(description="By round number.")


class TeamStanding(Schema):
    rank: int
    rank_label: str
    team: str
    members: list[str]
    place_points: str
    game_points: int


class Standings(Paged):
    tournament: str
    round_numbers: list[int]
    only_round: int | None
    provisional: bool
    provisional_tables: int
    is_live: bool
    order: list[str] = Field(description="The tie-breaks, in order.")
    teams: list[TeamStanding]
    results: list[Standing]


# -- Players and clubs ---------------------------------------------------------------------------


class PlayerSummary(Schema):
    id: int
    name: str
    club: str
    url: str


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


class PlayerTournament(Schema):
    slug: str
    name: str
    starts_on: datetime.date
    team: str
    game_points: int
    place_points: str
    rounds: list[PlayerRound]


class Player(Schema):
    id: int
    name: str
    club: str
    tournaments: list[PlayerTournament]


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
    best_k: int


class RankingRow(Schema):
    position: int
    rank: int
    rank_label: str
    shared: bool
    player_id: int
    name: str
    club_id: int | None
    club: str
    points: int
    wins: int
    game_points: int
    counted: int
    events: int


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
    mu: float
    sigma: float
    ordinal: float
    tables: int


class Rating(Paged):
    results: list[RatingRow]
