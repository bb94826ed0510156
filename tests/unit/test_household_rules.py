"""The input rules behind every household and dashboard form and endpoint."""

from datetime import date

import pytest

from sibol.errors import Invalid
from sibol.household.rewards import image_kind
from sibol.inputs import rules
from sibol.inputs.fields import Errors
from tests.factories_household import png_bytes


def check(fn, value, **kwargs):
    errors = Errors()
    result = fn(errors, value, "f", "Field", **kwargs)
    return result, errors.messages.get("f")


@pytest.mark.parametrize(
    ("value", "grams"),
    [
        ("1.5", 1500),
        (1.5, 1500),
        ("0", 0),
        (0, 0),
        ("  12.25 ", 12250),
        (2, 2000),
        ("0.0004", 0),
    ],
)
def test_kilograms_become_whole_grams(value, grams):
    assert check(rules.grams, value) == (grams, None)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("-1", "Field cannot be negative."),
        (-0.5, "Field cannot be negative."),
        ("abc", "Field must be a number of kilograms."),
        ("1,5", "Field must be a number of kilograms."),
        ("NaN", "Field must be a number of kilograms."),
        ("Infinity", "Field must be a number of kilograms."),
        (True, "Field must be a number of kilograms."),
        ([1], "Field must be a number of kilograms."),
        ("100001", "Field must be at most 100,000 kg."),
        ("", "Field is required."),
        (None, "Field is required."),
    ],
)
def test_bad_kilograms_are_refused_with_a_message(value, message):
    assert check(rules.grams, value) == (None, message)


def test_positive_kilograms_refuse_zero():
    assert check(rules.grams, "0", positive=True)[1] == "Field must be more than 0 kg."
    assert check(rules.grams, "0.0001", positive=True)[1] == "Field must be at least 0.001 kg."


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("30", (30, None)),
        (30, (30, None)),
        (30.0, (30, None)),
        ("-3", (None, "Field cannot be negative.")),
        ("3.5", (None, "Field must be a whole number.")),
        ("thirty", (None, "Field must be a whole number.")),
        (False, (None, "Field must be a whole number.")),
        (float("nan"), (None, "Field must be a whole number.")),
        ("99999999999", (None, "Field must be at most 10,000,000.")),
    ],
)
def test_whole_numbers(value, expected):
    assert check(rules.whole, value) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2026-03-12", (date(2026, 3, 12), None)),
        ("2026-02-30", (None, "Field must be a valid date (YYYY-MM-DD).")),
        ("12/03/2026", (None, "Field must be a valid date (YYYY-MM-DD).")),
        ("tomorrow", (None, "Field must be a valid date (YYYY-MM-DD).")),
        ("1800-01-01", (None, "Field must be a valid date (YYYY-MM-DD).")),
        (20260312, (None, "Field must be a valid date (YYYY-MM-DD).")),
        ("", (None, "Field is required.")),
    ],
)
def test_dates(value, expected):
    assert check(rules.day, value) == expected


def test_areas_from_chips_or_comma_text():
    errors = Errors()
    assert rules.area_list(errors, ["Purok 1", " purok 1 ", "Package  2", ""]) == ["Purok 1", "Package 2"]
    assert rules.area_list(errors, "Purok 1, Purok 2,,") == ["Purok 1", "Purok 2"]
    assert errors.messages == {}
    for bad, message in (
        (["", " "], "Area is required."),
        ("", "Area is required."),
        ([1], "Each area must be text."),
        ({"a": 1}, "Area must be text or a list of areas."),
        (["x" * 101], "Each area must be at most 100 characters."),
        ([f"A{i}" for i in range(21)], "A collection covers at most 20 areas."),
    ):
        errors = Errors()
        rules.area_list(errors, bad)
        assert errors.messages == {"areas": message}


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        ("0917 123 4567", True),
        ("+63 917-123-4567", True),
        ("maria@barangay.ph", True),
        ("(02) 8123 4567", True),
        ("12345", False),
        ("call me", False),
        ("a@b", False),
    ],
)
def test_contact_is_a_phone_number_or_an_email(value, ok):
    result, message = check(rules.contact, value)
    assert (message is None) is ok
    if not ok:
        assert message == "Field must be a phone number or an e-mail address."


def test_errors_raise_once_naming_the_first_field_and_all_of_them():
    errors = Errors()
    rules.text(errors, "", "name", "Name")
    rules.grams(errors, "-1", "weight", "Weight")
    with pytest.raises(Invalid) as caught:
        errors.raise_if_any()
    assert caught.value.field == "name" and caught.value.message == "Name is required."
    assert caught.value.extra["errors"] == {
        "name": "Name is required.",
        "weight": "Weight cannot be negative.",
    }


def test_text_collapses_spaces_and_limits_length():
    assert check(rules.text, "  Juan   Dela Cruz ") == ("Juan Dela Cruz", None)
    assert check(rules.text, "x" * 101)[1] == "Field must be at most 100 characters."
    assert check(rules.text, 5)[1] == "Field must be text."


def test_kg_text():
    assert [rules.kg_text(g) for g in (4000, 1500, 8750, 0, 1, None)] == [
        "4",
        "1.5",
        "8.75",
        "0",
        "0.001",
        "",
    ]


def test_images_are_recognised_by_content():
    assert image_kind(png_bytes()[:16]) == ("image/png", ".png")
    assert image_kind(b"\xff\xd8\xff\xe0\x00\x10JFIF") == ("image/jpeg", ".jpg")
    assert image_kind(b"GIF89a\x01\x00") == ("image/gif", ".gif")
    assert image_kind(b"RIFF\x10\x00\x00\x00WEBPVP8 ") == ("image/webp", ".webp")
    assert image_kind(b"%PDF-1.7\n") is None
    assert image_kind(b"<svg xmlns=") is None
    assert image_kind(b"") is None
