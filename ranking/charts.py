"""The rating chart of a player's page: server-rendered SVG coordinates (no JavaScript).

The chart shows the skill μ after each rated table as a line, its uncertainty μ ± σ as a band
around it, and the conservative rating μ − 3σ (what the rating list ranks by) as a dashed line.
Coordinates are SVG user units in the frame of core/svg_charts.py."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from core.svg_charts import HEIGHT, WIDTH, ChartTick
from engine.rating import NEW_PLAYER, Rating
from ranking.selectors import RatingPoint

LEFT, RIGHT, TOP, BOTTOM = 40, 12, 12, 32
MAX_MARKERS = 40  # beyond this many tables the points are a line without dots
X_LABELS = 6


@dataclass(frozen=True)
class ChartMarker:
    x: float
    y: float
    label: str  # the tooltip: where, the place and the rating after the table


@dataclass(frozen=True)
class RatingChart:
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    mu_line: str  # polyline points
    ordinal_line: str
    band: str  # polygon points: μ + σ forwards, then μ − σ backwards
    markers: list[ChartMarker]
    y_ticks: list[ChartTick]
    x_ticks: list[ChartTick]


def _nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    raw = (high - low) / max(count - 1, 1)
    magnitude = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step) * step
    ticks: list[float] = []
    value = first
    while value <= high + 1e-9:
        ticks.append(round(value, 6))
        value += step
    return ticks


def rating_chart(
    points: Sequence[RatingPoint], marker_label: Callable[[RatingPoint], str]
) -> RatingChart | None:
    """The chart from the player's rating after each table (his start rating first);
    `marker_label(point)` gives each dot's tooltip. None without a rated table."""
    if not points:
        return None
    ratings: list[Rating] = [NEW_PLAYER, *(point.after for point in points)]
    low = min(rating.ordinal for rating in ratings)
    high = max(rating.mu + rating.sigma for rating in ratings)
    ticks = _nice_ticks(low, high)
    low, high = min(low, ticks[0]), max(high, ticks[-1])
    plot_width = WIDTH - LEFT - RIGHT
    plot_height = HEIGHT - TOP - BOTTOM
    last = len(ratings) - 1

    def x_of(index: int) -> float:
        return round(LEFT + plot_width * index / last, 1)

    def y_of(value: float) -> float:
        return round(TOP + plot_height * (high - value) / (high - low), 1)

    def line(values: Sequence[float]) -> str:
        return " ".join(f"{x_of(i):.1f},{y_of(v):.1f}" for i, v in enumerate(values))

    upper = [f"{x_of(i):.1f},{y_of(r.mu + r.sigma):.1f}" for i, r in enumerate(ratings)]
    lower = [f"{x_of(i):.1f},{y_of(r.mu - r.sigma):.1f}" for i, r in enumerate(ratings)]
    step = max(1, math.ceil(last / X_LABELS))
    x_labels = [*range(0, last + 1, step)]
    if x_labels[-1] != last:
        if last - x_labels[-1] < step / 2:
            x_labels.pop()  # a label crowding the last one's
        x_labels.append(last)
    return RatingChart(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        right=WIDTH - RIGHT,
        top=TOP,
        bottom=HEIGHT - BOTTOM,
        mu_line=line([rating.mu for rating in ratings]),
        ordinal_line=line([rating.ordinal for rating in ratings]),
        band=" ".join(upper + lower[::-1]),
        markers=[
            ChartMarker(x_of(index), y_of(point.after.mu), marker_label(point))
            for index, point in enumerate(points, start=1)
        ]
        if len(points) <= MAX_MARKERS
        else [],
        y_ticks=[ChartTick(y_of(value), f"{value:g}") for value in ticks],
        x_ticks=[ChartTick(x_of(index), str(index)) for index in x_labels],
    )
