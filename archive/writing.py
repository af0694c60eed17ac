"""The checked archive written in one transaction: `tournament_import`, the inverse of
`tournament_archive`."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DatabaseError, models, transaction

from archive.checking import Checker
from archive.format import BATCH_SIZE, IMPORT_CLIENT_KEY, through_model, user_relations
from archive.plan import NamedRole, Plan
from archive.reading import ArchiveError, remap_detail, remap_galdins, remap_mix_plan
from hall.models import RefereeCall
from scoring import reactions
from scoring.models import DealResult, LatePlayer, SeatResult, TableResult
from scoring.services import seat_results
from scoring.sheet.lines import (
    current_results,
)
from signups.models import SignUp
from tournaments.models import (
    AuditRecord,
    CheckIn,
    CheckOut,
    Club,
    FeeCategory,
    Player,
    Registration,
    Round,
    RoundStatus,
    Seat,
    Table,
    TableToken,
    Tournament,
)


def _accounts(names: set[str], on_account_created: Callable[[str], None] | None) -> dict[str, Any]:
    """The user accounts by username; a name with no account here gets an inactive one without
    a password, so who did what is kept (an administrator activates it if it is needed)."""
    user_model = get_user_model()
    accounts = {user.username: user for user in user_model.objects.filter(username__in=names)}
    for name in sorted(names - set(accounts)):
        user = user_model(username=name, is_active=False)
        user.set_unusable_password()
        user.save()
        accounts[name] = user
        if on_account_created is not None:
            on_account_created(name)
    return accounts


def _with_timestamps(rows: Sequence[models.Model], field_name: str, moments: list[Any]) -> None:
    """Set an auto_now_add field to the archive's moments (bulk_create stamps "now")."""
    changed = [row for row, moment in zip(rows, moments, strict=True) if moment is not None]
    for row, moment in zip(rows, moments, strict=True):
        if moment is not None:
            setattr(row, field_name, moment)
    if changed:
        type(changed[0])._default_manager.bulk_update(changed, [field_name], batch_size=BATCH_SIZE)


