"""A round prepared and published: created, check-in, seating generated (random, swiss, mix,
ranked) or swapped by hand, and published with its tables' entry links."""

import secrets
from collections.abc import Iterable, Sequence
from typing import TypedDict

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.engine_text import error_text, flag_dict, is_warning, table_warning_text
from core.page_cache import tournament_changed
from engine import SheetError
from engine.seating import (
    SeatedTable,
    SeatingPlayer,
    explain_table,
    seat_players,
    table_sizes,
)
from engine.standings import Standing
from tournaments import round_reactions, selectors
from tournaments.models import (
    AuditRecord,
    CheckIn,
    CheckInMethod,
    CheckOut,
    Registration,
    Round,
    RoundStatus,
    Seat,
    SeatingMode,
    Table,
    TableToken,
    Tournament,
)
from tournaments.rule_set import round_rule_set, rule_set_options
from tournaments.services.audit import audit
from tournaments.services.refusal import ServiceError


@transaction.atomic
def round_create(
    *, tournament: Tournament, by: User | None = None, ip_address: str | None = None
) -> Round:
    """The next round, as a draft, with the tournament's seating mode for it and every registration
    who plays that round checked in (the organiser then unchecks the absent)."""
    number = (tournament.rounds.aggregate(last=Max("number"))["last"] or 0) + 1
    if number > tournament.rounds_planned:
        raise ServiceError(
            ngettext(
                "the tournament has %(count)d round planned",
                "the tournament has %(count)d rounds planned",
                tournament.rounds_planned,
            )
            % {"count": tournament.rounds_planned}
        )
    previous = tournament.rounds.filter(number=number - 1).first()
    if previous is not None and previous.status == RoundStatus.DRAFT:
        raise ServiceError(
            _("round %(number)d is still a draft: publish it first") % {"number": previous.number}
        )
    new_round = Round.objects.create(
        tournament=tournament, number=number, seating_mode=tournament.seating_mode_for(number)
    )
    playing = tournament.registrations.filter(first_round__lte=number).filter(
        Q(withdrawn_after_round__isnull=True) | Q(withdrawn_after_round__gte=number)
    )
    # Provisional: each player may confirm it himself (self check-in) until the organiser ticks.
    CheckIn.objects.bulk_create(
        CheckIn(round=new_round, registration=registration, method=CheckInMethod.ROUND)
        for registration in playing
    )
    tournament_changed(tournament.pk)
    round_reactions.round_created.send(Round, round_=new_round)
    audit(
        action=AuditRecord.Action.ROUND_CREATED,
        by=by,
        tournament=tournament,
        ip_address=ip_address,
        round=number,
        mode=new_round.seating_mode,
    )
    return new_round


def _require_draft_seating(round_: Round) -> None:
    if round_.status not in (RoundStatus.DRAFT, RoundStatus.PUBLISHED):
        raise ServiceError(
            _("round %(number)d is %(status)s: seating is final")
            % {"number": round_.number, "status": round_.get_status_display()}
        )


