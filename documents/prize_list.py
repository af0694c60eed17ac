"""The prize list: the fund (the fees paid, by fee category), the share kept for costs and each
prized place's prize from the standings, tied players sharing; signed like the standings
protocol, by the chief referee(s) and the secretary, with the organiser who pays the prizes."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from django.utils.translation import gettext as _

from documents.layout import (
    Column,
    EventInfo,
    Flow,
    column_edges,
    draw_footer,
    draw_heading,
    draw_signatures,
    heading_height,
)
from documents.pen import (
    ALERT,
    INK,
    MARGIN,
    PORTRAIT,
    SHADE,
    ZEBRA,
    Pen,
    close_document,
    open_document,
)


@dataclass(frozen=True)
class PrizeLine:
    place: str  # "2–3" when shared
    name: str
    club: str
    amount: str  # "48,00 €"


@dataclass(frozen=True)
class FundLine:
    category: str
    fee: str
    paid: int
    amount: str


@dataclass(frozen=True)
class PrizeDocument:
    event: EventInfo
    subtitle: str
    note: str  # a provisional list, or why there is none
    fund_lines: tuple[FundLine, ...]
    fund: str
    costs: str  # "20 %: 48,00 €"
    pool: str
    prizes: tuple[PrizeLine, ...]
    prizes_total: str
    chief_referees: tuple[str, ...]


CONTENT_WIDTH = PORTRAIT[0] - 2 * MARGIN
ROW = 15
HEADER = 18
SIGNATURE_ROW = 34


def _row(pen: Pen, top: float, *, columns: list[Column], values: list[str], shaded: bool) -> None:
    edges = column_edges(MARGIN, columns)
    if shaded:
        pen.box(MARGIN, top - ROW, edges[-1] - MARGIN, ROW, stroke=None, fill=ZEBRA)
    for column, left, value in zip(columns, edges, values, strict=False):
        pen.text(
            left + 3,
            top - ROW + 4.5,
            value,
            size=9.5,
            bold=column.bold,
            align=column.align,
            width=column.width - 6,
        )


def _header(pen: Pen, top: float, *, columns: list[Column]) -> None:
    edges = column_edges(MARGIN, columns)
    pen.box(MARGIN, top - HEADER, edges[-1] - MARGIN, HEADER, stroke=None, fill=SHADE)
    pen.line(MARGIN, top - HEADER, edges[-1], top - HEADER, width=0.9, color=INK)
    for column, left in zip(columns, edges, strict=False):
        pen.text(
            left + 3,
            top - 12,
            column.title,
            size=8,
            bold=True,
            align=column.align,
            width=column.width - 6,
        )


def _text(pen: Pen, top: float, *, text: str, size: float = 11, bold: bool = True, color=INK):
    pen.text(MARGIN, top - size - 3, text, size=size, bold=bold, width=CONTENT_WIDTH, color=color)


def _signatures(pen: Pen, top: float, *, labels: list[str]) -> None:
    draw_signatures(
        pen, labels, x=MARGIN, y=top - 26, width=CONTENT_WIDTH, per_row=3, row_height=34
    )


def render_prize_list(document: PrizeDocument) -> bytes:
    event = document.event
    title = _("Prize list")
    buffer, pen = open_document(page_size=PORTRAIT, title=title, subject=event.name)
    top = pen.height - MARGIN - heading_height(event, subtitle=True)
    flow = Flow(first_top=top, next_top=top, bottom=MARGIN + 8)
    if document.note:
        flow.add(18, partial(_text, text=document.note, size=9, color=ALERT))

    # The fund, by fee category.
    fund_columns = [
        Column(_("Fee category"), 200, bold=True),
        Column(_("Fee"), 90, "right"),
        Column(_("Paid"), 80, "right"),
        Column(_("Paid in"), CONTENT_WIDTH - 370, "right", bold=True),
    ]
    flow.add(22, partial(_text, text=_("Prize fund")), keep_with=HEADER + ROW)
    flow.add(HEADER, partial(_header, columns=fund_columns))
    for index, line in enumerate(document.fund_lines):
        flow.add(
            ROW,
            partial(
                _row,
                columns=fund_columns,
                values=[line.category, line.fee, str(line.paid), line.amount],
                shaded=index % 2 == 1,
            ),
        )
    summary = [
        (_("Fund (fees paid)"), document.fund),
        (_("For costs"), document.costs),
        (_("Prizes"), document.pool),
    ]
    sum_columns = [Column("", CONTENT_WIDTH - 150, "right", bold=True), Column("", 150, "right")]
    for label, value in summary:
        flow.add(ROW, partial(_row, columns=sum_columns, values=[label, value], shaded=False))

    # The prizes, then the signatures on the page of the last rows.
    chiefs = [
        _("Chief referee: %(name)s") % {"name": name} for name in document.chief_referees
    ] or [_("Chief referee")]
    labels = [*chiefs, _("Secretary"), _("Prizes paid by")]
    signature_height = SIGNATURE_ROW * -(-len(labels) // 3) + 8
    prize_columns = [
        Column(_("Place"), 50, "center", bold=True),
        Column(_("Player"), 200, bold=True),
        Column(_("Club"), CONTENT_WIDTH - 370),
        Column(_("Prize"), 120, "right", bold=True),
    ]
    flow.skip(8)
    flow.add(22, partial(_text, text=_("Prizes by place")), keep_with=HEADER + ROW)
    header = partial(_header, columns=prize_columns)
    flow.add(HEADER, header)
    flow.repeat = (HEADER, header)
    last = len(document.prizes) - 1
    for index, prize in enumerate(document.prizes):
        flow.add(
            ROW,
            partial(
                _row,
                columns=prize_columns,
                values=[prize.place, prize.name, prize.club, prize.amount],
                shaded=index % 2 == 1,
            ),
            keep_with=ROW + signature_height if index == last else 0,
        )
    flow.repeat = None
    total_columns = [Column("", CONTENT_WIDTH - 120, "right", bold=True), Column("", 120, "right")]
    flow.add(
        ROW,
        partial(
            _row,
            columns=total_columns,
            values=[_("Prizes in all"), document.prizes_total],
            shaded=False,
        ),
    )
    flow.skip(8)
    flow.add(signature_height, partial(_signatures, labels=labels))
    flow.render(
        pen,
        heading=partial(draw_heading, event=event, title=title, subtitle=document.subtitle),
        footer=partial(draw_footer, event=event, what=f"{title} · {document.subtitle}"),
    )
    return close_document(buffer, pen)
