"""Players imported from a CSV file: a preview with every line's problem, then the import."""

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Upper
from django.utils.translation import gettext as _

from core.name_fields import name_problem
from engine.names import clean_name
from tournaments import selectors
from tournaments.models import AuditRecord, Club, Player, Registration, Tournament
from tournaments.namesakes import club_key, licence_key, name_key
from tournaments.player_csv import COLUMN_WORDS, CsvPlayer, read_players
from tournaments.services.audit import audit
from tournaments.services.refusal import ServiceError
from tournaments.services.registrations import registrations_create

IMPORT_MAX_BYTES = 1_000_000
IMPORT_MAX_LINES = 5_000


@dataclass(frozen=True, slots=True)
class RegisterPlayer:
    """A player of the register a line may stand for, as the preview shows him."""

    pk: int
    full_name: str
    club: str
    licence_number: str


@dataclass(frozen=True, slots=True)
class ImportRow:
    line: int
    full_name: str
    club: str
    licence_number: str
    existing: bool = False  # already in the register: skipped, not an error
    # Likely the same person: the register's players of the same name and club, the name
    # compared as a search compares it (no case, no diacritics), whose licence does not tell
    # them apart (one of the two has none). The import uses the first of them unless the
    # organiser chooses a new player.
    duplicates: tuple[RegisterPlayer, ...] = ()

    @property
    def adds_licence(self) -> bool:
        """Using the likely duplicate gives him the line's licence."""
        return bool(self.licence_number and self.duplicates)


@dataclass(frozen=True, slots=True)
class LineProblem:
    """What is wrong with one line, and with which of its fields (None: the line as a whole)."""

    line: int
    field: str | None  # "full_name", "club" or "licence_number"
    message: str  # in the language of the request


@dataclass(frozen=True, slots=True)
class ImportPreview:
    rows: tuple[ImportRow, ...]
    # "line 4: ...", in the language of the request, in the order of the lines — any error
    # means nothing is imported
    errors: tuple[str, ...]
    # The same, each with its line and field (a list's own problems have no line: 0).
    problems: tuple[LineProblem, ...] = ()

    @property
    def new_rows(self) -> tuple[ImportRow, ...]:
        """The lines that add a player whatever the organiser chooses."""
        return tuple(row for row in self.rows if not row.existing and not row.duplicates)

    @property
    def duplicate_rows(self) -> tuple[ImportRow, ...]:
        return tuple(row for row in self.rows if row.duplicates)


class ImportRefusedError(ServiceError):
    """Nothing was imported: `problems` says which lines, and which of their fields, are wrong."""

    def __init__(self, message: str, problems: Sequence[LineProblem]) -> None:
        super().__init__(message)
        self.problems = tuple(problems)


@dataclass(frozen=True, slots=True)
class ImportResult:
    created: list[Player] = field(default_factory=list)
    updated: list[Player] = field(default_factory=list)  # likely duplicates given a licence
    registered: int = 0  # entries made in the tournament
    players: list[Player] = field(default_factory=list)  # every player the list stands for


def decode_upload(raw: bytes) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Older Latvian spreadsheets save in Windows-1257 (Baltic).
        return raw.decode("cp1257", errors="replace")


def _has_control_character(text: str) -> bool:
    return any(unicodedata.category(character) == "Cc" for character in text)


def _licence_key(licence: str) -> str:
    return licence_key(licence)


def _line_problem(
    row: CsvPlayer,
    *,
    seen_licences: dict[str, int],
    seen_names: dict[tuple[str, str], int],
    register: dict[str, tuple[str, str]],
) -> tuple[str, str] | None:
    """What is wrong with one player's line, and in which field; or None."""
    full_name, club, licence = row.full_name, row.club, row.licence_number
    for field_name, value in (
        ("full_name", full_name),
        ("club", club),
        ("licence_number", licence),
    ):
        if _has_control_character(value):
            # A NUL or other control character: binary data, not a list of players (and
            # PostgreSQL cannot store a NUL).
            return field_name, _("it has a control character (is the file a CSV of players?)")
        if problem := name_problem(value, COLUMN_WORDS[field_name]):
            return field_name, problem
    if not full_name:
        return "full_name", _("the name is empty")
    if len(full_name) > 120:
        return "full_name", _("the name is longer than %(count)d characters") % {"count": 120}
    if len(club) > 120:
        return "club", _("the club is longer than %(count)d characters") % {"count": 120}
    if len(licence) > 20:
        return "licence_number", _("the licence number is longer than %(count)d characters") % {
            "count": 20
        }
    if licence:
        key = _licence_key(licence)
        if key in seen_licences:
            return "licence_number", _("licence %(licence)s is also on line %(line)d") % {
                "licence": licence,
                "line": seen_licences[key],
            }
        if key in register and name_key(register[key][1], "") != name_key(full_name, ""):
            return "licence_number", _("licence %(licence)s already belongs to %(name)s") % {
                "licence": register[key][0],
                "name": register[key][1],
            }
    else:
        named = _name_key(full_name, club)
        if named in seen_names:
            return "full_name", (
                _("%(name)s (%(club)s) is also on line %(line)d")
                if club
                else _("%(name)s is also on line %(line)d")
            ) % {"name": full_name, "club": club, "line": seen_names[named]}
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
    return _preview(players, [LineProblem(line, None, problem) for line, problem in problems])


