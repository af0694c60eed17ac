"""Writes for the tournaments app (HackSoft style: views and commands call these)."""

import datetime
import secrets
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import connection, models, transaction
from django.db.models import Count, Max, Q
from django.db.models.functions import Upper
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.cache import tournament_changed
from core.engine_text import error_text, flag_dict, is_warning, table_warning_text
from engine import SheetError
from engine.seating import (
    SeatedTable,
    SeatingPlayer,
    explain_table,
    seat_players,
    table_sizes,
)
from tournaments import permissions, selectors
from tournaments.clock import CLOCK_STATUSES, round_clock
from tournaments.models import (
    AuditEntry,
    CheckIn,
    Club,
    Entry,
    Player,
    Round,
    RoundStatus,
    Seat,
    SeatingMode,
    Table,
    TableToken,
    Tournament,
)
from tournaments.player_csv import CsvPlayer, read_players
from tournaments.rule_set import RULE_SET_FIELDS, round_rule_set, rule_set_options

# (club name, city)
DEMO_CLUBS: list[tuple[str, str]] = [
    ("Rīgas Zoles klubs", "Rīga"),
    ("Liepājas Dūzis", "Liepāja"),
    ("Daugavpils Kārtis", "Daugavpils"),
    ("Cēsu Pule", "Cēsis"),
]

# (full name, club name): three players per club, with every Latvian diacritic somewhere.
DEMO_PLAYERS: list[tuple[str, str]] = [
    ("Jānis Bērziņš", "Rīgas Zoles klubs"),
    ("Anna Ozoliņa", "Rīgas Zoles klubs"),
    ("Pēteris Kalniņš", "Rīgas Zoles klubs"),
    ("Līga Liepiņa", "Liepājas Dūzis"),
    ("Ģirts Šteins", "Liepājas Dūzis"),
    ("Ērika Žagare", "Liepājas Dūzis"),
    ("Kārlis Čakste", "Daugavpils Kārtis"),
    ("Ieva Ķikute", "Daugavpils Kārtis"),
    ("Ņikita Ļebedevs", "Daugavpils Kārtis"),
    ("Dace Krūmiņa", "Cēsu Pule"),
    ("Edgars Vītols", "Cēsu Pule"),
    ("Māra Zariņa", "Cēsu Pule"),
]


@transaction.atomic
def demo_load() -> dict[str, int]:
    """Create the demo clubs and players if missing; safe to run any number of times.

    Returns how many clubs and players this call created (zero on a repeat run).
    """
    clubs: dict[str, Club] = {}
    clubs_created = 0
    for name, city in DEMO_CLUBS:
        club, created = Club.objects.get_or_create(name=name, defaults={"city": city})
        clubs[name] = club
        clubs_created += int(created)

    players_created = 0
    for full_name, club_name in DEMO_PLAYERS:
        # Keyed on name and club: demo players have no licence number to identify them by.
        _player, created = Player.objects.get_or_create(full_name=full_name, club=clubs[club_name])
        players_created += int(created)

    return {"clubs": clubs_created, "players": players_created}


@dataclass(frozen=True)
class OrganiserAccount:
    username: str
    password: str | None  # the new password, shown once; None when an account was kept as it is


@transaction.atomic
def organiser_account_create(*, username: str, reset: bool = False) -> OrganiserAccount:
    """A staff account (federation staff organise every tournament) with a random password;
    an existing one keeps its password unless `reset`."""
    username = username.strip()
    if not username:
        raise ServiceError(_("the account needs a name"))
    user = User.objects.filter(username=username).first()
    if user is not None and not reset:
        return OrganiserAccount(username=username, password=None)
    password = secrets.token_urlsafe(12)
    if user is None:
        user = User(username=username)
    user.is_staff = True
    user.is_active = True
    user.set_password(password)
    user.save()
    return OrganiserAccount(username=username, password=password)


# --- Tournaments, entries and rounds -----------------------------------------------------------


class ServiceError(Exception):
    """A request the rules of the tournament refuse; the message says what is wrong, in the
    language of the request (it is shown to the person, never stored)."""


