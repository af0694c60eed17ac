"""Players imported from a CSV file: a preview with every line's problem, then the import."""

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Upper
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.models import (
    AuditEntry,
    Club,
    Player,
    Tournament,
)
from tournaments.player_csv import CsvPlayer, read_players
from tournaments.services.common import ServiceError, audit
from tournaments.services.tournaments import entries_register

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
