"""The foot of a score sheet: the settlement, totals, places and place points, the control check
and the pule tallies."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from documents.layout import (
    Column,
)
from documents.pen import (
    ALERT,
    INK,
    MARGIN,
    MUTED,
    SHADE,
    Pen,
)
from documents.sheet_data import (
    CHECK_HEIGHT,
    CONTENT_WIDTH,
    SUMMARY_ROW,
    TALLY_BOX,
    TALLY_HEIGHT,
    PuleTally,
    RoundSheets,
    ScoreSheet,
    pule_letters,
    signed,
    total_text,
)


def draw_summary(
    pen: Pen, sheet: ScoreSheet, columns: Sequence[Column], player_width: float, *, top: float
) -> float:
    """The end-of-round settlement, the totals, places and place points: one row each under the
    players' columns."""
    label_width = sum(column.width for column in columns)
    first_player_edge = MARGIN + label_width
    rows: list[tuple[str, Sequence[str] | None, bool]] = [
        (
            _("End-of-round settlement (open personal pules)"),
            [signed(value) for value in sheet.settlement] if sheet.settlement else None,
            False,
        ),
        (_("Total"), [total_text(value) for value in sheet.totals] if sheet.totals else None, True),
        (_("Place"), list(sheet.places) if sheet.places else None, False),
        (_("Place points"), list(sheet.place_points) if sheet.place_points else None, False),
    ]
    pen.static(
        ("summary", top, sheet.size, label_width, player_width),
        lambda: draw_summary_lines(
            pen, sheet, [bold for *_, bold in rows], label_width, player_width, top
        ),
    )
    y = top
    for label, values, bold in rows:
        bottom = y - SUMMARY_ROW
        baseline = bottom + 4
        pen.text(MARGIN, baseline, label, size=8, bold=bold, align="right", width=label_width - 6)
        for seat, value in enumerate(values or ()):
            left = first_player_edge + seat * player_width
            pen.text(
                left + 2,
                baseline,
                value,
                size=9.5 if bold else 8.5,
                bold=bold,
                align="right",
                width=player_width - 5,
            )
        y = bottom
    return y


def draw_summary_lines(
    pen: Pen,
    sheet: ScoreSheet,
    bolds: Sequence[bool],
    label_width: float,
    player_width: float,
    top: float,
) -> None:
    """The summary rows' boxes and lines (see `draw_summary`)."""
    first_player_edge = MARGIN + label_width
    y = top
    for bold in bolds:
        bottom = y - SUMMARY_ROW
        pen.box(
            first_player_edge,
            bottom,
            player_width * sheet.size,
            SUMMARY_ROW,
            line=0.9 if bold else 0.5,
            stroke=INK if bold else None,
            fill=SHADE if bold else None,
        )
        for seat in range(sheet.size + 1):
            x = first_player_edge + seat * player_width
            pen.line(x, y, x, bottom, width=0.35)
        pen.line(
            first_player_edge,
            bottom,
            first_player_edge + player_width * sheet.size,
            bottom,
            width=0.35,
        )
        y = bottom


def draw_check(pen: Pen, sheet: ScoreSheet, top: float) -> float:
    baseline = top - 11
    if sheet.is_complete and sheet.zero_sum is not None:
        if sheet.zero_sum:
            text = _("Check: the totals add up to 0 ✓")
            color = INK
        else:
            text = _("Check failed: the totals add up to %(sum)s ✗") % {
                "sum": total_text(sheet.totals_sum or 0)
            }
            color = ALERT
        pen.text(
            MARGIN + CONTENT_WIDTH, baseline, text, size=8.5, bold=True, align="right", color=color
        )
    else:
        text = _("Check: the totals must add up to 0.")
        pen.text(MARGIN + CONTENT_WIDTH, baseline, text, size=8, align="right", color=MUTED)
    return top - CHECK_HEIGHT


