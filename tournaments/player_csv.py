"""Reading a list of players typed in a spreadsheet (CSV): which delimiter, which columns, which
lines are wrong and why. Only the text is read here; `services.players_import_preview` checks the
lines against the register.

A file is one player a line: name, club, licence (the last two may be left out), separated by
commas, semicolons or tabs. An optional header row names the columns, in Latvian, Russian or
English, in any order. Python's `csv.Sniffer` is not used: it gives up on a file with one line of
a different length, and the file would then be read with commas whatever it held.
"""

from __future__ import annotations

import csv
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

DELIMITERS = (",", ";", "\t")
# How a delimiter is named in a message (a tab cannot be shown between quotes).
DELIMITER_NAMES = {",": '","', ";": '";"', "\t": gettext_lazy("a tab")}

COLUMNS = ("full_name", "club", "licence_number")
COLUMN_WORDS = {
    "full_name": pgettext_lazy("player list column", "name"),
    "club": pgettext_lazy("player list column", "club"),
    "licence_number": pgettext_lazy("player list column", "licence"),
}


def header_word(text: str) -> str:
    """A column title as compared: no case, diacritics, spaces or punctuation ("Licences Nr." →
    "licencesnr")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if char.isalnum())


# The titles a header row may give each column (Latvian, Russian, English), compared as
# `header_word` leaves them.
HEADER_TITLES: dict[str, str] = {
    header_word(title): column
    for column, titles in {
        "full_name": (
            "vārds",
            "vārds uzvārds",
            "uzvārds vārds",
            "spēlētājs",
            "dalībnieks",
            "name",
            "full name",
            "full_name",
            "player",
            "имя",
            "фио",
            "имя фамилия",
            "фамилия имя",
            "игрок",
            "участник",
        ),
        "club": ("klubs", "kluba nosaukums", "club", "club name", "клуб"),
        "licence_number": (
            "licence",
            "licences numurs",
            "licences nr",
            "licence nr",
            "licence number",
            "licence_number",
            "licence no",
            "license",
            "license number",
            "license no",
            "лицензия",
            "номер лицензии",
            "лицензия номер",
            "лицензия №",
        ),
    }.items()
    for title in titles
}


@dataclass(frozen=True, slots=True)
class CsvPlayer:
    line: int  # where the player's line starts in the file (1-based)
    full_name: str
    club: str
    licence_number: str


class UnreadableLineError(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


def _rows(lines: list[str], delimiter: str) -> Iterator[tuple[int, list[str]]]:
    """Each row with the line it starts on, its fields stripped. Raises UnreadableLineError
    where the csv module gives up (a field over its size limit)."""
    reader = csv.reader(lines, delimiter=delimiter)
    read = 0
    while True:
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            line = read + 1
            if "field limit" in str(error):
                message = _("a field is longer than %(count)d characters") % {
                    "count": csv.field_size_limit()
                }
            else:
                message = _("this line cannot be read (is a quote left open?)")
            raise UnreadableLineError(line, message) from None
        yield read + 1, [field.strip() for field in fields]
        read = reader.line_num


def _readable_rows(lines: list[str], delimiter: str) -> list[tuple[int, list[str]]]:
    """The rows up to the first unreadable one (for choosing the delimiter)."""
    rows = []
    try:
        for row in _rows(lines, delimiter):
            rows.append(row)
    except UnreadableLineError:
        pass
    return [(line, fields) for line, fields in rows if any(fields)]


def _header_columns(fields: list[str]) -> list[str | None] | None:
    """The columns a header row names (None for a title not known), or None when the row is
    not a header: a header names a known column in all its fields but one at most."""
    filled = [field for field in fields if field]
    columns = [HEADER_TITLES.get(header_word(field)) for field in fields]
    known = sum(column is not None for column in columns)
    if known and known >= len(filled) - 1 and (known >= 2 or len(filled) <= 2):
        return columns
    return None


def _delimiter(lines: list[str]) -> str:
    """The file's delimiter: the one that makes its first line a header, else the one that
    splits the most lines into 2 or 3 fields (then the one giving more fields; commas first)."""
    first = next((line for line in lines if line.strip()), "")
    best_header = 0
    chosen = None
    for delimiter in DELIMITERS:
        rows = _readable_rows([first], delimiter)
        columns = _header_columns(rows[0][1]) if rows else None
        known = sum(column is not None for column in columns or ())
        if known > best_header:
            best_header, chosen = known, delimiter
    if chosen is not None and best_header >= 2:
        return chosen

    def score(delimiter: str) -> tuple[int, int]:
        counts = [len(fields) for _line, fields in _readable_rows(lines, delimiter)]
        return (
            sum(2 <= count <= len(COLUMNS) for count in counts),
            sum(count for count in counts if count <= len(COLUMNS)),
        )

    return max(DELIMITERS, key=score)


def _column_list(columns: list[str]) -> str:
    return ", ".join(str(COLUMN_WORDS[column]) for column in columns)


def _other_delimiter(field: str, delimiter: str, width: int) -> str | None:
    """The delimiter a one-field line seems to use instead of the file's own."""
    for other in DELIMITERS:
        if other != delimiter and other in field:
            rows = _readable_rows([field], other)
            if rows and 2 <= len(rows[0][1]) <= width:
                return other
    return None


