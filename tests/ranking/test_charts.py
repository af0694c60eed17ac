"""The rating chart's coordinates: inside the drawing, one point per table plus the start."""

from __future__ import annotations

import datetime

from engine.rating import Rating
from ranking.charts import MAX_MARKERS, rating_chart
from ranking.selectors import RatingPoint


def points(count: int) -> list[RatingPoint]:
    return [
        RatingPoint(
            number=n,
            tournament_name="Rīgas kauss",
            tournament_slug="rigas-kauss",
            played_on=datetime.date(2026, 5, 1),
            round_number=n,
            table_number=1,
            place=1 + n % 3,
            after=Rating(25 + n % 5, 8.3 - n * 0.05),
        )
        for n in range(1, count + 1)
    ]


def test_no_rated_table_no_chart():
    assert rating_chart([], str) is None


def test_every_coordinate_is_inside_the_drawing():
    chart = rating_chart(points(12), lambda point: f"table {point.number}")
    for line in (chart.mu_line, chart.ordinal_line, chart.band):
        for pair in line.split():
            x, y = (float(value) for value in pair.split(","))
            assert chart.left <= x <= chart.right
            assert chart.top <= y <= chart.bottom
    assert len(chart.mu_line.split()) == 13  # the start, then each table
    assert len(chart.band.split()) == 26
    assert [marker.label for marker in chart.markers][:2] == ["table 1", "table 2"]
    assert chart.x_ticks[0].label == "0" and chart.x_ticks[-1].label == "12"


def test_a_long_history_is_a_line_without_dots():
    chart = rating_chart(points(MAX_MARKERS + 1), str)
    assert chart.markers == []
    assert len(chart.mu_line.split()) == MAX_MARKERS + 2