@transaction.atomic
def check_in_set(
    *,
    round_: Round,
    registrations: Iterable[Registration],
    by: User | None = None,
    ip_address: str | None = None,
    shown_until: int | None = None,
) -> int:
    """Exactly these registrations are present for the round; returns how many are checked in. Who
    was checked in or out goes to the audit log.

    `shown_until`: the last check-in the organiser's screen showed (the largest id); a player
    who checked himself in after it was not on that screen, and stays checked in."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    if round_.status != RoundStatus.DRAFT:
        raise ServiceError(_("check-in changes only while the round is a draft"))
    chosen = {
        registration.pk
        for registration in registrations
        if registration.tournament_id == round_.tournament_id
    }
    if shown_until is not None:
        chosen |= set(
            CheckIn.objects.filter(
                round=round_,
                pk__gt=shown_until,
                method__in=(CheckInMethod.CODE, CheckInMethod.LINK),
            ).values_list("registration_id", flat=True)
        )
    present = set(CheckIn.objects.filter(round=round_).values_list("registration_id", flat=True))
    CheckIn.objects.filter(round=round_).exclude(registration_id__in=chosen).delete()
    CheckIn.objects.bulk_create(
        CheckIn(round=round_, registration_id=registration_id)
        for registration_id in chosen - present
    )
    # The organiser's untick is final: the player cannot check himself in again for the round.
    CheckOut.objects.filter(round=round_, registration_id__in=chosen).delete()
    CheckOut.objects.bulk_create(
        (
            CheckOut(round=round_, registration_id=registration_id)
            for registration_id in present - chosen
        ),
        ignore_conflicts=True,
    )
    if chosen != present:
        names = dict(
            Registration.objects.filter(pk__in=chosen ^ present).values_list(
                "pk", "player__full_name"
            )
        )
        audit(
            action=AuditRecord.Action.CHECK_IN_CHANGED,
            by=by,
            tournament=round_.tournament,
            ip_address=ip_address,
            round=round_.number,
            checked_in=sorted(names[pk] for pk in chosen - present),
            checked_out=sorted(names[pk] for pk in present - chosen),
            present=len(chosen),
        )
    return len(chosen)


def regenerate_confirmation(round_: Round) -> str:
    """What an organiser types to regenerate a published round (in the page's language)."""
    return _("regenerate round %(number)d") % {"number": round_.number}


class Reseated(TypedDict, total=False):
    """A published round seated again in the audit log: its tables before and after, each a
    list of player names in seat order."""

    before: list[list[str]]
    after: list[list[str]]


@transaction.atomic
def round_generate_seating(
    *,
    round_: Round,
    standings: Sequence[Standing],
    mode: str | None = None,
    seed: int | None = None,
    by: User | None,
    confirmation: str = "",
    ip_address: str | None = None,
    present: Iterable[Registration] | None = None,
    shown_until: int | None = None,
) -> Round:
    """Seat the checked-in players (engine.seating) and write the tables in bulk.

    `standings`: the standings before the round (a standing's player is a registration's id),
    which scoring reads from its confirmed results (scoring.services.round_generate_seating) and
    seating by standings cuts into tables.
    `present`: the players ticked on the organiser's screen; they are checked in first, in the
    same transaction (a refused seating saves no check-in either). A draft round may be
    regenerated freely; a published one only with the typed confirmation, and that leaves an
    audit record."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    _require_draft_seating(round_)
    if present is not None:
        check_in_set(round_=round_, registrations=present, shown_until=shown_until)
    was_published = round_.status == RoundStatus.PUBLISHED
    if was_published and confirmation.strip() != regenerate_confirmation(round_):
        raise ServiceError(
            _('round %(number)d is published: type "%(confirmation)s" to regenerate it')
            % {"number": round_.number, "confirmation": regenerate_confirmation(round_)}
        )
    tournament = round_.tournament
    mode = mode or round_.seating_mode
    check_ins = list(round_.check_ins.select_related("registration__player__club"))
    registrations = [check_in.registration for check_in in check_ins]
    scores = seating_scores(standings)
    players = [
        SeatingPlayer(
            id=str(registration.pk),
            club=registration.player.club.name if registration.player.club else None,
            score=float(scores.get(registration.pk, 0)),
            fixed_table=registration.fixed_table,
            name=registration.player.full_name,
        )
        for registration in registrations
    ]
    history = selectors.seating_history(tournament=tournament, before_round=round_.number)
    table_size = round_rule_set(round_).table_size
    try:
        if mode == SeatingMode.MIX:
            seed, tables = _mix_round(
                tournament, round_.number, players, history, seed, table_size=table_size
            )
        else:
            seed = seed if seed is not None else secrets.randbelow(1_000_000)
            plan = seat_players(
                players,
                mode=mode,
                seed=seed,
                avoid_same_club=tournament.avoid_same_club,
                history=history,
                table_size=table_size,
            )
            tables = plan.rounds[0]
    except SheetError as error:
        raise ServiceError(error_text(error)) from None
    warnings = [
        f"table {table.number}: {flag.detail}"
        for table in tables
        for flag in table.flags
        if is_warning(flag_dict(flag))
    ]
    previous_tables = selectors.round_seating(round_=round_) if was_published else []
    # The old tables' links stay behind revoked and without a table: whoever still holds one
    # is told that the round was re-seated.
    TableToken.objects.filter(round=round_, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    round_.tables.all().delete()
    created = Table.objects.bulk_create(
        Table(
            round=round_,
            number=seated.number,
            flags=[flag_dict(flag) for flag in seated.flags],
        )
        for seated in tables
    )
    Seat.objects.bulk_create(
        Seat(table=table, position=position, registration_id=int(registration_id))
        for table, seated in zip(created, tables, strict=True)
        for position, registration_id in enumerate(seated.players, start=1)
    )
    round_.seating_mode = mode
    round_.seed = seed
    round_.warnings = warnings
    round_.generated_at = timezone.now()
    round_.save(update_fields=["seating_mode", "seed", "warnings", "generated_at"])
    if was_published:
        _issue_missing_links(round_)
    # A public seating changed, or a draft's: its check-in closed (the hall display's code).
    tournament_changed(tournament.pk)
    reseated: Reseated = (
        {"before": previous_tables, "after": selectors.round_seating(round_=round_)}
        if was_published
        else {}
    )
    audit(
        action=AuditRecord.Action.ROUND_REGENERATED
        if was_published
        else AuditRecord.Action.ROUND_GENERATED,
        by=by,
        tournament=tournament,
        ip_address=ip_address,
        round=round_.number,
        mode=mode,
        seed=seed,
        players=len(players),
        **reseated,
    )
    return round_


def seating_scores(standings: Sequence[Standing]) -> dict[int, float]:
    """Each registration's score for seating by standings: the better the rank, the higher the
    score; players sharing a rank share a score (the seed decides among them)."""
    return {
        int(standing.player): float(len(standings) - standing.rank + 1) for standing in standings
    }


def _mix_round(
    tournament: Tournament,
    number: int,
    players: list[SeatingPlayer],
    history: list[list[list[str]]],
    seed: int | None,
    *,
    table_size: int,
) -> tuple[int, tuple[SeatedTable, ...]]:
    """Maximal mixing plans the rest of the tournament at once (round by round loses up to 40 %
    of the rounds without repeats in small fields) and keeps the plan on the tournament; later
    rounds continue it while the same players are present and no other seed is asked for.
    Each table's flags are then worked out against the rounds really played."""
    ids = sorted(player.id for player in players)
    stored = tournament.mix_plan or {}
    first = stored.get("from_round", 0)
    continues = (
        stored.get("players") == ids
        and stored.get("table_size", 3) == table_size
        and first <= number < first + len(stored.get("rounds", ()))
        and seed in (None, stored.get("seed"))
    )
    if not continues:
        seed = seed if seed is not None else secrets.randbelow(1_000_000)
        plan = seat_players(
            players,
            mode=SeatingMode.MIX,
            seed=seed,
            avoid_same_club=tournament.avoid_same_club,
            rounds=max(1, tournament.rounds_planned - number + 1),
            history=history,
            table_size=table_size,
        )
        stored = {
            "from_round": number,
            "seed": seed,
            "players": ids,
            "table_size": table_size,
            "rounds": [[list(table.players) for table in planned] for planned in plan.rounds],
        }
        tournament.mix_plan = stored
        tournament.save(update_fields=["mix_plan"])
    by_id = {player.id: player for player in players}
    planned_tables = stored["rounds"][number - stored["from_round"]]
    tables = tuple(
        SeatedTable(
            number=table_number,
            players=tuple(seats),
            flags=explain_table(
                seats,
                number=table_number,
                history=history,
                clubs={player: by_id[player].club for player in seats},
                fixed_tables={player: by_id[player].fixed_table for player in seats},
                avoid_same_club=tournament.avoid_same_club,
                names={player: by_id[player].name or player for player in seats},
                table_size=table_size,
            ),
        )
        for table_number, seats in enumerate(planned_tables, start=1)
    )
    return stored["seed"], tables


def _explain(round_: Round, table: Table) -> list[dict[str, object]]:
    seats = list(table.seats.select_related("registration__player__club"))
    history = selectors.seating_history(tournament=round_.tournament, before_round=round_.number)
    flags = explain_table(
        [str(seat.registration_id) for seat in seats],
        number=table.number,
        history=history,
        clubs={
            str(seat.registration_id): seat.registration.player.club.name
            if seat.registration.player.club
            else None
            for seat in seats
        },
        fixed_tables={str(seat.registration_id): seat.registration.fixed_table for seat in seats},
        avoid_same_club=round_.tournament.avoid_same_club,
        names={str(seat.registration_id): seat.registration.player.full_name for seat in seats},
        table_size=round_rule_set(round_).table_size,
    )
    return [flag_dict(flag) for flag in flags]


@transaction.atomic
def round_swap_players(
    *,
    round_: Round,
    first: Registration,
    second: Registration,
    by: User | None,
    ip_address: str | None = None,
) -> list[str]:
    """Swap two seated players in a draft round; returns the warnings of the tables it changed
    (a repeat meeting, a club clash, a fixed table no longer honoured), in the reader's language
    (the audit record keeps them in English)."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status != RoundStatus.DRAFT:
        raise ServiceError(_("players can be swapped only while the round is a draft"))
    if first.pk == second.pk:
        raise ServiceError(_("choose two different players to swap"))
    seats = {
        seat.registration_id: seat
        for seat in Seat.objects.select_related("table").filter(
            table__round=round_, registration__in=[first, second]
        )
    }
    for registration in (first, second):
        if registration.pk not in seats:
            raise ServiceError(
                _("%(name)s has no seat in round %(number)d")
                % {"name": registration.player.full_name, "number": round_.number}
            )
    seat_a, seat_b = seats[first.pk], seats[second.pk]
    places = [(seat_a.table, seat_a.position), (seat_b.table, seat_b.position)]
    # Delete and recreate: a plain update would collide with the unique seat constraints midway.
    Seat.objects.filter(pk__in=[seat_a.pk, seat_b.pk]).delete()
    Seat.objects.bulk_create(
        [
            Seat(table=places[0][0], position=places[0][1], registration=second),
            Seat(table=places[1][0], position=places[1][1], registration=first),
        ]
    )
    warnings = []  # English, for the audit log
    shown = []  # in the reader's language, for the page
    for table in {places[0][0].pk: places[0][0], places[1][0].pk: places[1][0]}.values():
        table.flags = _explain(round_, table)
        table.save(update_fields=["flags"])
        # What the swap costs: a repeat, a club clash, a fixed table no longer honoured.
        changed = [flag for flag in table.flags if is_warning(flag)]
        warnings += [f"table {table.number}: {flag['detail']}" for flag in changed]
        shown += [table_warning_text(table.number, flag) for flag in changed]
    audit(
        action=AuditRecord.Action.ROUND_SWAP,
        by=by,
        tournament=round_.tournament,
        ip_address=ip_address,
        round=round_.number,
        swapped=[first.player.full_name, second.player.full_name],
        warnings=warnings,
    )
    return shown


def _issue_missing_links(round_: Round) -> None:
    """Every table of a public seating has its private entry link."""
    with_link = TableToken.objects.filter(table__round=round_, revoked_at__isnull=True)
    TableToken.objects.bulk_create(
        TableToken(table=table, round=round_)
        for table in round_.tables.exclude(pk__in=with_link.values("table_id"))
    )


class AttendanceMismatchError(ServiceError):
    """The seated players are not the present ones: published only when the organiser confirms
    (or after generating the seating again)."""

    def __init__(self, round_: Round, difference: selectors.AttendanceDifference) -> None:
        self.difference = difference
        parts = []
        if difference.present_not_seated:
            parts.append(
                _("present but not seated: %(names)s")
                % {"names": _names(difference.present_not_seated)}
            )
        if difference.seated_not_present:
            parts.append(
                _("seated but not checked in: %(names)s")
                % {"names": _names(difference.seated_not_present)}
            )
        super().__init__(
            _(
                "round %(number)d: the seating does not match the check-in (%(differences)s). "
                "Generate the seating again, or confirm that it is published as it is."
            )
            % {"number": round_.number, "differences": "; ".join(parts)}
        )


def _names(registrations: Iterable[Registration]) -> str:
    return ", ".join(registration.player.full_name for registration in registrations)


@transaction.atomic
def round_publish(
    *,
    round_: Round,
    by: User | None,
    ip_address: str | None = None,
    present: Iterable[Registration] | None = None,
    attendance_confirmed: bool = False,
    shown_until: int | None = None,
) -> Round:
    """Publish the round's seating: every table gets its private entry link.

    `present`: the players ticked on the organiser's screen, checked in first in the same
    transaction. When the seated players are not the checked-in ones, publishing is refused
    (AttendanceMismatchError, nothing saved) unless `attendance_confirmed`: then the audit record
    names who differs."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status != RoundStatus.DRAFT:
        raise ServiceError(
            _("round %(number)d is already %(status)s")
            % {"number": round_.number, "status": round_.get_status_display()}
        )
    if not round_.tables.exists():
        raise ServiceError(
            _("round %(number)d has no seating yet: generate it first") % {"number": round_.number}
        )
    if present is not None:
        check_in_set(round_=round_, registrations=present, shown_until=shown_until)
    difference = selectors.attendance_difference(round_=round_)
    if difference and not attendance_confirmed:
        raise AttendanceMismatchError(round_, difference)
    # The round is played with the options as they are now: later changes apply from the next.
    options = rule_set_options(round_.tournament)
    sizes = sorted(round_.tables.annotate(size=Count("seats")).values_list("size", flat=True))
    if sizes != sorted(table_sizes(sum(sizes), table_size=options["table_size"])):
        raise ServiceError(
            _(
                "round %(number)d was seated for other table sizes than the tournament's "
                "settings now give: generate the seating again"
            )
            % {"number": round_.number}
        )
    round_.status = RoundStatus.PUBLISHED
    round_.published_at = timezone.now()
    round_.rule_set = options
    round_.save(update_fields=["status", "published_at", "rule_set"])
    _issue_missing_links(round_)
    tournament_changed(round_.tournament_id)
    round_reactions.round_published.send(Round, round_=round_)
    audit(
        action=AuditRecord.Action.ROUND_PUBLISHED,
        by=by,
        tournament=round_.tournament,
        ip_address=ip_address,
        round=round_.number,
        **(difference.names() if difference else {}),
    )
    return round_
