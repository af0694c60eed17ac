"""Table score sheets: one A4 page per table, blank for the tables that keep paper, filled from
the entered deals after play (the official protocol of the table).

The page is drawn at fixed positions: the deal rows share the height left between the heading
and the foot of the page (24 deals at a table of 4 get rows of about 5.5 mm, 28 about 4.5 mm).
Rows are never set smaller than `MIN_ROW`, still enough to write in: a round with more deals
than one page holds at that height (from about 30) goes on over continuation pages, its rows
shared evenly between them, the settlement, tallies and signatures on the last. What is printed
comes from `documents.selectors`; every score, total and settlement on a filled sheet is
the engine's.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _
from reportlab.lib import colors

from documents.layout import (
    FEDERATION_HEIGHT,
    Column,
    column_edges,
    draw_column_titles,
    draw_federation,
    draw_footer,
    draw_grid_lines,
    draw_signatures,
)
from documents.pen import (
    ALERT,
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
from documents.sheet_data import (
    CONTENT_WIDTH,
    CONTINUED_HEADING,
    FOOT_HEIGHT,
    GRID_HEADER,
    HEADING_LINES,
    MAX_ROW,
    MIN_ROW,
    PAGE_FOOT,
    PLAYER_ROW,
    QR_SIZE,
    RULES_LEADING,
    RULES_LINES,
    RULES_SIZE,
    STATUS_LINE,
    RoundSheets,
    ScoreSheet,
    SheetDeal,
    signed,
    total_text,
)
from documents.sheet_foot import draw_check, draw_summary, draw_tallies


def deal_columns(size: int) -> tuple[tuple[Column, ...], float]:
    """The deal grid's columns before the players', and the width of a player's column."""
    return _deal_columns(get_language(), size)


@functools.lru_cache(maxsize=32)
def _deal_columns(language: str | None, size: int) -> tuple[tuple[Column, ...], float]:
    """`deal_columns` in `language` (the active one): translated once, not on every page."""
    dealer_title = _("Dealer (sits out)") if size == 4 else _("Dealer")
    columns = [
        Column(_("No."), 18, "center", bold=True),
        Column(dealer_title, 72),
        Column(_("Game"), 50),
        Column(_("Declarer"), 70),
        # The declarer's card points (acis), not game points: the same English word.
        Column(pgettext("score sheet: the declarer's card points", "Points"), 30, "center"),
        Column(pgettext("score sheet: the declarer's tricks", "Tricks"), 28, "center"),
        Column(_("Pules"), 30, "center"),
    ]
    used = sum(column.width for column in columns)
    return tuple(columns), (CONTENT_WIDTH - used) / size


@dataclass(frozen=True)
class SheetHeading:
    """What the first page says under the round and table, each line known before it is drawn:
    the status lines (text, size, bold, colour) and the round's rules, wrapped."""

    status: tuple[tuple[str, float, bool, colors.Color], ...]
    rules: tuple[str, ...]

    @property
    def height(self) -> float:
        text = HEADING_LINES + STATUS_LINE * len(self.status) + RULES_LEADING * len(self.rules)
        return max(text, QR_SIZE + 10)


def sheet_heading(pen: Pen, sheet: ScoreSheet) -> SheetHeading:
    status: list[tuple[str, float, bool, colors.Color]] = []
    if sheet.status:
        status.append((sheet.status, 8.5, False, MUTED))
    if sheet.time_called_after is not None:
        called = _("Time called after deal %(number)d.") % {"number": sheet.time_called_after}
        status.append((called, 8.5, True, INK))
    if sheet.error:
        status.append((_("Not scored: %(reason)s") % {"reason": sheet.error}, 8, False, ALERT))
    rules: tuple[str, ...] = ()
    if sheet.rules:
        text = _("This round's rules: %(rules)s") % {"rules": " · ".join(sheet.rules)}
        rules = tuple(pen.wrap(text, heading_text_width(), size=RULES_SIZE, max_lines=RULES_LINES))
    return SheetHeading(status=tuple(status), rules=rules)