def audit(
    *,
    action: str,
    by: User | None,
    tournament: Tournament | None = None,
    table: Table | None = None,
    ip_address: str | None = None,
    **detail: object,
) -> AuditEntry:
    return AuditEntry.objects.create(
        tournament=tournament,
        table=table,
        action=action,
        user=by if by is not None and by.is_authenticated else None,
        ip_address=ip_address,
        detail=detail,
    )


class TableGoneError(ServiceError):
    """The table is no more: its round was seated again (its link was revoked with it)."""


def table_gone_message() -> str:
    return _("This round was re-seated: use the new link of your table.")


def lock_round_and_table(table: Table, *, shared: bool = False) -> tuple[Round, Table]:
    """The round's row, then the table's: the one order of every write that touches both
    (seating, swaps, publishing, the clock and closing lock the round alone), so that two
    writes never wait for each other in a circle. A table deleted meanwhile (its round was
    seated again) is a `TableGoneError`.

    `shared`: the round's row is locked FOR SHARE (PostgreSQL), not FOR UPDATE: the deals of
    different tables are written side by side, while a write of the round itself (FOR UPDATE)
    still waits for them and they for it. Only for a write that does not change the round's
    row (a shared lock held by two writes that both update the row would deadlock)."""
    if shared and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT 1 FROM {Round._meta.db_table} WHERE id = %s FOR SHARE",
                [table.round_id],
            )
        round_ = Round.objects.select_related("tournament").get(pk=table.round_id)
    else:
        round_ = (
            Round.objects.select_for_update(of=("self",))
            .select_related("tournament")
            .get(pk=table.round_id)
        )
    # The table's row alone: Table's ordering joins the round and the tournament, and a bare
    # FOR UPDATE would lock their rows too (every write of a tournament queued behind one row).
    locked = Table.objects.select_for_update(of=("self",)).filter(pk=table.pk).first()
    if locked is None:
        raise TableGoneError(table_gone_message())
    locked.round = round_
    return round_, locked


class RuleSetLockedError(ServiceError):
    """The rule set cannot change while a round is played with it."""


def _audit_value(value: object) -> object:
    """A setting as the audit log's JSON keeps it (dates as ISO text)."""
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, models.Model):  # a club: its name, which the log keeps
        return str(value)
    return value


def _changes(instance: models.Model, values: dict[str, object]) -> tuple[dict, dict]:
    """What `values` change on the instance: (before, after), as the audit log keeps them."""
    changed = [name for name, value in values.items() if getattr(instance, name) != value]
    return (
        {name: _audit_value(getattr(instance, name)) for name in changed},
        {name: _audit_value(values[name]) for name in changed},
    )


@transaction.atomic
def tournament_settings_save(
    *,
    tournament: Tournament,
    values: dict[str, object],
    by: User | None,
    ip_address: str | None = None,
) -> Tournament:
    """Create a tournament, or change its settings, and audit what changed (before and after).

    The rule set (`tournaments.rule_set.RULE_SET_FIELDS`) is fixed for a round once it is
    published: while a round is published or in play it cannot change; a change made between
    rounds applies from the next round (each round keeps the rules it was played with)."""
    creating = tournament.pk is None
    if not creating:
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    before = {name: getattr(tournament, name) for name in values}
    changed = [name for name, value in values.items() if creating or before[name] != value]
    rule_changes = [name for name in changed if name in RULE_SET_FIELDS]
    if rule_changes and not creating:
        playing = selectors.playing_round(tournament=tournament)
        if playing is not None:
            fields = ", ".join(
                str(Tournament._meta.get_field(name).verbose_name) for name in rule_changes
            )
            raise RuleSetLockedError(
                _(
                    "round %(number)d is %(status)s and is played with the rules it was "
                    "published with: %(fields)s can change once it is closed, and the change "
                    "then applies from the next round"
                )
                % {
                    "number": playing.number,
                    "status": playing.get_status_display(),
                    "fields": fields,
                }
            )
    for name, value in values.items():
        setattr(tournament, name, value)
    tournament.save()
    if changed:
        audit(
            action=AuditEntry.Action.SETTINGS_CHANGED,
            by=by,
            tournament=tournament,
            ip_address=ip_address,
            created=creating,
            before={} if creating else {name: _audit_value(before[name]) for name in changed},
            after={name: _audit_value(values[name]) for name in changed},
        )
    tournament_changed(tournament.pk)
    return tournament


