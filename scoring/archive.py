"""The tournament archive: one JSON document with everything needed to check the results.

Each table's sheet is in the engine's sheet format (DESIGN.md, "Contracts of the engine command
line") with the players' names, so anyone can re-score it with `python -m engine score` and get
the confirmed totals written beside it. A read (a selector): it writes nothing, and its number
of queries does not grow with the tournament.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from fractions import Fraction
from typing import Any

from engine.contract import rules_to_json, sheet_to_json
from engine.names import latvian_sort_key
from scoring.models import TWELFTHS, DealResult, SeatResult, TableResult
from scoring.sheets import table_sheet, tournament_rules
from tournaments.models import Entry, Seat, Table, Tournament

ARCHIVE_FORMAT = "zole-tournament-archive"
ARCHIVE_VERSION = 1
# Not settings: the row's id and creation time. (The chief referees are user accounts, a
# many-to-many relation, and are not exported.)
NOT_SETTINGS = frozenset({"id", "created_at"})


def sheet_names(seats: list[Seat], entries: dict[int, Entry]) -> dict[str, str]:
    """The players' names at one table, by entry id (as text). Namesakes at one table are told
    apart by their licence numbers, or by their entry ids when they have none."""
    names = {str(seat.entry_id): entries[seat.entry_id].player.full_name for seat in seats}
    repeated = {name for name, count in Counter(names.values()).items() if count > 1}
    for seat in seats:
        player = entries[seat.entry_id].player
        if player.full_name in repeated:
            label = player.licence_number or f"#{seat.entry_id}"
            names[str(seat.entry_id)] = f"{player.full_name} ({label})"
    return names


def _value(value: object) -> object:
    return value.isoformat() if hasattr(value, "isoformat") else value


def _place_points(twelfths: int) -> str:
    return str(Fraction(twelfths, TWELFTHS))  # exact: "4", "14/3"


def tournament_archive(tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as plain JSON data, in seven queries whatever its size."""
    entries = {
        entry.pk: entry
        for entry in tournament.entries.select_related("player__club").order_by("pk")
    }
    rounds = list(tournament.rounds.order_by("number"))
    tables = list(
        Table.objects.filter(round__tournament=tournament).order_by("round__number", "number")
    )
    seats_of: dict[int, list[Seat]] = defaultdict(list)
    for seat in Seat.objects.filter(table__round__tournament=tournament).order_by(
        "table_id", "position"
    ):
        seats_of[seat.table_id].append(seat)
    results_of: dict[int, list[DealResult]] = defaultdict(list)
    for result in DealResult.objects.filter(table__round__tournament=tournament).order_by(
        "table_id", "position", "version"
    ):
        results_of[result.table_id].append(result)
    confirmed_at = dict(
        TableResult.objects.filter(table__round__tournament=tournament).values_list(
            "table_id", "confirmed_at"
        )
    )
    seat_results_of: dict[int, dict[int, tuple[int, int, int]]] = defaultdict(dict)
    for table_id, entry_id, game_points, twelfths, place in SeatResult.objects.filter(
        table_result__table__round__tournament=tournament
    ).values_list(
        "table_result__table_id", "entry_id", "game_points", "place_points_twelfths", "place"
    ):
        seat_results_of[table_id][entry_id] = (game_points, twelfths, place)

    rules = tournament_rules(tournament)
    tables_of: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for table in tables:
        seats = seats_of[table.pk]
        names = sheet_names(seats, entries)
        confirmed = table.pk in confirmed_at
        sheet = table_sheet(
            table, seats=seats, results=results_of[table.pk], rules=rules, closed=confirmed
        )
        seat_results = seat_results_of.get(table.pk, {})
        tables_of[table.round_id].append(
            {
                "number": table.number,
                "players": [
                    {"entry": seat.entry_id, "name": names[str(seat.entry_id)]} for seat in seats
                ],
                "first_dealer": names[sheet.first_dealer or sheet.players[0]],
                "confirmed": confirmed,
                "confirmed_at": _value(confirmed_at[table.pk]) if confirmed else None,
                "sheet": sheet_to_json(sheet, names),
                # The confirmed totals, by the sheet's names: what re-scoring the sheet gives.
                "totals": {
                    names[str(seat.entry_id)]: seat_results[seat.entry_id][0] for seat in seats
                }
                if confirmed
                else None,
                "results": [
                    {
                        "entry": seat.entry_id,
                        "game_points": seat_results[seat.entry_id][0],
                        "place_points": _place_points(seat_results[seat.entry_id][1]),
                        "place": seat_results[seat.entry_id][2],
                    }
                    for seat in seats
                ]
                if confirmed
                else None,
            }
        )

    clubs = {
        entry.player.club.pk: entry.player.club
        for entry in entries.values()
        if entry.player.club is not None
    }
    players = {entry.player.pk: entry.player for entry in entries.values()}
    return {
        "format": ARCHIVE_FORMAT,
        "version": ARCHIVE_VERSION,
        "tournament": {
            field.name: _value(getattr(tournament, field.attname))
            for field in tournament._meta.concrete_fields
            if field.name not in NOT_SETTINGS
        },
        "rules": rules_to_json(rules),
        "clubs": [
            {"id": club.pk, "name": club.name, "city": club.city}
            for club in sorted(clubs.values(), key=lambda club: latvian_sort_key(club.name))
        ],
        "players": [
            {
                "id": player.pk,
                "name": player.full_name,
                "club": player.club.name if player.club else None,
                "licence": player.licence_number or None,
            }
            for player in sorted(players.values(), key=lambda player: player.pk)
        ],
        "entries": [
            {
                "id": entry.pk,
                "player": entry.player_id,
                "name": entry.player.full_name,
                "team": entry.team,
                "first_round": entry.first_round,
                "withdrawn_after_round": entry.withdrawn_after_round,
                "fixed_table": entry.fixed_table,
            }
            for entry in entries.values()
        ],
        "rounds": [
            {
                "number": round_.number,
                "status": round_.status,
                "seating_mode": round_.seating_mode,
                "seed": round_.seed,
                "tables": tables_of[round_.pk],
            }
            for round_ in rounds
        ],
    }