def heading_text_width() -> float:
    return CONTENT_WIDTH - QR_SIZE - 12


def players_height(sheet: ScoreSheet) -> float:
    return 11 + sheet.size * PLAYER_ROW + 10


@dataclass(frozen=True)
class SheetLayout:
    """A table's sheet placed on its pages before anything is drawn: the heading, the deal rows
    each page holds (indexes into `ScoreSheet.deals`) and the one row height they all share."""

    heading: SheetHeading
    pages: tuple[range, ...]
    row_height: float


def sheet_layout(pen: Pen, document: RoundSheets, sheet: ScoreSheet) -> SheetLayout:
    heading = sheet_heading(pen, sheet)
    top = pen.height - MARGIN - (FEDERATION_HEIGHT if document.event.variant.federation else 0)
    first_grid = top - heading.height - players_height(sheet) - GRID_HEADER
    next_grid = top - CONTINUED_HEADING - GRID_HEADER
    foot, page_foot = MARGIN + FOOT_HEIGHT, MARGIN + PAGE_FOOT
    rows = max(len(sheet.deals), 1)
    if rows * MIN_ROW <= first_grid - foot:
        one = (range(len(sheet.deals)),)
        return SheetLayout(heading, one, min(MAX_ROW, (first_grid - foot) / rows))
    # Over pages: as many as the rows need at the smallest height, the rows shared evenly.
    room = (first_grid - page_foot, next_grid - page_foot, next_grid - foot)
    per_page = math.ceil(rows / math.ceil(rows / math.floor(min(room) / MIN_ROW)))
    pages = tuple(range(start, min(start + per_page, rows)) for start in range(0, rows, per_page))
    heights = [
        (room[0] if index == 0 else room[2] if index == len(pages) - 1 else room[1]) / len(part)
        for index, part in enumerate(pages)
    ]
    return SheetLayout(heading, pages, min(MAX_ROW, *heights))


def render_score_sheets(document: RoundSheets) -> bytes:
    event = document.event
    buffer, pen = open_document(
        page_size=PORTRAIT,
        title=_("Score sheets, round %(number)d") % {"number": document.round_number},
        subject=event.name,
    )
    # Every sheet placed first, so that the footer can say "page x of y".
    layouts = [sheet_layout(pen, document, sheet) for sheet in document.sheets]
    pages = sum(len(layout.pages) for layout in layouts)
    page = 0
    for sheet, layout in zip(document.sheets, layouts, strict=True):
        what = _("Round %(round)d · table %(table)d") % {
            "round": document.round_number,
            "table": sheet.table_number,
        }
        for index, rows in enumerate(layout.pages):
            page += 1
            draw_score_sheet_page(
                pen,
                document,
                sheet,
                layout,
                rows=rows,
                first=index == 0,
                last=index == len(layout.pages) - 1,
            )
            draw_footer(pen, page, pages, event=event, what=what)
            pen.end_page()
    return close_document(buffer, pen)


def draw_score_sheet_page(
    pen: Pen,
    document: RoundSheets,
    sheet: ScoreSheet,
    layout: SheetLayout,
    *,
    rows: range,
    first: bool,
    last: bool,
) -> None:
    """One page of a table's sheet: the heading and the players on the first, a short heading
    on a continuation page; the summary, tallies and signatures on the last."""
    top = draw_federation(pen, document.event.variant, pen.height - MARGIN)
    if first:
        y = draw_sheet_heading(pen, document, sheet, layout.heading, top)
        y = draw_players(pen, sheet, y)
    else:
        y = draw_continued_heading(pen, document, sheet, rows, top)
    columns, player_width = deal_columns(sheet.size)
    deals = [sheet.deals[index] for index in rows]
    y = draw_deals(pen, sheet, deals, columns, player_width, top=y, row_height=layout.row_height)
    if not last:
        more = _("Continued on the next page: deals %(first)d–%(last)d.") % {
            "first": rows.stop + 1,
            "last": len(sheet.deals),
        }
        pen.text(MARGIN + CONTENT_WIDTH, y - 10, more, size=7.5, align="right", color=MUTED)
        return
    y = draw_summary(pen, sheet, columns, player_width, top=y)
    y = draw_check(pen, sheet, y)
    y = draw_tallies(pen, document, sheet, y)
    labels = [f"{player.seat}. {player.name}" for player in sheet.players]
    labels.append(_("Table referee"))
    draw_signatures(pen, labels, x=MARGIN, y=MARGIN + 16, width=CONTENT_WIDTH, per_row=len(labels))


