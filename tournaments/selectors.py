"""Reads for the tournaments app (HackSoft style: views call these, never the ORM directly)."""

import datetime
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction

from django.contrib.auth.models import User
from django.db.models import Count, Max, Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.formats import date_format
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from core.engine_text import GAME_WORDS, display_name_key
from engine.names import search_key
from engine.seating import meeting_counts
from engine.standings import RoundResult, rank_standings
from tournaments.models import (
    AuditEntry,
    Club,
    Entry,
    Player,
    Role,
    Round,
    RoundStatus,
    Seat,
    SeatingMode,
    Table,
    Tournament,
)


def seating_history(*, tournament: Tournament, before_round: int) -> list[list[list[str]]]:
    """The tables of the earlier rounds, as the engine's seating history (entry ids)."""
    seats = (
        Seat.objects.filter(
            table__round__tournament=tournament, table__round__number__lt=before_round
        )
        .order_by("table__round__number", "table__number", "position")
        .values_list("table__round__number", "table__number", "entry_id")
    )
    rounds: dict[int, dict[int, list[str]]] = {}
    for round_number, table_number, entry_id in seats:
        rounds.setdefault(round_number, {}).setdefault(table_number, []).append(str(entry_id))
    return [list(tables.values()) for _, tables in sorted(rounds.items())]


def round_seating(*, round_: Round) -> list[list[str]]:
    """A round's tables as lists of player names in seat order (for audit before/after)."""
    tables: dict[int, list[str]] = {}
    for table_number, name in (
        Seat.objects.filter(table__round=round_)
        .order_by("table__number", "position")
        .values_list("table__number", "entry__player__full_name")
    ):
        tables.setdefault(table_number, []).append(name)
    return list(tables.values())


def entry_scores(*, tournament: Tournament, before_round: int) -> dict[int, float]:
    """Each entry's standing before a round, for swiss seating: the better the rank in the
    standings of the confirmed results so far, the higher the score (entries without results
    stand at the bottom together)."""
    rows = (
        tournament.entries.filter(seat_results__round_number__lt=before_round)
        .values_list(
            "pk",
            "seat_results__round_number",
            "seat_results__game_points",
            "seat_results__place_points_twelfths",
        )
        .order_by()
    )
    results = [
        RoundResult(
            player=str(entry_id),
            round_number=round_number,
            game_points=game_points,
            place_points=Fraction(twelfths, 12),
        )
        for entry_id, round_number, game_points, twelfths in rows
    ]
    standings = rank_standings(results, order=tournament.standings_order.split(","))
    return {
        int(standing.player): float(len(standings) - standing.rank + 1) for standing in standings
    }


def tournament_list() -> QuerySet[Tournament]:
    return Tournament.objects.annotate(entry_count=Count("entries")).order_by("-starts_on", "name")


def round_list(*, tournament: Tournament) -> QuerySet[Round]:
    return tournament.rounds.annotate(
        table_count=Count("tables", distinct=True), check_in_count=Count("check_ins", distinct=True)
    ).order_by("number")


def last_round_number(*, tournament: Tournament) -> int:
    return tournament.rounds.aggregate(last=Max("number"))["last"] or 0


def playing_round(*, tournament: Tournament) -> Round | None:
    """The round being played (published or in play), which fixes the rule set; None between
    rounds."""
    return (
        tournament.rounds.filter(status__in=(RoundStatus.PUBLISHED, RoundStatus.IN_PLAY))
        .order_by("number")
        .first()
    )


def next_round_number(*, tournament: Tournament) -> int:
    """The first round a player registered now can play: the next one not yet published."""
    started = tournament.rounds.exclude(status=RoundStatus.DRAFT).aggregate(last=Max("number"))
    return (started["last"] or 0) + 1


def entry_list(*, tournament: Tournament) -> list[Entry]:
    return sorted(
        tournament.entries.select_related("player__club"),
        key=lambda entry: display_name_key(entry.player.full_name),
    )