def _write(
    plan: Plan, on_account_created: Callable[[str], None] | None, *, grant_roles: bool
) -> Tournament:
    accounts = _accounts(plan.usernames, on_account_created)
    tournament = plan.tournament
    mix_plan = tournament.mix_plan
    tournament.mix_plan = {}
    tournament.save()
    if grant_roles:
        for relation_name, holders in plan.roles.items():
            getattr(tournament, relation_name).set([accounts[name] for name in holders])

    clubs = {
        name: Club.objects.get_or_create(name=name, defaults={"city": city})[0]
        for name, city in plan.clubs.items()
    }
    licences = [licence for _name, _club, licence in plan.players.values() if licence]
    known = {
        player.licence_number: player
        for player in Player.objects.filter(licence_number__in=licences)
    }
    new_players = {
        player_id: Player(
            full_name=name, club=clubs.get(club) if club else None, licence_number=licence
        )
        for player_id, (name, club, licence) in plan.players.items()
        if licence not in known
    }
    Player.objects.bulk_create(new_players.values(), batch_size=BATCH_SIZE)
    player_of = {
        player_id: new_players[player_id] if player_id in new_players else known[licence]
        for player_id, (_name, _club, licence) in plan.players.items()
    }

    for category in plan.fee_categories:
        category.tournament = tournament
    FeeCategory.objects.bulk_create(plan.fee_categories)
    category_of = {category.name: category for category in plan.fee_categories}
    for registration_id, entry in plan.registrations.items():
        entry.tournament = tournament
        entry.player = player_of[entry.player_id]
        fee = plan.fees.get(registration_id)
        if fee is not None:
            entry.fee_category = category_of[fee.category] if fee.category else None
            entry.fee_paid_to = accounts[fee.paid_to] if fee.paid_to else None
    Registration.objects.bulk_create(plan.registrations.values(), batch_size=BATCH_SIZE)
    _with_timestamps(
        list(plan.registrations.values()),
        "registered_at",
        [plan.registered_at.get(registration_id) for registration_id in plan.registrations],
    )
    entry_of = plan.registrations  # the archive's entry id: the entry, now saved
    for signup in plan.signups:
        signup.tournament = tournament
        signup.player = player_of[signup.player_id] if signup.player_id is not None else None
        signup.registration = (
            entry_of[signup.registration_id] if signup.registration_id is not None else None
        )
    signed_up_at = [signup.created_at for signup in plan.signups]  # bulk_create stamps "now"
    SignUp.objects.bulk_create(plan.signups, batch_size=BATCH_SIZE)
    _with_timestamps(plan.signups, "created_at", signed_up_at)

    def key_of(old: str) -> str:
        return str(entry_of[int(old)].pk)

    if mix_plan:
        tournament.mix_plan = remap_mix_plan(mix_plan, key_of)
        tournament.save(update_fields=["mix_plan"])

    rounds = Round.objects.bulk_create(
        Round(
            tournament=tournament,
            number=round_.number,
            status=round_.status,
            seating_mode=round_.seating_mode,
            seed=round_.seed,
            warnings=round_.warnings,
            generated_at=round_.generated_at,
            published_at=round_.published_at,
            rule_set=round_.stored_rule_set,
            clock_started_at=round_.clock_started_at,
            time_limit=round_.time_limit,
            time_called_at=round_.time_called_at,
        )
        for round_ in plan.rounds
    )
    planned_check_ins = [
        (saved, check_in)
        for saved, round_ in zip(rounds, plan.rounds, strict=True)
        for check_in in round_.check_ins
    ]
    check_ins = CheckIn.objects.bulk_create(
        (
            CheckIn(round=saved, registration=entry_of[check_in.entry])
            if check_in.method is None  # an older archive's: the model's default
            else CheckIn(round=saved, registration=entry_of[check_in.entry], method=check_in.method)
            for saved, check_in in planned_check_ins
        ),
        batch_size=BATCH_SIZE,
    )
    _with_timestamps(
        check_ins, "checked_in_at", [check_in.at for _s, check_in in planned_check_ins]
    )
    planned_check_outs = [
        (saved, entry, at)
        for saved, round_ in zip(rounds, plan.rounds, strict=True)
        for entry, at in round_.check_outs
    ]
    check_outs = CheckOut.objects.bulk_create(
        (
            CheckOut(round=saved, registration=entry_of[entry])
            for saved, entry, _at in planned_check_outs
        ),
        batch_size=BATCH_SIZE,
    )
    _with_timestamps(check_outs, "checked_out_at", [at for _s, _e, at in planned_check_outs])
    placed = [
        (saved, round_, table)
        for saved, round_ in zip(rounds, plan.rounds, strict=True)
        for table in round_.tables
    ]
    tables = Table.objects.bulk_create(
        (
            Table(
                round=saved,
                number=table.number,
                first_dealer_position=table.first_dealer_position,
                flags=table.flags,
                deals_allowed_after_time=table.deals_allowed_after_time,
            )
            for saved, _round, table in placed
        ),
        batch_size=BATCH_SIZE,
    )
    Seat.objects.bulk_create(
        (
            Seat(table=saved, position=position, registration=entry_of[registration_id])
            for saved, (_round_row, _round, table) in zip(tables, placed, strict=True)
            for position, registration_id in enumerate(table.seats, 1)
        ),
        batch_size=BATCH_SIZE,
    )
    for relation in user_relations(Table) if grant_roles else ():
        through = through_model(relation)
        through._default_manager.bulk_create(
            (
                through(
                    **{
                        f"{relation.m2m_field_name()}_id": saved.pk,
                        f"{relation.m2m_reverse_field_name()}_id": accounts[name].pk,
                    }
                )
                for saved, (_round_row, _round, table) in zip(tables, placed, strict=True)
                for name in table.roles.get(relation.name, ())
            ),
            batch_size=BATCH_SIZE,
        )
    # Every table of a public seating has an entry link: new ones, the old ones stay behind.
    tokens = {
        token.table_id: token
        for token in TableToken.objects.bulk_create(
            (
                TableToken(table=saved, round_id=saved.round_id)
                for saved, (_round_row, round_, _table) in zip(tables, placed, strict=True)
                if round_.status != RoundStatus.DRAFT
            ),
            batch_size=BATCH_SIZE,
        )
    }

    results: list[DealResult] = []
    moments: list[datetime.datetime | None] = []
    for saved, (_round_row, _round, table) in zip(tables, placed, strict=True):
        for result, by, via_link, moment in zip(
            table.versions, table.entered_by, table.via_link, table.entered_at, strict=True
        ):
            result.table = saved
            if result.player_id is not None:
                result.player_id = entry_of[int(result.player_id)].pk
            if result.galdins is not None:
                result.galdins = remap_galdins(result.galdins, key_of)
            result.client_key = IMPORT_CLIENT_KEY.format(
                position=result.position, version=result.version
            )
            result.entered_by = accounts[by] if by else None
            result.entered_via_token = tokens.get(saved.pk) if via_link else None
            results.append(result)
            moments.append(moment)
    # Stored in the order they were entered (an older archive's, without moments: the sheet's),
    # so that the newest version has the highest id, as where they were played: a confirmation
    # records the newest it saw (TableResult.last_version_id).
    unknown = datetime.datetime.min.replace(tzinfo=datetime.UTC)
    entered = sorted(range(len(results)), key=lambda index: (moments[index] or unknown, index))
    DealResult.objects.bulk_create([results[index] for index in entered], batch_size=BATCH_SIZE)
    _with_timestamps(results, "created_at", moments)

    late_rows = [
        (saved, late)
        for saved, (_round_row, _round, table) in zip(tables, placed, strict=True)
        for late in table.late_players
    ]
    late_players = LatePlayer.objects.bulk_create(
        (
            LatePlayer(
                table=saved,
                registration=entry_of[late.entry],
                arrived_at=late.arrived_at,
                minutes_late=late.minutes_late,
                penalty_position=late.penalty_position,
                seat_position=late.seat,
                recorded_by=accounts[late.recorded_by] if late.recorded_by else None,
            )
            for saved, late in late_rows
        ),
        batch_size=BATCH_SIZE,
    )
    _with_timestamps(late_players, "recorded_at", [late.recorded_at for _s, late in late_rows])
    RefereeCall.objects.bulk_create(
        (
            RefereeCall(
                table=saved,
                called_at=call.called_at,
                reminded_at=call.reminded_at,
                answered_at=call.answered_at,
                answered_by=accounts[call.answered_by] if call.answered_by else None,
            )
            for saved, (_round_row, _round, table) in zip(tables, placed, strict=True)
            for call in table.referee_calls
        ),
        batch_size=BATCH_SIZE,
    )

    confirmed = [
        (saved, table, table.confirmation)
        for saved, (_round_row, _round, table) in zip(tables, placed, strict=True)
        if table.confirmation is not None
    ]
    table_results = TableResult.objects.bulk_create(
        (
            TableResult(
                table=saved,
                confirmed_by=accounts[confirmation.confirmed_by]
                if confirmation.confirmed_by
                else None,
                confirmed_by_registration=entry_of[confirmation.confirmed_by_registration]
                if confirmation.confirmed_by_registration is not None
                else None,
                last_position=len(current_results(table.versions)),
                last_version_id=max((result.pk for result in table.versions), default=0),
                time_called=table.time_called,
            )
            for saved, table, confirmation in confirmed
        ),
        batch_size=BATCH_SIZE,
    )
    _with_timestamps(
        table_results,
        "confirmed_at",
        [confirmation.confirmed_at for _saved, _table, confirmation in confirmed],
    )
    SeatResult.objects.bulk_create(
        (
            seat
            for table_result, (_saved, _table, confirmation) in zip(
                table_results, confirmed, strict=True
            )
            for seat in seat_results(
                table_result,
                confirmation.results,
                lambda player: entry_of[int(player)],
                tallies=confirmation.tallies,
            )
        ),
        batch_size=BATCH_SIZE,
    )

    table_of = {
        (round_.number, table.number): saved
        for saved, (_round_row, round_, table) in zip(tables, placed, strict=True)
    }
    audit = AuditRecord.objects.bulk_create(
        (
            AuditRecord(
                tournament=tournament,
                table=table_of[row.table] if row.table is not None else None,
                action=row.action,
                user=accounts[row.user] if row.user else None,
                detail=remap_detail(row.action, row.detail, key_of),
            )
            for row in plan.audit
        ),
        batch_size=BATCH_SIZE,
    )
    _with_timestamps(audit, "at", [row.at for row in plan.audit])
    # The import itself is logged too, when it happens: the links printed before on the score
    # sheets' QR codes are not in the archive, so the sheets of the rounds in play must be
    # reprinted.
    AuditRecord.objects.create(
        tournament=tournament,
        action=AuditRecord.Action.TOURNAMENT_IMPORTED,
        detail={
            "history_entries": len(plan.audit),
            "new_table_links": len(tokens),
            "roles_granted": len(plan.named_roles) if grant_roles else 0,
        },
    )
    return tournament


