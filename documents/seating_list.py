"""The seating list of a round, for the wall: by table, then every player alphabetically (Latvian
order) with his table and seat. Large type; every page carries the tournament and the round, so
each page can hang on its own. The organiser's print also tells the hall how to check in for
the round being prepared (its code: never on the public copy)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from django.utils.translation import gettext as _

from documents.layout import EventInfo, Flow, draw_footer, draw_heading, heading_height
from documents.pen import (
    INK,
    MARGIN,
    MUTED,
    PORTRAIT,
    SHADE,
    ZEBRA,
    Pen,
    close_document,
    open_document,
)


@dataclass(frozen=True)
class SeatingSeat:
    position: int
    name: str
    club: str
    licence: str
    deals_first: bool


@dataclass(frozen=True)
class SeatingTable:
    number: int
    seats: tuple[SeatingSeat, ...]


@dataclass(frozen=True)
class SeatingPlayer:
    name: str
    club: str
    licence: str
    table: int
    seat: int


@dataclass(frozen=True)
class CheckInNotice:
    """How the hall checks in for the round being prepared: only on the organiser's print."""

    round_number: int
    code: str
    address: str  # the check-in page


@dataclass(frozen=True)
class SeatingList:
    event: EventInfo
    round_number: int
    tables: tuple[SeatingTable, ...]
    players: tuple[SeatingPlayer, ...]  # in Latvian alphabetical order
    check_in: CheckInNotice | None = None


CONTENT_WIDTH = PORTRAIT[0] - 2 * MARGIN
COLUMN_GAP = 16
COLUMN_WIDTH = (CONTENT_WIDTH - COLUMN_GAP) / 2
CARD_TITLE = 26
SEAT_LINE = 20
CARD_GAP = 12
SECTION_TITLE = 26
PLAYER_LINE = 19
PLAYER_HEADER = 16


def card_height(seats: int) -> float:
    return CARD_TITLE + seats * SEAT_LINE + 6


def draw_card(pen: Pen, top: float, *, table: SeatingTable, x: float, height: float) -> None:
    pen.box(x, top - height, COLUMN_WIDTH, height, line=1, stroke=INK)
    pen.box(x, top - CARD_TITLE, COLUMN_WIDTH, CARD_TITLE, line=1, stroke=INK, fill=SHADE)
    title = _("Table %(number)d") % {"number": table.number}
    pen.text(x + 8, top - 19, title, size=18, bold=True, width=COLUMN_WIDTH - 16)
    baseline = top - CARD_TITLE - SEAT_LINE + 5
    for seat in table.seats:
        pen.text(x + 6, baseline, str(seat.position), size=11, bold=True, color=MUTED)
        name_width = COLUMN_WIDTH - 22 - 8
        club_width = min(pen.text_width(seat.club, 8), name_width * 0.38) if seat.club else 0
        mark_width = 12 if seat.deals_first else 0
        room = name_width - club_width - 4 - mark_width
        pen.text(x + 20, baseline, seat.name, size=14, bold=True, width=room)
        if seat.deals_first:
            name, size = pen.fit(seat.name, 14, room, bold=True)
            pen.text(x + 20 + pen.text_width(name, size, bold=True) + 4, baseline + 1, "●", size=8)
        if seat.club:
            pen.text(
                x + COLUMN_WIDTH - 6 - club_width,
                baseline,
                seat.club,
                size=8,
                width=club_width,
                color=MUTED,
            )
        baseline -= SEAT_LINE


CHECK_IN_HEIGHT = 48


def draw_check_in(pen: Pen, top: float, *, notice: CheckInNotice) -> None:
    """The round being prepared: its check-in page and code, in a box above the tables."""
    height = CHECK_IN_HEIGHT - 10
    pen.box(MARGIN, top - height, CONTENT_WIDTH, height, line=1.5, stroke=INK, fill=SHADE)
    code_width = CONTENT_WIDTH * 0.3
    title = _("Check-in for round %(number)s") % {"number": notice.round_number}
    text_width = CONTENT_WIDTH - code_width - 16
    pen.text(MARGIN + 8, top - 16, title, size=13, bold=True, width=text_width)
    pen.text(MARGIN + 8, top - 31, notice.address, size=9, width=text_width, color=MUTED)
    pen.text(
        MARGIN + CONTENT_WIDTH - 8 - code_width,
        top - 29,
        notice.code,
        size=24,
        bold=True,
        align="right",
        width=code_width,
    )


def draw_section_title(pen: Pen, top: float, *, text: str, note: str) -> None:
    pen.text(MARGIN, top - 18, text, size=16, bold=True, width=CONTENT_WIDTH * 0.6)
    pen.text(
        MARGIN + CONTENT_WIDTH * 0.6,
        top - 18,
        note,
        size=8.5,
        align="right",
        width=CONTENT_WIDTH * 0.4,
        color=MUTED,
    )


def player_columns(licences: bool) -> tuple[float, float, float, float]:
    """Widths of the name, licence, table and seat in one column of the alphabetical list."""
    table, seat = 40.0, 30.0
    licence = 52.0 if licences else 0.0
    return COLUMN_WIDTH - table - seat - licence, licence, table, seat


