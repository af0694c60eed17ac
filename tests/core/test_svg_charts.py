"""The player page's chart of cumulative game points (core/svg_charts.py): rounds run left to
right, more points higher up, and the zero line always shows."""

from __future__ import annotations

from core.svg_charts import HEIGHT, WIDTH, cumulative_chart


def test_no_confirmed_round_draws_no_chart():
    assert cumulative_chart([]) is None


def test_later_rounds_lie_further_right_and_more_points_higher_up():
    chart = cumulative_chart([(1, 5), (2, -3), (3, 12)])
    xs = [point.x for point in chart.points]
    assert xs == sorted(xs)
    by_round = {point.round_number: point.y for point in chart.points}
    assert by_round[3] < by_round[1] < by_round[2]  # SVG's y grows downwards


def test_every_point_lies_inside_the_frame():
    chart = cumulative_chart([(1, -40), (2, 10), (5, 90)])
    for point in chart.points:
        assert chart.left <= point.x <= chart.right <= WIDTH
        assert chart.top <= point.y <= chart.bottom <= HEIGHT


def test_the_zero_line_shows_even_when_every_value_is_above_it():
    chart = cumulative_chart([(1, 4), (2, 9)])
    assert chart.top <= chart.zero_y <= chart.bottom
    assert "0" in [tick.label for tick in chart.y_ticks]


def test_one_round_stands_in_the_middle():
    chart = cumulative_chart([(1, 0)])
    (point,) = chart.points
    assert point.x == (chart.left + chart.right) / 2


def test_many_rounds_are_labelled_at_most_about_eight_times():
    chart = cumulative_chart([(number, number) for number in range(1, 21)])
    assert len(chart.x_ticks) <= 8
    assert chart.x_ticks[0].label == "1"


def test_the_polyline_joins_the_points_in_order():
    chart = cumulative_chart([(1, 0), (2, 6)])
    first, second = chart.points
    assert chart.polyline == f"{first.x:.1f},{first.y:.1f} {second.x:.1f},{second.y:.1f}"


def test_share_bars_are_as_long_as_their_share_and_skip_rows_with_none():
    from fractions import Fraction

    from core.svg_charts import share_chart

    chart = share_chart(
        [
            ("Lielais", Fraction(3, 4), Fraction(1, 2)),
            ("Mazā zole", None, None),
            ("Zole", None, Fraction(1, 4)),
        ],
        text=lambda share: "–" if share is None else f"{share * 100} %",
    )
    assert [bar.label for bar in chart.bars] == ["Lielais", "Zole"]
    lielais, zole = chart.bars
    assert lielais.his_width == 1.5 * lielais.field_width
    assert (zole.his_width, zole.his_text, zole.field_text) == (0, "–", "25 %")
    assert chart.left + lielais.his_width <= WIDTH
    assert share_chart([("Zole", None, None)], text=str) is None