@transaction.atomic
def entries_register(
    *,
    tournament: Tournament,
    players: Iterable[Player],
    first_round: int = 1,
    by: User | None = None,
    ip_address: str | None = None,
    action: str = AuditEntry.Action.ENTRIES_REGISTERED,
    **detail: object,
) -> list[Entry]:
    """Register players; a registration after round 1 has started is a late entry. One audit
    entry names them (`action` and `detail`: the ranking registers a final's qualifiers)."""
    existing = set(tournament.entries.values_list("player_id", flat=True))
    entries = [
        Entry(tournament=tournament, player=player, first_round=first_round)
        for player in players
        if player.pk not in existing
    ]
    created = Entry.objects.bulk_create(entries)
    if created:
        audit(
            action=action,
            by=by,
            tournament=tournament,
            ip_address=ip_address,
            **detail,
            players=[entry.player.full_name for entry in created],
            first_round=first_round,
        )
    tournament_changed(tournament.pk)
    return created


@transaction.atomic
def entry_update(
    *, entry: Entry, values: dict[str, object], by: User | None, ip_address: str | None = None
) -> bool:
    """Change an entry (team, fixed table, first round), with what changed in the audit log.
    False (and no audit entry) when nothing changes."""
    entry = (
        Entry.objects.select_for_update().select_related("player", "tournament").get(pk=entry.pk)
    )
    before, after = _changes(entry, values)
    if not after:
        return False
    for name, value in values.items():
        setattr(entry, name, value)
    entry.save(update_fields=list(values))
    tournament_changed(entry.tournament_id)
    audit(
        action=AuditEntry.Action.ENTRY_CHANGED,
        by=by,
        tournament=entry.tournament,
        ip_address=ip_address,
        player=entry.player.full_name,
        before=before,
        after=after,
    )
    return True


@transaction.atomic
def entry_withdraw(
    *, entry: Entry, after_round: int, by: User | None, ip_address: str | None = None
) -> Entry:
    """The player leaves: not seated in any round after `after_round`; results so far stay."""
    entry.withdrawn_after_round = after_round
    entry.save(update_fields=["withdrawn_after_round"])
    CheckIn.objects.filter(entry=entry, round__number__gt=after_round).delete()
    tournament_changed(entry.tournament_id)
    audit(
        action=AuditEntry.Action.ENTRY_WITHDRAWN,
        by=by,
        tournament=entry.tournament,
        ip_address=ip_address,
        player=entry.player.full_name,
        after_round=after_round,
    )
    return entry


@transaction.atomic
def player_save(
    *, player: Player, values: dict[str, object], by: User | None, ip_address: str | None = None
) -> Player:
    """Add a player to the register, or change one, with what changed in the audit log (the
    register belongs to no tournament, and neither does its audit entry)."""
    creating = player.pk is None
    if not creating:
        player = Player.objects.select_for_update().get(pk=player.pk)
    before, after = _changes(player, values)
    if creating:
        before, after = {}, {name: _audit_value(value) for name, value in values.items()}
    for name, value in values.items():
        setattr(player, name, value)
    player.save()
    if after:
        audit(
            action=AuditEntry.Action.PLAYER_SAVED,
            by=by,
            ip_address=ip_address,
            player=player.full_name,
            created=creating,
            before=before,
            after=after,
        )
    return player


@transaction.atomic
def club_create(*, name: str, city: str, by: User | None, ip_address: str | None = None) -> Club:
    club = Club.objects.create(name=name, city=city)
    audit(
        action=AuditEntry.Action.CLUB_ADDED,
        by=by,
        ip_address=ip_address,
        club=club.name,
        city=club.city,
    )
    return club