def round_and_table(document: RoundSheets, sheet: ScoreSheet) -> str:
    return _("Round %(round)d · Table %(table)d") % {
        "round": document.round_number,
        "table": sheet.table_number,
    }


def draw_continued_heading(
    pen: Pen, document: RoundSheets, sheet: ScoreSheet, rows: range, top: float
) -> float:
    y = top - 14
    title_width = CONTENT_WIDTH * 0.45
    pen.text(MARGIN, y, round_and_table(document, sheet), size=13, bold=True, width=title_width)
    continued = _("Score sheet, continued: deals %(first)d–%(last)d") % {
        "first": rows.start + 1,
        "last": rows.stop,
    }
    pen.text(
        MARGIN + title_width,
        y,
        continued,
        size=9,
        align="right",
        width=CONTENT_WIDTH - title_width,
        color=MUTED,
    )
    y -= 12
    pen.text(MARGIN, y, document.event.name, size=8, width=CONTENT_WIDTH, color=MUTED)
    return top - CONTINUED_HEADING


def draw_sheet_heading(
    pen: Pen, document: RoundSheets, sheet: ScoreSheet, heading: SheetHeading, top: float
) -> float:
    event = document.event
    text_width = heading_text_width()
    title = _("Score sheet: table protocol") if sheet.filled else _("Score sheet")
    y = top - 15
    pen.text(MARGIN, y, title, size=15, bold=True, width=text_width)
    y -= 15
    pen.text(MARGIN, y, event.name, size=11, bold=True, width=text_width)
    y -= 12
    pen.text(MARGIN, y, event.place_and_date, size=8.5, width=text_width, color=MUTED)
    y -= 22
    pen.text(
        MARGIN, y, round_and_table(document, sheet), size=17, bold=True, width=text_width * 0.62
    )
    deals = _("%(count)d deals, %(size)d players") % {
        "count": len(sheet.deals),
        "size": sheet.size,
    }
    pen.text(
        MARGIN + text_width * 0.62,
        y,
        deals,
        size=9,
        align="right",
        width=text_width * 0.38,
        color=MUTED,
    )
    y -= 13
    for text, size, bold, color in heading.status:
        pen.text(MARGIN, y, text, size=size, bold=bold, width=text_width, color=color)
        y -= STATUS_LINE
    for line in heading.rules:
        pen.text(MARGIN, y, line, size=RULES_SIZE, width=text_width, color=MUTED)
        y -= RULES_LEADING

    # The QR code in the top right corner: the table's entry page on a phone.
    qr_x = MARGIN + CONTENT_WIDTH - QR_SIZE
    qr_y = top - QR_SIZE
    if sheet.entry_url:
        pen.qr(sheet.entry_url, x=qr_x, y=qr_y, size=QR_SIZE)
        caption = _("Scan: the table's entry page")
    else:
        pen.box(qr_x + 8, qr_y + 8, QR_SIZE - 16, QR_SIZE - 16, line=0.5)
        pen.text(
            qr_x + 8,
            qr_y + QR_SIZE / 2,
            _("no entry link yet"),
            size=6.5,
            align="center",
            width=QR_SIZE - 16,
            color=MUTED,
        )
        caption = _("Publish the round for its link")
    pen.text(qr_x, qr_y - 2, caption, size=6, align="center", width=QR_SIZE, color=MUTED)
    return top - heading.height


