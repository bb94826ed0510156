"""Numbers from bodies and forms: whatever their size, they are read or refused, never an error."""

from __future__ import annotations

import math

import pytest

from sibol.inputs.numbers import finite, whole_text


@pytest.mark.parametrize(
    ("value", "expected"),
    [(7, 7.0), (-2.5, -2.5), (10**300, 1e300), (0, 0.0)],
)
def test_finite_reads_numbers_a_float_holds(value, expected):
    assert finite(value) == expected


@pytest.mark.parametrize(
    "value", [int("9" * 400), -int("9" * 400), math.inf, -math.inf, math.nan, True, False, "7", None, [7]]
)
def test_finite_refuses_what_is_not_a_finite_number(value):
    assert finite(value) is None


@pytest.mark.parametrize(("text", "expected"), [("42", 42), (" -7 ", -7), ("+3", 3), ("0007", 7)])
def test_whole_text_reads_decimal_text(text, expected):
    assert whole_text(text) == expected


@pytest.mark.parametrize("text", ["", "4.2", "1e3", "abc", "- 5", "9" * 19, "9" * 5000, "-" + "9" * 400])
def test_whole_text_refuses_other_text_and_too_many_digits(text):
    assert whole_text(text) is None


def test_whole_text_takes_a_bound():
    assert whole_text("123456", max_digits=5) is None and whole_text("12345", max_digits=5) == 12345