def players_list_preview(players: Sequence[CsvPlayer]) -> ImportPreview:
    """`players_import_preview` of a list already in fields (the API's), each player's `line`
    his place in the list."""
    if len(players) > IMPORT_MAX_LINES:
        message = _("the list has more than %(count)d players") % {"count": IMPORT_MAX_LINES}
        return ImportPreview((), (message,), (LineProblem(0, None, message),))
    return _preview(players, [])


def _preview(players: Sequence[CsvPlayer], problems: list[LineProblem]) -> ImportPreview:
    register = {
        _licence_key(licence): (licence, name)
        for licence, name in Player.objects.exclude(licence_number="").values_list(
            "licence_number", "full_name"
        )
    }
    existing_names = set(
        Player.objects.filter(licence_number="").values_list("full_name", "club__name")
    )
    namesakes = _register_by_name()
    rows: list[ImportRow] = []
    seen_licences: dict[str, int] = {}
    seen_names: dict[tuple[str, str], int] = {}
    for row in map(_cleaned, players):
        problem = _line_problem(
            row, seen_licences=seen_licences, seen_names=seen_names, register=register
        )
        if problem:
            problems.append(LineProblem(row.line, *problem))
            continue
        if row.licence_number:
            seen_licences[_licence_key(row.licence_number)] = row.line
            existing = _licence_key(row.licence_number) in register
        else:
            seen_names[_name_key(row.full_name, row.club)] = row.line
            existing = (row.full_name, row.club or None) in existing_names
        duplicates: tuple[RegisterPlayer, ...] = ()
        if not existing:
            duplicates = tuple(
                player
                for player in namesakes.get(_name_key(row.full_name, row.club), ())
                if not (player.licence_number and row.licence_number)
            )
        rows.append(
            ImportRow(
                row.line,
                row.full_name,
                row.club,
                row.licence_number,
                existing=existing,
                duplicates=duplicates,
            )
        )
    problems.sort(key=lambda problem: problem.line)
    errors = [
        _("line %(line)d: %(problem)s") % {"line": problem.line, "problem": problem.message}
        for problem in problems
    ]
    if not rows and not errors:
        errors.append(_("the file has no players"))
        problems.append(LineProblem(0, None, errors[-1]))
    return ImportPreview(tuple(rows), tuple(errors), tuple(problems))


def _cleaned(row: CsvPlayer) -> CsvPlayer:
    """A line's fields as they are stored: nothing invisible, one space between words."""
    return CsvPlayer(
        line=row.line,
        full_name=clean_name(row.full_name),
        club=clean_name(row.club),
        licence_number=clean_name(row.licence_number),
    )


def _name_key(full_name: str, club: str) -> tuple[str, str]:
    return name_key(full_name, club)


def _register_by_name() -> dict[tuple[str, str], list[RegisterPlayer]]:
    namesakes: dict[tuple[str, str], list[RegisterPlayer]] = {}
    for pk, full_name, club, licence in Player.objects.order_by("pk").values_list(
        "pk", "full_name", "club__name", "licence_number"
    ):
        namesakes.setdefault(_name_key(full_name, club or ""), []).append(
            RegisterPlayer(pk, full_name, club or "", licence)
        )
    return namesakes