@functools.lru_cache(maxsize=8)
def _player_columns(language: str | None) -> tuple[Column, ...]:
    """The players' table's columns in `language` (the active one): translated once."""
    return (
        Column(_("Seat"), 28, "center", bold=True),
        Column(_("Player"), 200, bold=True),
        Column(_("Club"), 170),
        Column(_("Licence"), 79),
        Column(_("Deals first"), CONTENT_WIDTH - 477, "center"),
    )


def draw_players(pen: Pen, sheet: ScoreSheet, top: float) -> float:
    columns = _player_columns(get_language())
    widths = [column.width for column in columns]
    pen.static(
        ("players", top, sheet.size),
        lambda: draw_grid_lines(
            pen,
            x=MARGIN,
            top=top,
            widths=widths,
            header_height=11,
            row_height=PLAYER_ROW,
            rows=sheet.size,
        ),
    )
    draw_column_titles(pen, x=MARGIN, top=top, columns=columns, header_height=11, header_size=6.5)
    baseline = top - 11 - PLAYER_ROW + 4
    for player in sheet.players:
        values = [
            str(player.seat),
            player.name,
            player.club,
            player.licence,
            "●" if player.deals_first else "",
        ]
        left = MARGIN
        for column, value in zip(columns, values, strict=True):
            pen.text(
                left + 3,
                baseline,
                value,
                size=9,
                bold=column.bold,
                align=column.align,
                width=column.width - 6,
            )
            left += column.width
        baseline -= PLAYER_ROW
    return top - 11 - sheet.size * PLAYER_ROW - 10


def draw_deals(
    pen: Pen,
    sheet: ScoreSheet,
    deals: Sequence[SheetDeal],
    columns: Sequence[Column],
    player_width: float,
    *,
    top: float,
    row_height: float,
) -> float:
    """The grid of `deals` (all of the sheet's, or one page's run of them) under its header."""
    player_columns = [
        Column(f"{player.seat}. {player.short_name}", player_width, "center")
        for player in sheet.players
    ]
    all_columns = [*columns, *player_columns]
    edges = column_edges(MARGIN, all_columns)
    rows_top = top - GRID_HEADER
    rows_bottom = rows_top - len(deals) * row_height
    unplayed = [index for index, deal in enumerate(deals) if not_played(sheet, deal.number)]
    unplayed_set = set(unplayed)
    # The lines and the shading come back the same on every sheet of the round laid out alike:
    # drawn once, into a form, for all of them (the key names everything they depend on).
    dealers = tuple(deal.dealer_seat for deal in deals) if sheet.size == 4 else ()
    key = (
        "deals",
        sheet.size,
        top,
        row_height,
        tuple(deal.number % 2 for deal in deals),
        tuple(unplayed),
        dealers,
    )
    pen.static(
        key,
        lambda: draw_deal_lines(
            pen, sheet, deals, all_columns, unplayed_set, top=top, row_height=row_height
        ),
    )
    draw_column_titles(
        pen, x=MARGIN, top=top, columns=all_columns, header_height=GRID_HEADER, header_size=7
    )

    draw_deal_rows(
        pen,
        sheet,
        deals,
        columns,
        edges,
        unplayed_set,
        player_width=player_width,
        rows_top=rows_top,
        row_height=row_height,
    )
    return rows_bottom