Problem = tuple[int, str]  # the line and what is wrong with it, in the request's language


def _header_problem(fields: list[str], titles: list[str | None]) -> str | None:
    unknown = next(
        (field for field, title in zip(fields, titles, strict=True) if title is None), None
    )
    if unknown is not None:
        return _('the column "%(title)s" is not known: the columns are name, club and licence') % {
            "title": unknown
        }
    for index, field in enumerate(fields):
        if titles[index] in titles[:index]:
            return _('the column "%(title)s" is named twice') % {"title": field}
    if "full_name" not in titles:
        return _("the header has no name column")
    return None


def _field_count_problem(got: int, columns: list[str]) -> str:
    return ngettext(
        "expected %(count)d field (%(columns)s); got %(got)d",
        "expected %(count)d fields (%(columns)s); got %(got)d",
        len(columns),
    ) % {"count": len(columns), "columns": _column_list(columns), "got": got}


def read_players(text: str) -> tuple[list[CsvPlayer], list[Problem]]:
    """The players of a CSV text, and what is wrong with its other lines."""
    lines = text.splitlines()
    delimiter = _delimiter(lines)
    problems: list[Problem] = []
    rows: list[tuple[int, list[str]]] = []
    try:
        for line, fields in _rows(lines, delimiter):
            if any(fields):
                rows.append((line, fields))
    except UnreadableLineError as error:
        problems.append((error.line, str(error)))  # nothing after it can be read

    columns: list[str] | None = None  # named by a header row; otherwise name, club, licence
    if rows and (titles := _header_columns(rows[0][1])) is not None:
        line, fields = rows.pop(0)
        while fields and not fields[-1]:  # a spreadsheet's empty columns at the end
            fields.pop()
            titles.pop()
        if problem := _header_problem(fields, titles):
            return [], [(line, problem), *problems]
        columns = [title for title in titles if title is not None]

    width = len(columns) if columns else max((len(f) for _l, f in rows if len(f) <= 3), default=1)
    players: list[CsvPlayer] = []
    for line, fields in rows:
        expected = columns or list(COLUMNS)
        while len(fields) > len(expected) and not fields[-1]:
            fields.pop()
        if len(fields) > len(expected) or (columns and len(fields) < len(expected)):
            problems.append((line, _field_count_problem(len(fields), expected)))
            continue
        if len(fields) == 1 < width and (other := _other_delimiter(fields[0], delimiter, width)):
            problems.append(
                (
                    line,
                    _("the fields are separated by %(file)s in this file, this line has %(line)s")
                    % {"file": DELIMITER_NAMES[delimiter], "line": DELIMITER_NAMES[other]},
                )
            )
            continue
        values = dict(zip(expected, fields, strict=False))
        players.append(
            CsvPlayer(
                line=line,
                full_name=values.get("full_name", ""),
                club=values.get("club", ""),
                licence_number=values.get("licence_number", ""),
            )
        )
    return players, problems