def checked_in(*, round_: Round) -> list[int]:
    return list(round_.check_ins.values_list("entry_id", flat=True))


@dataclass(frozen=True)
class AttendanceDifference:
    """Where a round's seating and its check-in disagree, each list in the reader's order."""

    present_not_seated: list[Entry]
    seated_not_present: list[Entry]

    def __bool__(self) -> bool:
        return bool(self.present_not_seated or self.seated_not_present)

    def names(self) -> dict[str, list[str]]:
        """The players by name (for the audit log)."""
        return {
            "present_not_seated": [entry.player.full_name for entry in self.present_not_seated],
            "seated_not_present": [entry.player.full_name for entry in self.seated_not_present],
        }


def attendance_difference(
    *, round_: Round, present: Iterable[int] | None = None, seated: Iterable[int] | None = None
) -> AttendanceDifference:
    """Who is checked in (or `present`: the entry ids ticked on screen) but not seated, and who
    is seated (`seated`: the entry ids, when the caller has them) but not checked in. Nothing
    differs before the round is seated. A query for each set not given, one more when they
    differ."""
    if seated is None:
        seated = Seat.objects.filter(table__round=round_).values_list("entry_id", flat=True)
    seated = set(seated)
    if not seated:
        return AttendanceDifference([], [])
    present = set(checked_in(round_=round_) if present is None else present)
    if present == seated:
        return AttendanceDifference([], [])
    differing = Entry.objects.filter(
        tournament_id=round_.tournament_id, pk__in=seated ^ present
    ).select_related("player")

    def by_name(entries: Iterable[Entry]) -> list[Entry]:
        return sorted(entries, key=lambda entry: display_name_key(entry.player.full_name))

    differing = list(differing)
    return AttendanceDifference(
        present_not_seated=by_name(entry for entry in differing if entry.pk in present),
        seated_not_present=by_name(entry for entry in differing if entry.pk in seated),
    )


@dataclass(frozen=True)
class TableView:
    table: Table
    seats: list[Seat]
    flags: list[dict[str, str]]

    @property
    def warning_flags(self) -> list[dict[str, str]]:
        return [flag for flag in self.flags if flag["code"] in WARNING_FLAGS]


# The flags that make a table worth a second look (the others only explain why it is so).
WARNING_FLAGS = frozenset({"repeat_meeting", "same_club"})


def round_tables(*, round_: Round) -> list[TableView]:
    """The round's tables with their seats in order and their flags, in two queries."""
    tables = round_.tables.prefetch_related(
        Prefetch(
            "seats",
            queryset=Seat.objects.select_related("entry__player__club").order_by("position"),
        )
    ).order_by("number")
    return [TableView(table, list(table.seats.all()), table.flags) for table in tables]


def meeting_matrix(*, tournament: Tournament) -> dict[str, object]:
    """Who met whom: every pair that has sat at one table, with how often, most often first."""
    history = seating_history(tournament=tournament, before_round=10_000)
    counts = meeting_counts(history)
    entries = {str(entry.pk): entry for entry in tournament.entries.select_related("player__club")}
    pairs = sorted(
        (
            (
                count,
                *sorted(
                    (entries[a], entries[b]), key=lambda e: display_name_key(e.player.full_name)
                ),
            )
            for pair, count in counts.items()
            for a, b in [sorted(pair)]
            if a in entries and b in entries
        ),
        key=lambda row: (-row[0], display_name_key(row[1].player.full_name)),
    )
    repeated = [row for row in pairs if row[0] > 1]
    return {
        "pairs": pairs,
        "repeated_pairs": repeated,
        "rounds_seated": len(history),
    }