@transaction.atomic
def round_create(
    *, tournament: Tournament, by: User | None = None, ip_address: str | None = None
) -> Round:
    """The next round, as a draft, with the tournament's seating mode for it and every entry
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
    playing = tournament.entries.filter(first_round__lte=number).filter(
        Q(withdrawn_after_round__isnull=True) | Q(withdrawn_after_round__gte=number)
    )
    CheckIn.objects.bulk_create(CheckIn(round=new_round, entry=entry) for entry in playing)
    tournament_changed(tournament.pk)
    audit(
        action=AuditEntry.Action.ROUND_CREATED,
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
    entries: Iterable[Entry],
    by: User | None = None,
    ip_address: str | None = None,
) -> int:
    """Exactly these entries are present for the round; returns how many are checked in. Who
    was checked in or out goes to the audit log."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    if round_.status != RoundStatus.DRAFT:
        raise ServiceError(_("check-in changes only while the round is a draft"))
    chosen = {entry.pk for entry in entries if entry.tournament_id == round_.tournament_id}
    present = set(CheckIn.objects.filter(round=round_).values_list("entry_id", flat=True))
    CheckIn.objects.filter(round=round_).exclude(entry_id__in=chosen).delete()
    CheckIn.objects.bulk_create(
        CheckIn(round=round_, entry_id=entry_id) for entry_id in chosen - present
    )
    if chosen != present:
        names = dict(
            Entry.objects.filter(pk__in=chosen ^ present).values_list("pk", "player__full_name")
        )
        audit(
            action=AuditEntry.Action.CHECK_IN_CHANGED,
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


@transaction.atomic
def round_generate_seating(
    *,
    round_: Round,
    mode: str | None = None,
    seed: int | None = None,
    by: User | None,
    confirmation: str = "",
    ip_address: str | None = None,
    present: Iterable[Entry] | None = None,
) -> Round:
    """Seat the checked-in players (engine.seating) and write the tables in bulk.

    `present`: the players ticked on the organiser's screen; they are checked in first, in the
    same transaction (a refused seating saves no check-in either). A draft round may be
    regenerated freely; a published one only with the typed confirmation, and that leaves an
    audit entry."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    _require_draft_seating(round_)
    if present is not None:
        check_in_set(round_=round_, entries=present)
    was_published = round_.status == RoundStatus.PUBLISHED
    if was_published and confirmation.strip() != regenerate_confirmation(round_):
        raise ServiceError(
            _('round %(number)d is published: type "%(confirmation)s" to regenerate it')
            % {"number": round_.number, "confirmation": regenerate_confirmation(round_)}
        )
    tournament = round_.tournament
    mode = mode or round_.seating_mode
    check_ins = list(round_.check_ins.select_related("entry__player__club"))
    entries = [check_in.entry for check_in in check_ins]
    scores = selectors.entry_scores(tournament=tournament, before_round=round_.number)
    players = [
        SeatingPlayer(
            id=str(entry.pk),
            club=entry.player.club.name if entry.player.club else None,
            score=float(scores.get(entry.pk, 0)),
            fixed_table=entry.fixed_table,
            name=entry.player.full_name,
        )
        for entry in entries
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
        Seat(table=table, position=position, entry_id=int(entry_id))
        for table, seated in zip(created, tables, strict=True)
        for position, entry_id in enumerate(seated.players, start=1)
    )
    round_.seating_mode = mode
    round_.seed = seed
    round_.warnings = warnings
    round_.generated_at = timezone.now()
    round_.save(update_fields=["seating_mode", "seed", "warnings", "generated_at"])
    if was_published:
        _issue_missing_links(round_)
        tournament_changed(tournament.pk)  # a public seating changed
    audit(
        action=AuditEntry.Action.ROUND_REGENERATED
        if was_published
        else AuditEntry.Action.ROUND_GENERATED,
        by=by,
        tournament=tournament,
        ip_address=ip_address,
        round=round_.number,
        mode=mode,
        seed=seed,
        players=len(players),
        **(
            {"before": previous_tables, "after": selectors.round_seating(round_=round_)}
            if was_published
            else {}
        ),
    )
    return round_


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
    seats = list(table.seats.select_related("entry__player__club"))
    history = selectors.seating_history(tournament=round_.tournament, before_round=round_.number)
    flags = explain_table(
        [str(seat.entry_id) for seat in seats],
        number=table.number,
        history=history,
        clubs={
            str(seat.entry_id): seat.entry.player.club.name if seat.entry.player.club else None
            for seat in seats
        },
        fixed_tables={str(seat.entry_id): seat.entry.fixed_table for seat in seats},
        avoid_same_club=round_.tournament.avoid_same_club,
        names={str(seat.entry_id): seat.entry.player.full_name for seat in seats},
        table_size=round_rule_set(round_).table_size,
    )
    return [flag_dict(flag) for flag in flags]


@transaction.atomic
def round_swap_players(
    *, round_: Round, first: Entry, second: Entry, by: User | None, ip_address: str | None = None
) -> list[str]:
    """Swap two seated players in a draft round; returns the warnings of the tables it changed
    (a repeat meeting, a club clash, a fixed table no longer honoured), in the reader's language
    (the audit entry keeps them in English)."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status != RoundStatus.DRAFT:
        raise ServiceError(_("players can be swapped only while the round is a draft"))
    if first.pk == second.pk:
        raise ServiceError(_("choose two different players to swap"))
    seats = {
        seat.entry_id: seat
        for seat in Seat.objects.select_related("table").filter(
            table__round=round_, entry__in=[first, second]
        )
    }
    for entry in (first, second):
        if entry.pk not in seats:
            raise ServiceError(
                _("%(name)s has no seat in round %(number)d")
                % {"name": entry.player.full_name, "number": round_.number}
            )
    seat_a, seat_b = seats[first.pk], seats[second.pk]
    places = [(seat_a.table, seat_a.position), (seat_b.table, seat_b.position)]
    # Delete and recreate: a plain update would collide with the unique seat constraints midway.
    Seat.objects.filter(pk__in=[seat_a.pk, seat_b.pk]).delete()
    Seat.objects.bulk_create(
        [
            Seat(table=places[0][0], position=places[0][1], entry=second),
            Seat(table=places[1][0], position=places[1][1], entry=first),
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
        action=AuditEntry.Action.ROUND_SWAP,
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


def _names(entries: Iterable[Entry]) -> str:
    return ", ".join(entry.player.full_name for entry in entries)


@transaction.atomic
def round_publish(
    *,
    round_: Round,
    by: User | None,
    ip_address: str | None = None,
    present: Iterable[Entry] | None = None,
    attendance_confirmed: bool = False,
) -> Round:
    """Publish the round's seating: every table gets its private entry link.

    `present`: the players ticked on the organiser's screen, checked in first in the same
    transaction. When the seated players are not the checked-in ones, publishing is refused
    (AttendanceMismatchError, nothing saved) unless `attendance_confirmed`: then the audit entry
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
        check_in_set(round_=round_, entries=present)
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
    audit(
        action=AuditEntry.Action.ROUND_PUBLISHED,
        by=by,
        tournament=round_.tournament,
        ip_address=ip_address,
        round=round_.number,
        **(difference.names() if difference else {}),
    )
    return round_


# --- The round clock (timed rounds) -------------------------------------------------------------


def _lock_clock_round(round_: Round, by: User | None) -> Round:
    """The round row locked (every clock write and a short confirmation queue on it), after
    checking that `by` keeps the tournament's clock and that the round is being played."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    if not permissions.can_run_clock(by, round_.tournament):
        raise ServiceError(_("only the organisers and the chief referee keep the round clock"))
    if round_.status not in CLOCK_STATUSES:
        raise ServiceError(
            _(
                "round %(number)d is %(status)s: the clock runs while a round is published "
                "or in play"
            )
            % {"number": round_.number, "status": round_.get_status_display()}
        )
    return round_


def _moment(value: datetime.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


@transaction.atomic
def round_clock_start(*, round_: Round, by: User | None, ip_address: str | None = None) -> Round:
    """Start the round's clock with the tournament's round time limit (copied to the round: a
    later change of the option applies to the next clock)."""
    round_ = _lock_clock_round(round_, by)
    clock = round_clock(round_)
    if clock.is_started:
        raise ServiceError(
            _("the clock of round %(number)d was already started at %(time)s")
            % {
                "number": round_.number,
                "time": formats.time_format(timezone.localtime(clock.started_at), "TIME_FORMAT"),
            }
        )
    if not clock.is_timed:
        raise ServiceError(
            _("the tournament has no round time limit: set one in its settings to time the rounds")
        )
    round_.clock_started_at = clock.now
    round_.time_limit = clock.limit_minutes
    round_.time_called_at = None
    round_.save(update_fields=["clock_started_at", "time_limit", "time_called_at"])
    tournament_changed(round_.tournament_id)
    started = round_clock(round_, now=clock.now)
    audit(
        action=AuditEntry.Action.CLOCK_STARTED,
        by=by,
        tournament=round_.tournament,
        ip_address=ip_address,
        round=round_.number,
        time_limit=round_.time_limit,
        started_at=_moment(started.started_at),
        ends_at=_moment(started.deadline),
    )
    return round_


@transaction.atomic
def round_clock_reset(*, round_: Round, by: User | None, ip_address: str | None = None) -> Round:
    """Stop a clock started by mistake: back to not started. Refused once time was called or a
    table was confirmed short (its result depends on the clock)."""
    round_ = _lock_clock_round(round_, by)
    clock = round_clock(round_)
    if not clock.is_started:
        raise ServiceError(
            _("the clock of round %(number)d has not started") % {"number": round_.number}
        )
    if clock.was_called:
        raise ServiceError(
            _("time was called in round %(number)d: its clock can no longer be reset")
            % {"number": round_.number}
        )
    short = selectors.tables_confirmed_short(round_=round_)
    if short:
        raise ServiceError(
            ngettext(
                "table %(numbers)s was confirmed when time was up: the clock can no longer be "
                "reset",
                "tables %(numbers)s were confirmed when time was up: the clock can no longer be "
                "reset",
                len(short),
            )
            % {"numbers": ", ".join(str(number) for number in short)}
        )
    audit(
        action=AuditEntry.Action.CLOCK_RESET,
        by=by,
        tournament=round_.tournament,
        ip_address=ip_address,
        round=round_.number,
        time_limit=round_.time_limit,
        started_at=_moment(clock.started_at),
        ends_at=_moment(clock.deadline),
        time_was_up=clock.is_up,
    )
    round_.clock_started_at = None
    round_.time_limit = None
    round_.time_called_at = None
    round_.save(update_fields=["clock_started_at", "time_limit", "time_called_at"])
    tournament_changed(round_.tournament_id)
    return round_


@transaction.atomic
def round_time_call(*, round_: Round, by: User | None, ip_address: str | None = None) -> Round:
    """The chief referee calls time before the clock runs out: every table finishes the deal
    under way and may then be confirmed with the deals it has played."""
    round_ = _lock_clock_round(round_, by)
    clock = round_clock(round_)
    if not clock.is_started:
        raise ServiceError(
            _("the clock of round %(number)d has not started: start it before calling time")
            % {"number": round_.number}
        )
    if clock.is_up:
        raise ServiceError(
            _("time is already up in round %(number)d (%(time)s)")
            % {
                "number": round_.number,
                "time": formats.time_format(timezone.localtime(clock.ended_at), "TIME_FORMAT"),
            }
        )
    round_.time_called_at = clock.now
    round_.save(update_fields=["time_called_at"])
    tournament_changed(round_.tournament_id)
    audit(
        action=AuditEntry.Action.TIME_CALLED,
        by=by,
        tournament=round_.tournament,
        ip_address=ip_address,
        round=round_.number,
        time_limit=round_.time_limit,
        started_at=_moment(clock.started_at),
        ends_at=_moment(clock.deadline),
        time_called_at=_moment(clock.now),
        seconds_left=clock.remaining_seconds,
    )
    return round_


@transaction.atomic
def table_token_issue(
    *, table: Table, by: User | None, ip_address: str | None = None
) -> TableToken:
    """A new private entry link for the table; the old one stops working."""
    _round, table = lock_round_and_table(table)
    TableToken.objects.filter(table=table, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    token = TableToken.objects.create(table=table, round_id=table.round_id)
    audit(
        action=AuditEntry.Action.TOKEN_ISSUED,
        by=by,
        tournament=table.round.tournament,
        table=table,
        ip_address=ip_address,
    )
    return token


@transaction.atomic
def table_token_revoke(*, table: Table, by: User | None, ip_address: str | None = None) -> int:
    """The table's entry link stops working (a lost phone, a leaked link)."""
    _round, table = lock_round_and_table(table)
    revoked = TableToken.objects.filter(table=table, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    audit(
        action=AuditEntry.Action.TOKEN_REVOKED,
        by=by,
        tournament=table.round.tournament,
        table=table,
        ip_address=ip_address,
    )
    return revoked


# --- Player import from CSV --------------------------------------------------------------------

IMPORT_MAX_BYTES = 1_000_000
IMPORT_MAX_LINES = 5_000


@dataclass(frozen=True, slots=True)
class ImportRow:
    line: int
    full_name: str
    club: str
    licence_number: str
    existing: bool = False  # already in the register: skipped, not an error


@dataclass(frozen=True, slots=True)
class ImportPreview:
    rows: tuple[ImportRow, ...]
    # "line 4: ...", in the language of the request, in the order of the lines — any error
    # means nothing is imported
    errors: tuple[str, ...]

    @property
    def new_rows(self) -> tuple[ImportRow, ...]:
        return tuple(row for row in self.rows if not row.existing)


def decode_upload(raw: bytes) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Older Latvian spreadsheets save in Windows-1257 (Baltic).
        return raw.decode("cp1257", errors="replace")


def _has_control_character(text: str) -> bool:
    return any(unicodedata.category(character) == "Cc" for character in text)


def _licence_key(licence: str) -> str:
    """Licence numbers compared as people read them: "lv-1" is "LV-1"."""
    return licence.casefold()


def _line_problem(
    row: CsvPlayer,
    *,
    seen_licences: dict[str, int],
    seen_names: dict[tuple[str, str], int],
    register: dict[str, tuple[str, str]],
) -> str | None:
    """What is wrong with one player's line, or None."""
    full_name, club, licence = row.full_name, row.club, row.licence_number
    if any(_has_control_character(field) for field in (full_name, club, licence)):
        # A NUL or other control character: binary data, not a list of players (and
        # PostgreSQL cannot store a NUL).
        return _("it has a control character (is the file a CSV of players?)")
    if not full_name:
        return _("the name is empty")
    if len(full_name) > 120:
        return _("the name is longer than %(count)d characters") % {"count": 120}
    if len(club) > 120:
        return _("the club is longer than %(count)d characters") % {"count": 120}
    if len(licence) > 20:
        return _("the licence number is longer than %(count)d characters") % {"count": 20}
    if licence:
        key = _licence_key(licence)
        if key in seen_licences:
            return _("licence %(licence)s is also on line %(line)d") % {
                "licence": licence,
                "line": seen_licences[key],
            }
        if key in register and register[key][1] != full_name:
            return _("licence %(licence)s already belongs to %(name)s") % {
                "licence": register[key][0],
                "name": register[key][1],
            }
    else:
        key = (full_name.casefold(), club.casefold())
        if key in seen_names:
            return (
                _("%(name)s (%(club)s) is also on line %(line)d")
                if club
                else _("%(name)s is also on line %(line)d")
            ) % {"name": full_name, "club": club, "line": seen_names[key]}
    return None


def players_import_preview(raw: bytes) -> ImportPreview:
    """Read a CSV of players (name, club, licence) and say what importing it would do: each
    line that is wrong is named with what is wrong (`player_csv` reads the file)."""
    if len(raw) > IMPORT_MAX_BYTES:
        return ImportPreview(
            (), (_("the file is larger than %(size)d kB") % {"size": IMPORT_MAX_BYTES // 1000},)
        )
    text = decode_upload(raw)
    if len(text.splitlines()) > IMPORT_MAX_LINES:
        return ImportPreview(
            (), (_("the file has more than %(count)d lines") % {"count": IMPORT_MAX_LINES},)
        )
    players, problems = read_players(text)
    register = {
        _licence_key(licence): (licence, name)
        for licence, name in Player.objects.exclude(licence_number="").values_list(
            "licence_number", "full_name"
        )
    }
    existing_names = set(
        Player.objects.filter(licence_number="").values_list("full_name", "club__name")
    )
    rows: list[ImportRow] = []
    seen_licences: dict[str, int] = {}
    seen_names: dict[tuple[str, str], int] = {}
    for row in players:
        problem = _line_problem(
            row, seen_licences=seen_licences, seen_names=seen_names, register=register
        )
        if problem:
            problems.append((row.line, problem))
            continue
        if row.licence_number:
            seen_licences[_licence_key(row.licence_number)] = row.line
            existing = _licence_key(row.licence_number) in register
        else:
            seen_names[(row.full_name.casefold(), row.club.casefold())] = row.line
            existing = (row.full_name, row.club or None) in existing_names
        rows.append(
            ImportRow(row.line, row.full_name, row.club, row.licence_number, existing=existing)
        )
    errors = [
        _("line %(line)d: %(problem)s") % {"line": line, "problem": problem}
        for line, problem in sorted(problems, key=lambda problem: problem[0])
    ]
    if not rows and not errors:
        errors.append(_("the file has no players"))
    return ImportPreview(tuple(rows), tuple(errors))


@transaction.atomic
def players_import(
    *,
    raw: bytes,
    by: User | None,
    ip_address: str | None = None,
    tournament: Tournament | None = None,
) -> list[Player]:
    """Import every new player of the CSV, creating missing clubs; all or nothing.

    With a `tournament`, every player of the list (new or already in the register) is also
    registered in it, in the same transaction, and the audit entry says how many. Returns the
    new players."""
    preview = players_import_preview(raw)
    if preview.errors:
        raise ServiceError(
            _("nothing imported: %(errors)s") % {"errors": "; ".join(preview.errors)}
        )
    clubs = {club.name: club for club in Club.objects.all()}
    for row in preview.new_rows:
        if row.club and row.club not in clubs:
            clubs[row.club] = Club.objects.create(name=row.club)
    players = Player.objects.bulk_create(
        Player(full_name=row.full_name, club=clubs.get(row.club), licence_number=row.licence_number)
        for row in preview.new_rows
    )
    registration = {}
    if tournament is not None:
        registered = entries_register(
            tournament=tournament,
            players=_players_of_rows(preview.rows),
            first_round=selectors.next_round_number(tournament=tournament),
        )
        registration = {"registered": len(registered)}
    audit(
        action=AuditEntry.Action.PLAYERS_IMPORTED,
        by=by,
        tournament=tournament,
        ip_address=ip_address,
        imported=len(players),
        skipped=len(preview.rows) - len(players),
        **registration,
    )
    return players


def _players_of_rows(rows: Iterable[ImportRow]) -> list[Player]:
    """The register's players named by import lines: by licence, or by name and club."""
    rows = list(rows)
    licences = {_licence_key(row.licence_number) for row in rows if row.licence_number}
    names = {(row.full_name, row.club or None) for row in rows if not row.licence_number}
    candidates = (
        Player.objects.annotate(licence_upper=Upper("licence_number"))
        .filter(
            Q(licence_upper__in=[row.licence_number.upper() for row in rows if row.licence_number])
            | Q(licence_number="", full_name__in=[name for name, _club in names])
        )
        .select_related("club")
    )
    return [
        player
        for player in candidates
        if (player.licence_number and _licence_key(player.licence_number) in licences)
        or (
            not player.licence_number
            and (player.full_name, player.club.name if player.club else None) in names
        )
    ]