def draw_deal_rows(
    pen: Pen,
    sheet: ScoreSheet,
    deals: Sequence[SheetDeal],
    columns: Sequence[Column],
    edges: Sequence[float],
    unplayed: set[int],
    *,
    player_width: float,
    rows_top: float,
    row_height: float,
) -> None:
    """The deal rows' writing: the deal's columns, then each seat's score and running total.
    Some 300 strings a page, the bulk of a sheet's text: everything a row's cells share (their
    edges, widths, type) is worked out once for the grid, not once a cell."""
    size = min(8.5, row_height * 0.55)
    small, total_size = size * 0.8, size + 0.5
    not_played_text = pgettext("score sheet: a deal the round never reached", "not played")
    # Each dealer's label written once for the sheet, not once a row.
    dealer_labels = [f"{player.seat}. {player.short_name}" for player in sheet.players]
    cells = [
        (left + 2, column.width - 4, column.bold, column.align)
        for column, left in zip(columns, edges, strict=False)
    ]
    seat_lefts = [left + 2 for left in edges[len(columns) : -1]]
    total_width = player_width - 5
    text = pen.text
    for index, deal in enumerate(deals):
        baseline = rows_top - index * row_height - row_height / 2 - size / 3
        skipped = index in unplayed
        values = (
            str(deal.number),
            dealer_labels[deal.dealer_seat - 1],
            not_played_text if skipped else deal.game,
            deal.declarer,
            deal.points,
            deal.tricks,
            deal.pule_marks,
        )
        row_color = MUTED if skipped else INK
        # The dealer is muted on a row not scored yet: he is all the row says.
        dealer_color = MUTED if skipped or deal.totals is None else INK
        for cell, ((x, width, bold, align), value) in enumerate(zip(cells, values, strict=True)):
            color = dealer_color if cell == 1 else row_color
            text(x, baseline, value, size=size, bold=bold, align=align, width=width, color=color)
        if deal.totals is None or deal.scores is None:
            continue
        # Each seat's score, small in the corner, then each seat's running total: one change
        # of type and colour for the row's scores and one for its totals.
        for x, score in zip(seat_lefts, deal.scores, strict=True):
            if score:
                text(x, baseline, signed(score), size=small, color=MUTED)
        for x, total in zip(seat_lefts, deal.totals, strict=True):
            text(
                x,
                baseline,
                total_text(total),
                size=total_size,
                bold=True,
                align="right",
                width=total_width,
            )


def draw_deal_lines(
    pen: Pen,
    sheet: ScoreSheet,
    deals: Sequence[SheetDeal],
    all_columns: Sequence[Column],
    unplayed_set: set[int],
    *,
    top: float,
    row_height: float,
) -> None:
    """The deal grid's lines and shading (see `draw_deals`)."""
    edges = column_edges(MARGIN, all_columns)
    player_width = all_columns[-1].width
    first_player_edge = edges[len(all_columns) - sheet.size]
    rows_top = top - GRID_HEADER
    rows_bottom = rows_top - len(deals) * row_height
    unplayed = sorted(unplayed_set)
    # Shading first, so the lines and the writing lie on top of it: every other row, at a table
    # of 4 the sitting-out dealer's box (nothing is written there but his share), and the rows
    # a round whose time was called never played.
    # The zebra rows first, then the darker shading over them: one path for each.
    for index, deal in enumerate(deals):
        if deal.number % 2 == 0 and index not in unplayed_set:
            row_bottom = rows_top - (index + 1) * row_height
            pen.box(MARGIN, row_bottom, CONTENT_WIDTH, row_height, stroke=None, fill=ZEBRA)
    for index, deal in enumerate(deals):
        row_bottom = rows_top - (index + 1) * row_height
        if index in unplayed_set:
            pen.box(MARGIN, row_bottom, CONTENT_WIDTH, row_height, stroke=None, fill=SHADE)
        elif sheet.size == 4:
            left = first_player_edge + (deal.dealer_seat - 1) * player_width
            pen.box(left, row_bottom, player_width, row_height, stroke=None, fill=SHADE)
    draw_grid_lines(
        pen,
        x=MARGIN,
        top=top,
        widths=[column.width for column in all_columns],
        header_height=GRID_HEADER,
        row_height=row_height,
        rows=len(deals),
    )
    pen.line(first_player_edge, top, first_player_edge, rows_bottom, width=1, color=INK)
    if unplayed:
        # Struck through, as a referee crosses out the rows left empty on paper.
        block_top = rows_top - unplayed[0] * row_height
        block_bottom = rows_top - (unplayed[-1] + 1) * row_height
        pen.line(first_player_edge, block_top, edges[-1], block_bottom, width=1, color=MUTED)


def not_played(sheet: ScoreSheet, number: int) -> bool:
    """A deal the round never reached: its time was called after an earlier one."""
    return sheet.time_called_after is not None and number > sheet.time_called_after