def player_list(*, query: str = "") -> list[Player]:
    """The register (or the players whose name, club or licence contains `query`) in the
    reader's alphabetical order, each with `name_key` and `club_key` for sorting the table by
    name or club: the database's collation sorts by character code (Juris before Jānis)."""
    players = Player.objects.select_related("club")
    if query:
        players = players.filter(
            Q(full_name__icontains=query)
            | Q(club__name__icontains=query)
            | Q(licence_number__icontains=query)
        )
    listed = list(players)
    for player in listed:
        player.name_key = display_name_key(player.full_name)
        # No club sorts first; within a club, by name.
        player.club_key = (
            display_name_key(player.club.name if player.club else ""),
            player.name_key,
        )
    return sorted(listed, key=lambda player: player.name_key)


def club_list() -> list[Club]:
    clubs = Club.objects.annotate(player_count=Count("players"))
    return sorted(clubs, key=lambda club: display_name_key(club.name))


# --- Roles --------------------------------------------------------------------------------------


ROLE_HOLDERS = {
    Role.ORGANISER: "organisers",
    Role.CHIEF_REFEREE: "chief_referees",
    Role.REFEREE: "referees",
}


def role_holders(*, tournament: Tournament, role: str) -> list[User]:
    """The accounts holding one role in the tournament, by username in the reader's order."""
    holders = getattr(tournament, ROLE_HOLDERS[role]).all()
    return sorted(holders, key=lambda user: display_name_key(user.username))


def tournament_people(*, tournament: Tournament) -> dict[str, list[User]]:
    """The accounts holding each role in the tournament, by role code, in three queries."""
    return {role: role_holders(tournament=tournament, role=role) for role in Role.values}


def organised_tournaments(*, user: User) -> QuerySet[Tournament]:
    """The tournaments the account is named an organiser of (staff organise them all: the
    caller asks tournaments.permissions and lists tournament_list() for them)."""
    return tournament_list().filter(organisers=user)


def chief_refereed_tournaments(*, user: User) -> QuerySet[Tournament]:
    """The tournaments the account is a chief referee of but does not organise (an organiser
    reaches them from his tournament list)."""
    return (
        Tournament.objects.filter(chief_referees=user)
        .exclude(organisers=user)
        .order_by("-starts_on", "name")
    )


def refereed_tables(*, user: User) -> list[Table]:
    """The tables of rounds in play the account may write as a referee: those assigned to him,
    and every table of the tournaments whose chief referee he is, in one query."""
    return list(
        Table.objects.filter(round__status__in=(RoundStatus.PUBLISHED, RoundStatus.IN_PLAY))
        .filter(Q(referees=user) | Q(round__tournament__chief_referees=user))
        .select_related("round__tournament")
        .distinct()
        .order_by(
            "-round__tournament__starts_on", "round__tournament__name", "round__number", "number"
        )
    )


def round_referee_assignments(*, round_: Round) -> list[tuple[Table, list[int]]]:
    """Each table of the round with the ids of the referee accounts assigned to it."""
    tables = round_.tables.prefetch_related("referees").order_by("number")
    return [(table, sorted(user.pk for user in table.referees.all())) for table in tables]


# --- The audit log ------------------------------------------------------------------------------

AUDIT_PAGE_SIZE = 50