def tournament_import(
    archive: dict[str, Any],
    *,
    slug: str | None = None,
    on_account_created: Callable[[str], None] | None = None,
    grant_roles: bool = False,
    on_role: Callable[[NamedRole], None] | None = None,
) -> Tournament:
    """Write the tournament of an archive (`tournament_archive`'s document), under `slug` if
    given: its clubs (found by name, or created), players (found by licence number when they
    have one, or created), settings, entries, rounds, check-ins, tables and seats, every deal
    version, confirmations and results, chief referees and audit log.

    The whole archive is checked first, every sheet re-scored by the engine and compared with
    the confirmed totals and results written beside it; then everything is written in one
    transaction. Any problem raises `ArchiveError` and nothing is written.

    The roles the archive names (organisers, chief referees, table referees) are given to the
    accounts of this database that bear those usernames only with `grant_roles`: a username
    here may be someone else than in the archive's database. `on_role` hears each role named,
    granted or not, once the import is written."""
    try:
        plan = Checker(archive, slug=slug).plan()
    except RecursionError:
        raise ArchiveError("not a tournament archive: its JSON is nested too deeply") from None
    try:
        with transaction.atomic():
            tournament = _write(plan, on_account_created, grant_roles=grant_roles)
            # The season ranking and the ratings count it as if it had been played here.
            reactions.tournament_imported.send(Tournament, tournament=tournament)
    except DatabaseError as error:
        # A slug taken meanwhile, or a licence number of another player: all rolled back.
        raise ArchiveError(f"nothing imported: the database refused a row ({error})") from None
    if on_role is not None:
        for role in plan.named_roles:
            on_role(role)
    return tournament
