"""Server-rendered SVG charts (no JavaScript): the coordinates and labels a template draws.

Coordinates are SVG user units in a WIDTH × HEIGHT viewBox, which scales a chart to a 360 px
phone as well as a desktop. The player page's cumulative game points live here; the rating
chart (ranking/charts.py) shares the frame and the tick type."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

WIDTH, HEIGHT = 320, 180


@dataclass(frozen=True)
class ChartPoint:
    x: float
    y: float
    round_number: int
    value: int


@dataclass(frozen=True)
class ChartTick:
    position: float
    label: str


@dataclass(frozen=True)
class Chart:
    """A line chart of cumulative game points by round, in SVG user units (scaled by the
    viewBox, so it fits a 360 px phone as well as a desktop)."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    points: list[ChartPoint]
    y_ticks: list[ChartTick]
    x_ticks: list[ChartTick]
    zero_y: float

    @property
    def polyline(self) -> str:
        return " ".join(f"{point.x:.1f},{point.y:.1f}" for point in self.points)


CHART_LEFT, CHART_RIGHT, CHART_TOP, CHART_BOTTOM = 44, 12, 12, 32
CHART_MIN_LABEL_GAP = 12


def cumulative_chart(values: list[tuple[int, int]]) -> Chart | None:
    """`values`: (round number, cumulative game points) for each confirmed round."""
    if not values:
        return None
    plot_width = WIDTH - CHART_LEFT - CHART_RIGHT
    plot_height = HEIGHT - CHART_TOP - CHART_BOTTOM
    low = min(0, *(value for _number, value in values))
    high = max(0, *(value for _number, value in values))
    if low == high:
        high = low + 1
    rounds = [number for number, _value in values]
    first, last = min(rounds), max(rounds)
    span = max(last - first, 1)

    def x_of(number: int) -> float:
        if first == last:
            return CHART_LEFT + plot_width / 2
        return CHART_LEFT + plot_width * (number - first) / span

    def y_of(value: int) -> float:
        return CHART_TOP + plot_height * (high - value) / (high - low)

    # At most about 8 round labels, so they stay readable on a phone.
    step = max(1, -(-len(rounds) // 8))
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        left=CHART_LEFT,
        right=WIDTH - CHART_RIGHT,
        top=CHART_TOP,
        bottom=HEIGHT - CHART_BOTTOM,
        points=[ChartPoint(x_of(n), y_of(v), n, v) for n, v in values],
        y_ticks=[
            ChartTick(y_of(value), str(value))
            for value in sorted({low, 0, high})
            # A label crowding the zero line's would overlap it.
            if value == 0 or abs(y_of(value) - y_of(0)) >= CHART_MIN_LABEL_GAP
        ],
        x_ticks=[ChartTick(x_of(number), str(number)) for number in rounds[::step]],
        zero_y=y_of(0),
    )


@dataclass(frozen=True)
class ShareBar:
    """A pair of bars: a share of his and the field's (0 to 1), at height `y`."""

    label: str
    y: float
    his_width: float
    field_width: float
    his_text: str
    field_text: str


@dataclass(frozen=True)
class ShareChart:
    width: int
    height: int
    left: int
    bar_height: int
    bars: list[ShareBar]


SHARE_LEFT, SHARE_ROW, SHARE_BAR = 96, 30, 11


def share_chart(
    rows: list[tuple[str, Fraction | None, Fraction | None]],
    *,
    text: Callable[[Fraction | None], str],
) -> ShareChart | None:
    """Horizontal bars of shares (his above, the field's below) for the rows that have one of
    them; `rows`: (label, his share, the field's share); `text` writes a share beside its bar
    as the page writes it."""
    shown = [row for row in rows if row[1] is not None or row[2] is not None]
    if not shown:
        return None
    span = WIDTH - SHARE_LEFT - 40  # room on the right for the percentage

    def width(value: Fraction | None) -> float:
        return round(float(value or 0) * span, 1)

    return ShareChart(
        width=WIDTH,
        height=len(shown) * SHARE_ROW + 4,
        left=SHARE_LEFT,
        bar_height=SHARE_BAR,
        bars=[
            ShareBar(
                label=label,
                y=index * SHARE_ROW + 4,
                his_width=width(his),
                field_width=width(field),
                his_text=text(his),
                field_text=text(field),
            )
            for index, (label, his, field) in enumerate(shown)
        ],
    )