def draw_tally_boxes(
    pen: Pen, x: float, baseline: float, count: int, tally: PuleTally | None
) -> None:
    """Boxes to tally pules in: a written pule gets a stroke, a crossed-out one a cross. The
    boxes themselves are `draw_tally_box_outlines`'; here the strokes and crosses."""
    if tally is None:
        return
    for index in range(count):
        left = x + index * (TALLY_BOX + 2)
        bottom = baseline - 1.5
        if index < tally.written:
            pen.line(
                left + 1.5,
                bottom + 1.5,
                left + TALLY_BOX - 1.5,
                bottom + TALLY_BOX - 1.5,
                width=1,
                color=INK,
            )
        if index < tally.crossed:
            pen.line(
                left + 1.5,
                bottom + TALLY_BOX - 1.5,
                left + TALLY_BOX - 1.5,
                bottom + 1.5,
                width=1,
                color=INK,
            )


def draw_tally_box_outlines(pen: Pen, x: float, baselines: Sequence[float], count: int) -> None:
    for baseline in baselines:
        for index in range(count):
            left = x + index * (TALLY_BOX + 2)
            pen.box(left, baseline - 1.5, TALLY_BOX, TALLY_BOX, line=0.5)


def tally_text(tally: PuleTally) -> str:
    return _("written %(written)d · crossed out %(crossed)d · open %(open)d") % {
        "written": tally.written,
        "crossed": tally.crossed,
        "open": tally.open,
    }


def draw_tallies(pen: Pen, document: RoundSheets, sheet: ScoreSheet, top: float) -> float:
    """The pule tally boxes (common, then each player's personal pules), the marks' legend and
    the penalty pules. A tournament where everyone passing plays galdiņš has no pules at all."""
    if not document.pules:
        note = _("Everyone passing plays galdiņš in this round: no pules are written.")
        pen.text(MARGIN, top - 10, note, size=7.5, width=CONTENT_WIDTH, color=MUTED)
        return top - TALLY_HEIGHT
    left_width = 350
    line_height = 11
    baseline = top - 10
    pen.text(MARGIN, baseline, _("Pules"), size=8, bold=True)
    label_width = 88
    box_count = 14
    boxes_x = MARGIN + label_width
    text_x = boxes_x + box_count * (TALLY_BOX + 2) + 4
    lines: list[tuple[str, PuleTally | None]] = [(_("Common"), sheet.common_pules)]
    for seat, player in enumerate(sheet.players):
        tally = sheet.personal_pules[seat] if sheet.personal_pules else None
        lines.append((f"{player.seat}. {player.short_name}", tally))
    baselines = [baseline - line_height * (index + 1) for index in range(len(lines))]
    pen.static(
        ("tally boxes", boxes_x, tuple(baselines), box_count),
        lambda: draw_tally_box_outlines(pen, boxes_x, baselines, box_count),
    )
    for label, tally in lines:
        baseline -= line_height
        pen.text(MARGIN + 8, baseline, label, size=7.5, width=label_width - 10)
        # More pules than boxes is rare; the counts beside the boxes are always complete.
        draw_tally_boxes(pen, boxes_x, baseline, box_count, tally)
        if tally is not None:
            pen.text(
                text_x,
                baseline,
                tally_text(tally),
                size=6.5,
                color=MUTED,
                width=MARGIN + left_width - text_x,
            )

    # The marks' legend and the penalty pules, on the right.
    right_x = MARGIN + left_width + 8
    right_width = MARGIN + CONTENT_WIDTH - right_x
    common, personal = pule_letters()
    legend = _(
        "Pules column: %(common)s+ common pule written, %(common)s− common pule collected; "
        "%(personal)s2+ personal pule of player 2 written, %(personal)s2− crossed out. At the end "
        "each open personal pule costs its owner 1 point to every other player; common pules "
        "lapse."
    ) % {"common": common, "personal": personal}
    y = pen.lines(
        legend, right_x, top - 10, right_width, size=6.5, leading=8, max_lines=6, color=MUTED
    )
    if sheet.penalties:
        text = _("Penalty pules: %(list)s") % {"list": "; ".join(sheet.penalties)}
        pen.lines(text, right_x, y - 2, right_width, size=7, leading=8.5, max_lines=3)
    elif not sheet.filled:
        pen.text(
            right_x, y - 2, _("Penalty pules (player, before deal):"), size=7, width=right_width
        )
        pen.line(right_x, y - 18, right_x + right_width, y - 18, width=0.4)
    return top - TALLY_HEIGHT
