"""The standings protocol after a round or final: rank, player, club, place and game points and
each round's result, signed by the chief referee and the secretary. A national event's protocol
adds licence numbers, a signature line for every table referee of the round and each table's
control totals (game points add up to 0; each player's place points are what the round's scheme
gives for the table's game points)."""

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
    LANDSCAPE,
    MARGIN,
    MUTED,
    SHADE,
    ZEBRA,
    Pen,
    close_document,
    open_document,
)
from documents.sheet_data import signed, total_text


@dataclass(frozen=True)
class RoundCell:
    game_points: int
    place_points: str


@dataclass(frozen=True)
class ProtocolRow:
    rank: str  # "2–3" when shared
    name: str
    club: str
    licence: str
    place_points: str
    game_points: int
    rounds: dict[int, RoundCell]


@dataclass(frozen=True)
class ControlTotal:
    round_number: int
    table_number: int
    game_points: int  # the table's game points added up: 0
    place_points: str  # the table's place points added up
    balanced: bool  # game points add up to 0, each place and place points are the engine's


@dataclass(frozen=True)
class Protocol:
    event: EventInfo
    after_round: int
    # The last of the covered rounds with a confirmed table (0: none yet): what the title names,
    # since a round just published adds nothing to the standings.
    scored_round: int
    rounds_planned: int
    round_numbers: tuple[int, ...]  # the rounds shown as columns
    final: bool
    open_rounds: tuple[int, ...]  # covered rounds not closed yet: the protocol is provisional
    rows: tuple[ProtocolRow, ...]
    chief_referees: tuple[str, ...]
    referee_tables: tuple[int, ...]  # the tables of the last round, one referee line each
    controls: tuple[ControlTotal, ...]


CONTENT_WIDTH = LANDSCAPE[0] - 2 * MARGIN
HEADER_HEIGHT = 24
ROW_HEIGHT = 13.5
SECTION_TITLE = 24
CONTROL_ROW = 12
CONTROLS_PER_ROW = 4
REFEREES_PER_ROW = 4
REFEREE_ROW = 30


def subtitle(protocol: Protocol) -> str:
    if not protocol.round_numbers:
        return _("No round has been published yet")
    if protocol.final:
        return _("Final standings after round %(number)d") % {"number": protocol.after_round}
    if not protocol.scored_round:
        return _("Standings before round 1 of %(planned)d") % {"planned": protocol.rounds_planned}
    return _("Standings after round %(number)d of %(planned)d") % {
        "number": protocol.scored_round,
        "planned": protocol.rounds_planned,
    }


ROUNDS_CAPTION_SIZE = 6.5


def rounds_caption() -> str:
    return _("Rounds: game points (place points)")


def columns_for(protocol: Protocol, pen: Pen) -> tuple[list[Column], list[Column]]:
    """The fixed columns and one column per round, across the whole width of the page. Many
    rounds narrow the names and clubs, so that each round keeps room for "−12 (4⅓)"; few rounds
    leave width to the names and clubs (not all of it: a row must stay easy to follow across),
    and the rest to the rounds, whose caption is always printed whole."""
    licences = protocol.event.variant.licences
    many_rounds = len(protocol.round_numbers) > 6
    player, club = (130, 95) if many_rounds else (160, 120)
    fixed = [
        Column(_("Rank"), 30 if many_rounds else 34, "center", bold=True),
        Column(_("Player"), player if licences else player + 25, bold=True),
        Column(_("Club"), club if licences else club + 20),
    ]
    if licences:
        fixed.append(Column(_("Licence"), 54 if many_rounds else 62))
    fixed += [
        Column(_("Place points"), 44 if many_rounds else 48, "right", bold=True),
        Column(_("Game points"), 44 if many_rounds else 48, "right"),
    ]
    left = CONTENT_WIDTH - sum(column.width for column in fixed)
    count = max(len(protocol.round_numbers), 1)
    caption = pen.text_width(rounds_caption(), ROUNDS_CAPTION_SIZE, bold=True) + 6
    width = min(max(min(left / count, 80), caption / count), left / count)
    spare = left - width * count
    fixed[1] = Column(fixed[1].title, fixed[1].width + min(spare * 0.6, 90), bold=True)
    fixed[2] = Column(fixed[2].title, fixed[2].width + min(spare * 0.4, 70))
    # What the names and clubs do not take widens the rounds (the clubs, before any round): the
    # table meets the right margin.
    rest = CONTENT_WIDTH - sum(column.width for column in fixed) - width * count
    if protocol.round_numbers:
        width += rest / count
    else:
        fixed[2] = Column(fixed[2].title, fixed[2].width + rest + width)
    rounds = [Column(str(number), width, "center") for number in protocol.round_numbers]
    return fixed, rounds