def _strings(value: object) -> Iterator[str]:
    """Every string inside an audit entry's detail (names sit in lists of tables, pairs ...)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def _concerning_players(tournament: Tournament, query: str) -> Q:
    """Audit entries about the players whose name contains `query`: everything written at a
    table where one of them sat, and the entries without a table that name one of them
    (a withdrawal, a swap, a regenerated seating). Those name players as they were written,
    so they are matched here, in Python; there are a handful per round."""
    needle = search_key(query)
    matched = {
        entry_id: search_key(name)
        for entry_id, name in tournament.entries.values_list("pk", "player__full_name")
        if needle in search_key(name)
    }
    if not matched:
        return Q(pk__in=[])
    names = set(matched.values())
    without_table = AuditEntry.objects.filter(tournament=tournament, table__isnull=True)
    mentioned = [
        pk
        for pk, detail in without_table.values_list("pk", "detail")
        if any(search_key(text) in names for text in _strings(detail))
    ]
    seated_at = Seat.objects.filter(entry_id__in=matched).values("table_id")
    return Q(table_id__in=seated_at) | Q(pk__in=mentioned)


def audit_entries(
    *,
    tournament: Tournament,
    table: int | None = None,
    round_number: int | None = None,
    player: str = "",
    action: str = "",
    since: datetime.datetime | None = None,
    until: datetime.datetime | None = None,
) -> QuerySet[AuditEntry]:
    """The tournament's audit log, newest first, filtered by table number, round number, player
    (a part of the name, case and diacritics ignored), action code and time (both ends
    included). The page count and the page itself are one query each."""
    entries = AuditEntry.objects.filter(tournament=tournament)
    if table is not None:
        entries = entries.filter(table__number=table)
    if round_number is not None:
        entries = entries.filter(
            Q(table__round__number=round_number) | Q(table__isnull=True, detail__round=round_number)
        )
    if action:
        entries = entries.filter(action=action)
    if since is not None:
        entries = entries.filter(at__gte=since)
    if until is not None:
        entries = entries.filter(at__lte=until)
    if player.strip():
        entries = entries.filter(_concerning_players(tournament, player.strip()))
    return entries.select_related("user", "table__round").order_by("-at", "-id")


@dataclass(frozen=True)
class AuditChange:
    """One thing an action changed, as people read it: what, before → after."""

    label: str
    before: str
    after: str


@dataclass(frozen=True)
class AuditRow:
    """An audit entry ready to read: when, who, from where, what, and what changed."""

    entry: AuditEntry
    who: str
    where: str
    what: str
    place: str
    facts: list[tuple[str, str]]
    changes: list[AuditChange]


def audit_rows(entries: Iterable[AuditEntry], *, tournament: Tournament) -> list[AuditRow]:
    """The entries in words: players by name (the log keeps entry ids), games in the sheet's
    words, seatings table by table. One query for the names, whatever the page."""
    names = {
        str(entry_id): name
        for entry_id, name in tournament.entries.values_list("pk", "player__full_name")
    }
    return [AuditPresenter(entry, names).row() for entry in entries]


NOTHING = "—"

# The label of each key the services write into an audit entry's detail (the keys are stored
# in English and never change; the labels are translated when the page is shown).
FACT_LABELS: dict[str, Promise] = {
    "mode": _("Seating"),
    "seed": _("Seed"),
    "players": _("Players seated"),
    "imported": _("Players imported"),
    "skipped": _("Lines skipped"),
    "player": _("Player"),
    "after_round": _("Withdraws after round"),
    "swapped": _("Swapped"),
    "warnings": _("Warnings"),
    "reason": _("Reason"),
    "confirmed_by": _("Confirmed by"),
    "totals": _("Totals"),
    "role": _("Role"),
    "username": _("Account"),
    "tables": _("Tables left"),
    "season": _("Season"),
    "history_entries": _("Earlier audit entries"),
    "new_table_links": _("New table links"),
    "round": _("Round"),
    "position": _("Entry"),
    "via": _("Entered through"),
    "before": _("Before"),
    "after": _("After"),
    "detail": _("Detail"),
    "invited": _("Invited (no: invitation withdrawn)"),
    "whole_season": _("For every final of the season"),
    "time_limit": _("Time limit (minutes)"),
    "started_at": _("Clock started at"),
    "ends_at": _("Time runs out at"),
    "time_called_at": _("Time called at"),
    "seconds_left": _("Seconds left"),
    "time_was_up": _("Time was up"),
    "time_called": _("Confirmed when time was up"),
    "present_not_seated": _("Present but not seated"),
    "seated_not_present": _("Seated but not checked in"),
    "deals": _("Deals played"),
    "first_round": _("First round"),
    "checked_in": _("Checked in"),
    "checked_out": _("No longer checked in"),
    "present": _("Players present"),
    "club": _("Club"),
    "city": _("City"),
    "created": _("Created"),
}

# Keys whose value is a moment (ISO text in the log): shown in local time, the reader's way.
MOMENT_KEYS = frozenset({"started_at", "ends_at", "time_called_at"})

# A key whose label depends on the action: (action, key) → label.
ACTION_FACT_LABELS: dict[tuple[str, str], Promise] = {
    (AuditEntry.Action.QUALIFIERS_REGISTERED.value, "players"): _("Players registered"),
    (AuditEntry.Action.ENTRIES_REGISTERED.value, "players"): _("Players registered"),
}

# How a writer reached the sheet ("via"), in words.
VIA_WORDS: dict[str, Promise] = {
    "link": _("the table's private link"),
    "account": _("a signed-in account"),
}

# Shown in the place and the "who" of a row rather than as facts.
PLACE_KEYS = frozenset({"round", "position", "via", "before", "after"})


@dataclass(frozen=True)
class AuditPresenter:
    entry: AuditEntry
    names: dict[str, str]  # entry id (as text) → the player's name

    def row(self) -> AuditRow:
        entry, detail = self.entry, self.detail
        return AuditRow(
            entry=entry,
            who=self.who(),
            where=entry.ip_address or NOTHING,
            what=entry.get_action_display(),
            place=self.place(),
            facts=[
                (self.label(key), text)
                for key, value in detail.items()
                if key not in PLACE_KEYS
                for text in [self.fact(key, value)]
                if text
            ],
            changes=self.changes(),
        )

    @property
    def detail(self) -> dict[str, object]:
        detail = self.entry.detail
        return detail if isinstance(detail, dict) else {"detail": detail}

    def label(self, key: str) -> str:
        """A detail key as people read it; a key no service writes today shows as it is."""
        label = ACTION_FACT_LABELS.get((self.entry.action, key)) or FACT_LABELS.get(key)
        return str(label) if label is not None else key.replace("_", " ")

    def who(self) -> str:
        user = self.entry.user
        via_link = self.detail.get("via") == "link"
        if user is not None:
            name = user.get_full_name() or user.username
            if via_link:
                return _("%(name)s, through the table's private link") % {"name": name}
            return name
        if via_link:
            return str(VIA_WORDS["link"])
        return str(_("the system"))

    def place(self) -> str:
        parts = []
        table = self.entry.table
        round_number = table.round.number if table is not None else self.detail.get("round")
        if round_number is not None:
            parts.append(_("round %(number)s") % {"number": round_number})
        if table is not None:
            parts.append(_("table %(number)s") % {"number": table.number})
        if self.detail.get("position") is not None:
            parts.append(_("entry %(number)s") % {"number": self.detail["position"]})
        return " · ".join(str(part) for part in parts)

    def name(self, key: object) -> str:
        return self.names.get(str(key), str(key))

    def fact(self, key: str, value: object) -> str:
        if value is None or value == [] or value == {}:
            return ""
        if key == "mode":
            return str(SeatingMode(value).label) if value in SeatingMode.values else str(value)
        if key == "role":
            return str(Role(value).label) if value in Role.values else str(value)
        if key == "via" and isinstance(value, str) and value in VIA_WORDS:
            return str(VIA_WORDS[value])
        if key in MOMENT_KEYS and isinstance(value, str):
            moment = parse_datetime(value)
            if moment is not None and timezone.is_aware(moment):
                return date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")
            return value
        if key == "swapped" and isinstance(value, list):
            return " ↔ ".join(str(name) for name in value)
        if key == "totals" and isinstance(value, dict):
            return self.points(value)
        if key == "tables" and isinstance(value, list):
            return ", ".join(
                str(_("round %(round)s, table %(table)s") % {"round": pair[0], "table": pair[1]})
                for pair in value
                if isinstance(pair, list) and len(pair) == 2
            )
        return plain(value)

    def points(self, by_entry: dict[str, object]) -> str:
        return ", ".join(f"{self.name(key)} {signed(points)}" for key, points in by_entry.items())

    def changes(self) -> list[AuditChange]:
        detail = self.detail
        if "before" not in detail and "after" not in detail:
            return []
        before, after = detail.get("before"), detail.get("after")
        action = self.entry.action
        if action.startswith(("deal.", "penalty.")):
            return [AuditChange(str(_("Entry")), self.deal(before), self.deal(after))]
        if action == AuditEntry.Action.TABLE_UNLOCKED:
            shown = self.points(before) if isinstance(before, dict) else plain(before)
            return [AuditChange(str(_("Confirmed result")), shown, str(_("unlocked")))]
        if action == AuditEntry.Action.ROUND_REGENERATED:
            return self.seating_changes(before, after)
        if action == AuditEntry.Action.TABLE_REFEREES:
            return [AuditChange(str(_("Referees")), plain(before), plain(after))]
        return [AuditChange(str(_("Value")), plain(before), plain(after))]

    def seating_changes(self, before: object, after: object) -> list[AuditChange]:
        """Only the tables whose players changed, each as its seats in order."""
        old = before if isinstance(before, list) else []
        new = after if isinstance(after, list) else []
        changes = []
        for index in range(max(len(old), len(new))):
            was = old[index] if index < len(old) else []
            now = new[index] if index < len(new) else []
            if was != now:
                label = _("Table %(number)s") % {"number": index + 1}
                changes.append(AuditChange(str(label), plain(was), plain(now)))
        return changes

    def deal(self, deal: object) -> str:
        """A stored deal in the sheet's words: "lielais · Anna: 75 points, 5 tricks"."""
        if not isinstance(deal, dict) or not deal:
            return NOTHING
        kind = deal.get("kind")
        if kind == "void":
            return str(_("removed"))
        if kind == "pass":
            return str(GAME_WORDS["pass"])
        if kind == "penalty":
            return f"{GAME_WORDS['penalty']} · {self.name(deal.get('player_id'))}"
        if kind == "galdins":
            galdins = deal.get("galdins") or {}
            tricks, points = galdins.get("tricks", {}), galdins.get("points", {})
            players = ", ".join(
                str(
                    _("%(name)s: %(points)s points, %(tricks)s tricks")
                    % {"name": self.name(key), "points": points.get(key), "tricks": count}
                )
                for key, count in tricks.items()
            )
            return f"{GAME_WORDS['galdins']} · {players}"
        game = str(GAME_WORDS.get(str(deal.get("game")), deal.get("game")))
        declarer = self.name(deal.get("player_id"))
        if deal.get("points") is None:
            score = _("%(tricks)s tricks") % {"tricks": deal.get("tricks")}
        else:
            score = _("%(points)s points, %(tricks)s tricks") % {
                "points": deal.get("points"),
                "tricks": deal.get("tricks"),
            }
        return f"{game} · {declarer}: {score}"


def signed(value: object) -> str:
    return f"{value:+d}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def plain(value: object) -> str:
    """Any stored value as text people read, never JSON: lists joined, pairs as "key: value"."""
    if value is None or value == [] or value == {}:
        return NOTHING
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if isinstance(value, dict):
        return "; ".join(f"{key}: {plain(item)}" for key, item in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(plain(item) for item in value)
    return str(value)


def tables_confirmed_short(*, round_: Round) -> list[int]:
    """The numbers of the round's tables confirmed with fewer deals because time was up: their
    results depend on the clock, which can then no longer be reset."""
    return list(
        round_.tables.filter(result__time_called=True)
        .order_by("number")
        .values_list("number", flat=True)
    )
