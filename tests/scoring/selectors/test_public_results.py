"""Points and places as the public pages write them (scoring/selectors/public_results.py): the
common fractions as a reader writes them, other sums of twelfths as a decimal in the reader's
language, exact for programs, and a shared place as the span of places."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.utils import translation

from scoring.selectors.public_results import (
    points_exact,
    points_number,
    points_text,
    seat_place_text,
)


class TestPoints:
    @pytest.mark.parametrize(
        ("value", "language", "text"),
        [
            (Fraction(5), "lv", "5"),
            (Fraction(13, 3), "lv", "4⅓"),
            (Fraction(13, 3), "ru", "4⅓"),  # the glyphs read the same in every language
            (Fraction(5, 2), "en", "2½"),
            (Fraction(1, 3), "lv", "⅓"),
            (Fraction(55, 12), "lv", "4,58"),  # Latvian decimal comma
            (Fraction(55, 12), "ru", "4,58"),
            (Fraction(55, 12), "en", "4.58"),
            (Fraction(-55, 12), "lv", "−4,58"),
            (None, "lv", ""),
        ],
    )
    def test_points_text(self, value, language, text):
        with translation.override(language):
            assert points_text(value) == text

    def test_points_number_for_spreadsheets(self):
        assert points_number(Fraction(5)) == 5
        assert points_number(Fraction(13, 3)) == 4.33

    def test_points_exact_for_programs(self):
        assert points_exact(Fraction(9, 2)) == "9/2"
        assert points_exact(6) == "6"
        assert points_exact(None) is None


def test_a_place_shared_by_two_is_the_span_of_places():
    assert seat_place_text(2, 2) == "2–3"
    assert seat_place_text(1, 1) == "1"
