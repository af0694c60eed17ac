"""Numbers from a request (core/query.py): only plain ASCII digits are a number, and an id that
is not one is a page that does not exist."""

from __future__ import annotations

import pytest
from django.http import Http404
from django.test import RequestFactory

from core.query import MAX_DIGITS, id_param, positive_number, whole_number


@pytest.mark.parametrize(("text", "number"), [("0", 0), ("7", 7), (" 42 ", 42), ("007", 7)])
def test_plain_digits_are_a_whole_number(text, number):
    assert whole_number(text) == number


@pytest.mark.parametrize(
    "text", [None, "", "-1", "1.5", "1_000", "²", "٣", "1e3", "seven", "9" * (MAX_DIGITS + 1)]
)
def test_anything_else_is_no_number(text):
    assert whole_number(text) is None


def test_the_longest_number_is_one_a_database_integer_holds():
    assert whole_number("9" * MAX_DIGITS) < 2**63


def test_zero_is_no_positive_number():
    assert positive_number("0") is None
    assert positive_number("3") == 3


def test_an_absent_or_empty_id_is_none():
    assert id_param(RequestFactory().get("/"), "season") is None
    assert id_param(RequestFactory().get("/?season="), "season") is None


def test_an_id_is_read_from_the_query_string():
    assert id_param(RequestFactory().get("/?season=12"), "season") == 12


@pytest.mark.parametrize("text", ["0", "-3", "x", "²"])
def test_an_id_that_is_not_a_whole_number_above_zero_is_a_missing_page(text):
    with pytest.raises(Http404):
        id_param(RequestFactory().get("/", {"season": text}), "season")