def draw_player_header(pen: Pen, top: float, *, x: float, licences: bool) -> None:
    name, licence, table, seat = player_columns(licences)
    baseline = top - 11
    pen.line(
        x, top - PLAYER_HEADER + 2, x + COLUMN_WIDTH, top - PLAYER_HEADER + 2, width=0.9, color=INK
    )
    pen.text(x + 4, baseline, _("Player"), size=8, bold=True, color=MUTED)
    if licences:
        pen.text(x + name, baseline, _("Licence"), size=8, bold=True, width=licence, color=MUTED)
    pen.text(
        x + name + licence,
        baseline,
        _("Table"),
        size=8,
        bold=True,
        align="right",
        width=table,
        color=MUTED,
    )
    pen.text(
        x + name + licence + table,
        baseline,
        _("Seat"),
        size=8,
        bold=True,
        align="right",
        width=seat - 4,
        color=MUTED,
    )


def draw_player(
    pen: Pen, top: float, *, player: SeatingPlayer, x: float, licences: bool, shaded: bool
) -> None:
    name, licence, table, seat = player_columns(licences)
    if shaded:
        pen.box(x, top - PLAYER_LINE, COLUMN_WIDTH, PLAYER_LINE, stroke=None, fill=ZEBRA)
    baseline = top - PLAYER_LINE + 5
    pen.text(x + 4, baseline, player.name, size=13, bold=True, width=name - 8)
    if licences:
        pen.text(x + name, baseline, player.licence, size=8, width=licence - 4, color=MUTED)
    pen.text(
        x + name + licence,
        baseline,
        str(player.table),
        size=15,
        bold=True,
        align="right",
        width=table,
    )
    pen.text(
        x + name + licence + table,
        baseline,
        str(player.seat),
        size=11,
        align="right",
        width=seat - 4,
        color=MUTED,
    )


def render_seating_list(document: SeatingList) -> bytes:
    event = document.event
    licences = event.variant.licences
    round_title = _("Seating, round %(number)d") % {"number": document.round_number}
    buffer, pen = open_document(page_size=PORTRAIT, title=round_title, subject=event.name)
    # Every page has the full heading: the sheets hang on the wall one by one.
    content_top = pen.height - MARGIN - heading_height(event)
    flow = Flow(first_top=content_top, next_top=content_top, bottom=MARGIN + 6)

    # By table: cards in two columns, row by row; a row of cards as high as its larger table
    # (with tables of 4 first and of 3 last, the rows of tables of 3 take less paper).
    def pair_height(pair: tuple[SeatingTable, ...]) -> float:
        return card_height(max(len(table.seats) for table in pair))

    pairs = [document.tables[index : index + 2] for index in range(0, len(document.tables), 2)]
    if document.check_in is not None:
        flow.add(CHECK_IN_HEIGHT, partial(draw_check_in, notice=document.check_in))
    flow.add(
        SECTION_TITLE,
        partial(
            draw_section_title,
            text=_("By table"),
            note=_("● deals first; seats in order to the left"),
        ),
        keep_with=pair_height(pairs[0]) if pairs else 0,
    )
    for pair in pairs:
        height = pair_height(pair)

        def draw_pair(
            pen: Pen, top: float, pair: tuple[SeatingTable, ...] = pair, height: float = height
        ) -> None:
            for column, table in enumerate(pair):
                draw_card(
                    pen,
                    top,
                    table=table,
                    x=MARGIN + column * (COLUMN_WIDTH + COLUMN_GAP),
                    height=height,
                )

        flow.add(height + CARD_GAP, draw_pair)

    # Alphabetically: a new page, two columns, down the left column and then the right one.
    flow.new_page()
    flow.add(
        SECTION_TITLE,
        partial(
            draw_section_title, text=_("Players A–Ž"), note=_("table and seat of every player")
        ),
    )
    rows_per_column = int((flow.y - flow.bottom - PLAYER_HEADER) // PLAYER_LINE)
    first = True
    remaining = list(document.players)
    while remaining:
        if not first:
            flow.new_page()
            rows_per_column = int((flow.y - flow.bottom - PLAYER_HEADER) // PLAYER_LINE)
        first = False
        page_players = remaining[: 2 * rows_per_column]
        remaining = remaining[2 * rows_per_column :]
        columns = (page_players[:rows_per_column], page_players[rows_per_column:])

        def draw_columns(pen: Pen, top: float, columns=columns) -> None:
            for index, players in enumerate(columns):
                if not players:
                    continue
                x = MARGIN + index * (COLUMN_WIDTH + COLUMN_GAP)
                draw_player_header(pen, top, x=x, licences=licences)
                y = top - PLAYER_HEADER
                for row, player in enumerate(players):
                    draw_player(pen, y, player=player, x=x, licences=licences, shaded=row % 2 == 1)
                    y -= PLAYER_LINE

        flow.add(PLAYER_HEADER + len(columns[0]) * PLAYER_LINE, draw_columns)

    flow.render(
        pen,
        heading=partial(draw_heading, event=event, title=round_title),
        footer=partial(draw_footer, event=event, what=round_title),
    )
    return close_document(buffer, pen)