def draw_table_header(pen: Pen, top: float, *, fixed: list[Column], rounds: list[Column]) -> None:
    columns = [*fixed, *rounds]
    edges = column_edges(MARGIN, columns)
    width = edges[-1] - MARGIN
    pen.box(MARGIN, top - HEADER_HEIGHT, width, HEADER_HEIGHT, stroke=None, fill=SHADE)
    pen.line(MARGIN, top, MARGIN + width, top, width=0.9, color=INK)
    pen.line(MARGIN, top - HEADER_HEIGHT, MARGIN + width, top - HEADER_HEIGHT, width=0.9, color=INK)
    for column, left in zip(fixed, edges, strict=False):
        pen.lines(
            column.title,
            left + 2,
            top - 10,
            column.width - 4,
            size=7,
            leading=8,
            max_lines=2,
            bold=True,
        )
    if not rounds:
        return
    # One caption over the rounds, each round's number under it.
    rounds_left = edges[len(fixed)]
    pen.text(
        rounds_left + 2,
        top - 9,
        rounds_caption(),
        size=ROUNDS_CAPTION_SIZE,
        bold=True,
        align="center",
        width=edges[-1] - rounds_left - 4,
    )
    pen.line(rounds_left, top - 12, edges[-1], top - 12, width=0.35)
    for column, left in zip(rounds, edges[len(fixed) :], strict=False):
        pen.text(
            left + 1,
            top - 20.5,
            column.title,
            size=7.5,
            bold=True,
            align="center",
            width=column.width - 2,
        )
        pen.line(
            left, top if left == rounds_left else top - 12, left, top - HEADER_HEIGHT, width=0.35
        )


def draw_row(
    pen: Pen,
    top: float,
    *,
    row: ProtocolRow,
    fixed: list[Column],
    rounds: list[Column],
    round_numbers: tuple[int, ...],
    shaded: bool,
) -> None:
    columns = [*fixed, *rounds]
    edges = column_edges(MARGIN, columns)
    width = edges[-1] - MARGIN
    if shaded:
        pen.box(MARGIN, top - ROW_HEIGHT, width, ROW_HEIGHT, stroke=None, fill=ZEBRA)
    baseline = top - ROW_HEIGHT + 4
    values = [row.rank, row.name, row.club]
    if len(fixed) == 6:
        values.append(row.licence)
    values += [row.place_points, total_text(row.game_points)]
    for column, left, value in zip(fixed, edges, values, strict=False):
        pen.text(
            left + 3,
            baseline,
            value,
            size=8.5,
            bold=column.bold,
            align=column.align,
            width=column.width - 6,
        )
    for column, left, number in zip(rounds, edges[len(fixed) : -1], round_numbers, strict=True):
        pen.line(left, top, left, top - ROW_HEIGHT, width=0.3)
        cell = row.rounds.get(number)
        if cell is None:
            pen.text(left, baseline, "–", size=8, align="center", width=column.width, color=MUTED)
            continue
        split = column.width * 0.55
        pen.text(
            left + 2, baseline, signed(cell.game_points), size=8, align="right", width=split - 2
        )
        pen.text(
            left + split + 3,
            baseline,
            f"({cell.place_points})",
            size=7.5,
            width=column.width - split - 5,
            color=MUTED,
        )


def draw_section_title(pen: Pen, top: float, *, text: str) -> None:
    pen.text(MARGIN, top - 16, text, size=11, bold=True, width=CONTENT_WIDTH)


def draw_note(pen: Pen, top: float, *, text: str) -> None:
    pen.text(MARGIN, top - 10, text, size=8.5, bold=True, width=CONTENT_WIDTH, color=ALERT)


def draw_signature_row(pen: Pen, top: float, *, labels: list[str], per_row: int) -> None:
    draw_signatures(
        pen,
        labels,
        x=MARGIN,
        y=top - 22,
        width=CONTENT_WIDTH,
        per_row=per_row,
        row_height=REFEREE_ROW,
    )


CONTROL_WIDTH = (CONTENT_WIDTH - (CONTROLS_PER_ROW - 1) * 12) / CONTROLS_PER_ROW


def draw_control_header(pen: Pen, top: float) -> None:
    for index in range(CONTROLS_PER_ROW):
        x = MARGIN + index * (CONTROL_WIDTH + 12)
        baseline = top - 9
        pen.text(x, baseline, _("Round"), size=6.5, bold=True, color=MUTED)
        pen.text(x + 34, baseline, _("Table"), size=6.5, bold=True, color=MUTED)
        pen.text(
            x + 68,
            baseline,
            _("Σ game p."),
            size=6.5,
            bold=True,
            align="right",
            width=46,
            color=MUTED,
        )
        pen.text(
            x + 118,
            baseline,
            _("Σ place p."),
            size=6.5,
            bold=True,
            align="right",
            width=46,
            color=MUTED,
        )
        pen.line(
            x, top - CONTROL_ROW + 1, x + CONTROL_WIDTH, top - CONTROL_ROW + 1, width=0.6, color=INK
        )


