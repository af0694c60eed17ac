"""Statistics' figures as a reader expects them, in his language."""

from __future__ import annotations

from fractions import Fraction

from django.utils import translation

from public.templatetags.statistics_figures import one_decimal, percent


def test_a_share_is_a_percentage_to_a_tenth_and_nothing_to_share_a_dash():
    with translation.override("lv"):
        assert percent(Fraction(2, 3)) == "66,7\u00a0%"
    assert percent(None) == "–"


def test_a_rate_has_one_decimal_with_the_languages_separator():
    with translation.override("lv"):
        assert one_decimal(Fraction(197, 10)) == "19,7"
    with translation.override("en"):
        assert one_decimal(Fraction(1, 3)) == "0.3"
    assert one_decimal(None) == "–"
