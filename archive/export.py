"""The archive written: `tournament_archive`, a read (a selector) whose number of queries does not
grow with the tournament."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db import models
from django.db.models import F, Value
from django.db.models.functions import Cast

from archive.format import (
    ARCHIVE_FORMAT,
    ARCHIVE_VERSION,
    NOT_SETTINGS,
    json_value,
    place_points_text,
    through_model,
    user_relations,
)
from engine.json_contract import rules_to_json, sheet_to_json
from engine.names import latvian_sort_key
from hall.models import RefereeCall
from scoring.models import DealResult, LatePlayer, TableResult
from scoring.sheet.lines import (
    engine_sheet,
    sheet_names,
)
from signups.models import SignUp
from tournaments.models import CheckOut, FeeCategory, Round, Seat, Table, Tournament
from tournaments.rule_set import (
    round_rule_set,
    tournament_rule_set,
)


def _roles_query(tournament: Tournament) -> models.QuerySet | None:
    """(relation, table id or None, username) of every role in the tournament, one query."""
    parts = []
    for model, scope in ((Tournament, "tournament"), (Table, "table")):
        for relation in user_relations(model):
            through = through_model(relation)._default_manager
            owner = relation.m2m_field_name()
            user = relation.m2m_reverse_field_name()
            if scope == "tournament":
                rows = through.filter(**{owner: tournament}).annotate(
                    role=Value(relation.name),
                    # Typed: PostgreSQL makes a bare NULL text, and text is no table id.
                    role_table=Cast(Value(None), output_field=models.BigIntegerField()),
                )
            else:
                rows = through.filter(**{f"{owner}__round__tournament": tournament}).annotate(
                    role=Value(relation.name), role_table=F(f"{owner}_id")
                )
            parts.append(rows.values_list("role", "role_table", f"{user}__username"))
    if not parts:
        return None
    return parts[0].union(*parts[1:], all=True)


def _version_json(result: DealResult) -> dict[str, Any]:
    """One stored version of one entry of a sheet, players by entry id."""
    return {
        "position": result.position,
        "version": result.version,
        "kind": result.kind,
        "game": result.game,
        "entry": result.player_id,
        "points": result.points,
        "tricks": result.tricks,
        "galdins": result.galdins,
        "reason": result.reason,
        "entered_at": json_value(result.created_at),
        "entered_by": result.entered_by.username if result.entered_by else None,
        "via": "link" if result.entered_via_token_id is not None else "account",
    }


def tournament_archive(tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as plain JSON data, in a dozen queries whatever its size."""
    entries = {
        entry.pk: entry
        for entry in tournament.registrations.select_related(
            "player__club", "fee_category", "fee_paid_to"
        ).order_by("pk")
    }
    signups = list(
        SignUp.objects.filter(tournament=tournament).select_related("player__club").order_by("pk")
    )
    # Rounds with their check-ins, and tables with their seats: one outer join each.
    rounds: dict[int, dict[str, Any]] = {}
    for (
        round_id,
        number,
        status,
        mode,
        seed,
        warnings,
        generated,
        published,
        rule_set,
        clock_started,
        time_limit,
        called_at,
        registration_id,
        check_in_method,
        checked_in_at,
    ) in tournament.rounds.order_by("number", "check_ins__registration_id").values_list(
        "pk",
        "number",
        "status",
        "seating_mode",
        "seed",
        "warnings",
        "generated_at",
        "published_at",
        "rule_set",
        "clock_started_at",
        "time_limit",
        "time_called_at",
        "check_ins__registration_id",
        "check_ins__method",
        "check_ins__checked_in_at",
    ):
        round_ = rounds.setdefault(
            round_id,
            {
                "number": number,
                "status": status,
                "seating_mode": mode,
                "seed": seed,
                "warnings": warnings,
                "generated_at": json_value(generated),
                "published_at": json_value(published),
                # As stored: the options the round was published with (empty for a draft,
                # which follows the tournament's).
                "rule_set": rule_set,
                "clock_started_at": json_value(clock_started),
                "time_limit": time_limit,
                "time_called_at": json_value(called_at),
                # Who is present, how each checked in (the organiser's tick, his own link or
                # the round's code) and when; who the organiser marked absent.
                "check_ins": [],
                "check_outs": [],
                "tables": [],
            },
        )
        if registration_id is not None:
            round_["check_ins"].append(
                {
                    "entry": registration_id,
                    "method": check_in_method,
                    "at": json_value(checked_in_at),
                }
            )
    for round_id, registration_id, checked_out_at in (
        CheckOut.objects.filter(round__tournament=tournament)
        .order_by("round_id", "registration_id")
        .values_list("round_id", "registration_id", "checked_out_at")
    ):
        rounds[round_id]["check_outs"].append(
            {"entry": registration_id, "at": json_value(checked_out_at)}
        )
    # Each round's sheets are written with the rules it is played with.
    rules_of = {
        round_id: round_rule_set(Round(tournament=tournament, rule_set=round_["rule_set"])).rules
        for round_id, round_ in rounds.items()
    }
    tables: dict[int, Table] = {}
    seats_of: dict[int, list[Seat]] = defaultdict(list)
    for table_id, round_id, number, first_dealer, flags, more, position, registration_id in (
        Table.objects.filter(round__tournament=tournament)
        .order_by("round__number", "number", "seats__position")
        .values_list(
            "pk",
            "round_id",
            "number",
            "first_dealer_position",
            "flags",
            "deals_allowed_after_time",
            "seats__position",
            "seats__registration_id",
        )
    ):
        tables.setdefault(
            table_id,
            Table(
                pk=table_id,
                round_id=round_id,
                number=number,
                first_dealer_position=first_dealer,
                flags=flags,
                deals_allowed_after_time=more,
            ),
        )
        if registration_id is not None:
            seats_of[table_id].append(
                Seat(table_id=table_id, position=position, registration_id=registration_id)
            )
    results_of: dict[int, list[DealResult]] = defaultdict(list)
    for result in (
        DealResult.objects.filter(table__round__tournament=tournament)
        .select_related("entered_by")
        .order_by("table_id", "position", "version")
    ):
        results_of[result.table_id].append(result)
    confirmations: dict[int, dict[str, Any]] = {}
    seat_results_of: dict[int, dict[int, tuple[int, int, int]]] = defaultdict(dict)
    for (
        table_id,
        confirmed_at,
        user,
        by_entry,
        time_called,
        registration_id,
        game_points,
        twelfths,
        place,
    ) in TableResult.objects.filter(table__round__tournament=tournament).values_list(
        "table_id",
        "confirmed_at",
        "confirmed_by__username",
        "confirmed_by_registration_id",
        "time_called",
        "seats__registration_id",
        "seats__game_points",
        "seats__place_points_twelfths",
        "seats__place",
    ):
        confirmations[table_id] = {
            "confirmed_at": json_value(confirmed_at),
            "confirmed_by": user,
            "confirmed_by_entry": by_entry,
            "time_called": time_called,
        }
        if registration_id is not None:
            seat_results_of[table_id][registration_id] = (game_points, twelfths, place)
    late_of: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for late in (
        LatePlayer.objects.filter(table__round__tournament=tournament)
        .select_related("recorded_by")
        .order_by("table_id", "seat_position")
    ):
        late_of[late.table_id].append(
            {
                "entry": late.registration_id,
                "seat": late.seat_position,
                # None: he did not come and is out of the round (his seat is gone).
                "arrived_at": json_value(late.arrived_at),
                "minutes_late": late.minutes_late,
                "penalty_position": late.penalty_position,
                "recorded_by": late.recorded_by.username if late.recorded_by else None,
                "recorded_at": json_value(late.recorded_at),
            }
        )
    calls_of: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for call in (
        RefereeCall.objects.filter(table__round__tournament=tournament)
        .select_related("answered_by")
        .order_by("table_id", "called_at", "pk")
    ):
        calls_of[call.table_id].append(
            {
                "called_at": json_value(call.called_at),
                "reminded_at": json_value(call.reminded_at),
                "answered_at": json_value(call.answered_at),
                "answered_by": call.answered_by.username if call.answered_by else None,
            }
        )
    audit = [
        {
            "action": action,
            "at": json_value(at),
            "user": user,
            "table": {"round": round_number, "table": table_number}
            if table_number is not None
            else None,
            "detail": detail,
        }
        for action, at, user, round_number, table_number, detail in (
            tournament.audit_records.order_by("at", "pk").values_list(
                "action", "at", "user__username", "table__round__number", "table__number", "detail"
            )
        )
    ]
    roles: dict[str, list[str]] = {relation.name: [] for relation in user_relations(Tournament)}
    table_roles: dict[int, dict[str, list[str]]] = defaultdict(dict)
    query = _roles_query(tournament)
    for relation, table_id, username in sorted(query if query is not None else (), key=str):
        if table_id is None:
            roles[relation].append(username)
        else:
            table_roles[table_id].setdefault(relation, []).append(username)

    for table in tables.values():
        seats = seats_of[table.pk]
        names = sheet_names(seats, entries)
        confirmation = confirmations.get(table.pk)
        confirmed = confirmation is not None
        results = results_of[table.pk]
        sheet = engine_sheet(
            table, seats=seats, results=results, rules=rules_of[table.round_id], closed=confirmed
        )
        seat_results = seat_results_of.get(table.pk, {})
        rounds[table.round_id]["tables"].append(
            {
                "number": table.number,
                "players": [
                    {"entry": seat.registration_id, "name": names[str(seat.registration_id)]}
                    for seat in seats
                ],
                "first_dealer": names[sheet.first_dealer or sheet.players[0]],
                "confirmed": confirmed,
                "confirmed_at": confirmation["confirmed_at"] if confirmation else None,
                "confirmed_by": confirmation["confirmed_by"] if confirmation else None,
                "confirmed_by_entry": confirmation["confirmed_by_entry"] if confirmation else None,
                # Confirmed with fewer deals than planned: the round's time was up.
                "time_called": confirmation["time_called"] if confirmation else False,
                "sheet": sheet_to_json(sheet, names),
                # The confirmed totals, by the sheet's names: what re-scoring the sheet gives.
                "totals": {
                    names[str(seat.registration_id)]: seat_results[seat.registration_id][0]
                    for seat in seats
                }
                if confirmed
                else None,
                "results": [
                    {
                        "entry": seat.registration_id,
                        "game_points": seat_results[seat.registration_id][0],
                        "place_points": place_points_text(seat_results[seat.registration_id][1]),
                        "place": seat_results[seat.registration_id][2],
                    }
                    for seat in seats
                ]
                if confirmed
                else None,
                "flags": table.flags,
                "deals_allowed_after_time": table.deals_allowed_after_time,
                "late_players": late_of[table.pk],
                "referee_calls": calls_of[table.pk],
                "roles": {
                    relation.name: table_roles[table.pk].get(relation.name, [])
                    for relation in user_relations(Table)
                },
                # Every stored version: the sheet above is the newest of each, removed ones out.
                "versions": [_version_json(result) for result in results],
            }
        )

    # The register's players the tournament names: its entries', and those its online
    # registrations found in the register.
    players = {entry.player.pk: entry.player for entry in entries.values()}
    players.update((signup.player.pk, signup.player) for signup in signups if signup.player)
    clubs = {player.club.pk: player.club for player in players.values() if player.club is not None}
    return {
        "format": ARCHIVE_FORMAT,
        "version": ARCHIVE_VERSION,
        "tournament": {
            field.name: json_value(getattr(tournament, field.attname))
            for field in tournament._meta.concrete_fields
            if field.name not in NOT_SETTINGS
        },
        "roles": roles,
        # The rules the next round will be played with (each round has its own: rule_set).
        "rules": rules_to_json(tournament_rule_set(tournament).rules),
        "fee_categories": [
            {"name": category.name, "amount": json_value(category.amount), "order": category.order}
            for category in FeeCategory.objects.filter(tournament=tournament)
        ],
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
                "registered_at": json_value(entry.registered_at),
                # The fee category by its name (empty: the tournament's first), and when the fee
                # was paid and to whom (empty: not paid).
                "fee_category": entry.fee_category.name if entry.fee_category else None,
                "fee_paid_at": json_value(entry.fee_paid_at),
                "fee_paid_to": entry.fee_paid_to.username if entry.fee_paid_to else None,
            }
            for entry in entries.values()
        ],
        # Registration online: each as typed, with the contact the organisers reach him by.
        "signups": [
            {
                "name": signup.full_name,
                "club": signup.club,
                "licence": signup.licence_number,
                "contact": signup.contact,
                # What he is told by mail is written in it.
                "language": signup.language,
                "status": signup.status,
                "created_at": json_value(signup.created_at),
                "queued_at": json_value(signup.queued_at),
                "player": signup.player_id,
                "entry": signup.registration_id,
            }
            for signup in signups
        ],
        "rounds": list(rounds.values()),
        "audit": audit,
    }