def draw_control_row(pen: Pen, top: float, *, items: tuple[ControlTotal, ...]) -> None:
    for index, item in enumerate(items):
        x = MARGIN + index * (CONTROL_WIDTH + 12)
        baseline = top - 9
        color = INK if item.balanced else ALERT
        pen.text(x, baseline, str(item.round_number), size=7.5, color=color)
        pen.text(x + 34, baseline, str(item.table_number), size=7.5, bold=True, color=color)
        pen.text(
            x + 68, baseline, str(item.game_points), size=7.5, align="right", width=46, color=color
        )
        pen.text(
            x + 118, baseline, item.place_points, size=7.5, align="right", width=46, color=color
        )
        pen.text(x + 170, baseline, "✓" if item.balanced else "✗", size=8, bold=True, color=color)


def render_protocol(protocol: Protocol) -> bytes:
    event = protocol.event
    variant = event.variant
    title = _("Standings protocol")
    buffer, pen = open_document(page_size=LANDSCAPE, title=title, subject=event.name)
    top = pen.height - MARGIN - heading_height(event, subtitle=True)
    flow = Flow(first_top=top, next_top=top, bottom=MARGIN + 8)

    if protocol.open_rounds:
        open_rounds = ", ".join(str(number) for number in protocol.open_rounds)
        note = _("Provisional: round %(rounds)s is not closed; only confirmed tables count.") % {
            "rounds": open_rounds
        }
        flow.add(16, partial(draw_note, text=note))

    # Signatures: the chief referee(s) and the secretary, on the page of the last rows (a
    # signature alone on a page could be put under any list).
    chiefs = [
        _("Chief referee: %(name)s") % {"name": name} for name in protocol.chief_referees
    ] or [_("Chief referee")]
    labels = [*chiefs, _("Secretary")]
    per_row = max(len(labels), 3)
    signature_gap = 8
    signature_height = 34 + (-(-len(labels) // per_row) - 1) * REFEREE_ROW

    fixed, rounds = columns_for(protocol, pen)
    header = partial(draw_table_header, fixed=fixed, rounds=rounds)
    flow.add(HEADER_HEIGHT, header, keep_with=ROW_HEIGHT * 3)
    flow.repeat = (HEADER_HEIGHT, header)
    last = len(protocol.rows) - 1
    for index, row in enumerate(protocol.rows):
        flow.add(
            ROW_HEIGHT,
            partial(
                draw_row,
                row=row,
                fixed=fixed,
                rounds=rounds,
                round_numbers=protocol.round_numbers,
                shaded=index % 2 == 1,
            ),
            keep_with=signature_gap + signature_height if index == last else 0,
        )
    flow.repeat = None
    flow.skip(signature_gap)
    flow.add(signature_height, partial(draw_signature_row, labels=labels, per_row=per_row))

    if variant.referee_signatures and protocol.referee_tables:
        flow.skip(6)
        section = _("Table referees, round %(number)d") % {"number": protocol.round_numbers[-1]}
        flow.add(SECTION_TITLE, partial(draw_section_title, text=section), keep_with=REFEREE_ROW)
        tables = protocol.referee_tables
        for index in range(0, len(tables), REFEREES_PER_ROW):
            labels = [
                _("Table %(number)d referee") % {"number": number}
                for number in tables[index : index + REFEREES_PER_ROW]
            ]
            flow.add(
                REFEREE_ROW, partial(draw_signature_row, labels=labels, per_row=REFEREES_PER_ROW)
            )

    if variant.control_totals and protocol.controls:
        flow.skip(6)
        flow.add(
            SECTION_TITLE,
            partial(
                draw_section_title,
                text=_(
                    "Control totals by table (game points add up to 0; place points are the "
                    "round's scheme applied to the table's game points)"
                ),
            ),
            keep_with=CONTROL_ROW * 2,
        )
        flow.add(CONTROL_ROW, draw_control_header)
        flow.repeat = (CONTROL_ROW, draw_control_header)
        controls = protocol.controls
        for index in range(0, len(controls), CONTROLS_PER_ROW):
            flow.add(
                CONTROL_ROW,
                partial(draw_control_row, items=controls[index : index + CONTROLS_PER_ROW]),
            )
        flow.repeat = None

    what = subtitle(protocol)
    flow.render(
        pen,
        heading=partial(draw_heading, event=event, title=title, subtitle=what),
        footer=partial(draw_footer, event=event, what=f"{title} · {what}"),
    )
    return close_document(buffer, pen)