def _chosen_players(
    rows: Iterable[ImportRow], matches: Mapping[int, int | None]
) -> tuple[dict[int, int], list[LineProblem]]:
    """Line → the register player it stands for (a likely duplicate the organiser did not
    set aside with None: the first one unless another is chosen), and what is wrong with the
    choices."""
    chosen: dict[int, int] = {}
    problems: list[LineProblem] = []
    taken: dict[int, int] = {}
    for row in rows:
        if not row.duplicates:
            continue
        pk = matches.get(row.line, row.duplicates[0].pk)
        if pk is None:
            continue
        if pk not in {player.pk for player in row.duplicates}:
            problems.append(
                LineProblem(
                    row.line,
                    None,
                    _("line %(line)d: choose a player the preview offers, or a new player")
                    % {"line": row.line},
                )
            )
        elif pk in taken:
            problems.append(
                LineProblem(
                    row.line,
                    None,
                    _("line %(line)d: %(name)s is already chosen for line %(other)d")
                    % {
                        "line": row.line,
                        "name": next(p.full_name for p in row.duplicates if p.pk == pk),
                        "other": taken[pk],
                    },
                )
            )
        else:
            taken[pk] = row.line
            chosen[row.line] = pk
    return chosen, problems


class Registered(TypedDict, total=False):
    """An import into a tournament in the audit log: how many players it registered there."""

    registered: int


@transaction.atomic
def players_import(
    *,
    raw: bytes | None = None,
    players: Sequence[CsvPlayer] | None = None,
    by: User | None,
    ip_address: str | None = None,
    tournament: Tournament | None = None,
    matches: Mapping[int, int | None] | None = None,
) -> ImportResult:
    """Import every new player of the CSV (`raw`), or of a list already in fields (`players`),
    creating missing clubs; all or nothing: any problem is an ImportRefusedError.

    A line with likely duplicates in the register stands for the first of them (given the
    line's licence when he has none) unless `matches` says otherwise: line → the chosen
    player's pk, or None for a new player. With a `tournament`, every player of the list (new,
    already in the register or matched) is also registered in it, in the same transaction, and
    the audit record says how many."""
    if players is not None:
        preview = players_list_preview(players)
    elif raw is not None:
        preview = players_import_preview(raw)
    else:
        raise TypeError("players_import imports a CSV (`raw`) or a list (`players`): neither given")
    chosen, problems = _chosen_players(preview.rows, matches or {})
    if preview.errors or problems:
        raise ImportRefusedError(
            _("nothing imported: %(errors)s")
            % {"errors": "; ".join([*preview.errors, *(problem.message for problem in problems)])},
            [*preview.problems, *problems],
        )
    matched = Player.objects.select_for_update().in_bulk(chosen.values())
    updated = []
    for row in preview.rows:
        player = matched.get(chosen.get(row.line))
        if player is not None and row.licence_number and not player.licence_number:
            # Only an empty licence is filled in: the register's name and club stay.
            player.licence_number = row.licence_number
            player.save(update_fields=["licence_number"])
            updated.append(player)
    new_rows = [row for row in preview.rows if not row.existing and row.line not in chosen]
    # A club is the register's when its name reads alike (`club_key`): the first such one.
    clubs: dict[str, Club] = {}
    for club in Club.objects.order_by("-pk"):
        clubs[club_key(club.name)] = club
    for row in new_rows:
        if row.club and club_key(row.club) not in clubs:
            clubs[club_key(row.club)] = Club.objects.create(name=row.club)
    created = Player.objects.bulk_create(
        Player(
            full_name=row.full_name,
            club=clubs.get(club_key(row.club)) if row.club else None,
            licence_number=row.licence_number,
        )
        for row in new_rows
    )
    # Two lines may name one register player (one exactly, one as a likely duplicate): once.
    listed = list(
        {
            player.pk: player
            for player in (
                *_players_of_rows(row for row in preview.rows if row.existing),
                *matched.values(),
                *created,
            )
        }.values()
    )
    registration: Registered = {}
    registered: list[Registration] = []
    if tournament is not None:
        registered = registrations_create(
            tournament=tournament,
            players=listed,
            first_round=selectors.next_round_number(tournament=tournament),
        )
        registration = {"registered": len(registered)}
    audit(
        action=AuditRecord.Action.PLAYERS_IMPORTED,
        by=by,
        tournament=tournament,
        ip_address=ip_address,
        imported=len(created),
        updated=len(updated),
        skipped=len(preview.rows) - len(created) - len(updated),
        **registration,
    )
    return ImportResult(
        created=created, updated=updated, registered=len(registered), players=listed
    )


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
