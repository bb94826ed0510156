"""Ids from paths, forms and JSON bodies: whole numbers a database integer can hold."""

from __future__ import annotations

import pytest

from sibol.data.rows import MAX_ID, as_id, get_by_id
from sibol.models import Account
from tests.factories import make_account


@pytest.mark.parametrize(
    ("given", "expected"),
    [(1, 1), ("42", 42), (" 7 ", 7), (MAX_ID, MAX_ID), (str(MAX_ID), MAX_ID)],
)
def test_whole_numbers_in_range_are_ids(given, expected):
    assert as_id(given) == expected


@pytest.mark.parametrize("given", [0, -1, MAX_ID + 1, "99999999999", "1.5", "x", "", None, True, 2.0, [1]])
def test_anything_else_is_not_an_id(given):
    assert as_id(given) is None


def test_get_by_id_finds_the_row_and_nothing_for_a_bad_id(app):
    account = make_account()
    assert get_by_id(Account, str(account.id)) is account
    assert get_by_id(Account, 2**63) is None  # past the driver's range: None, not an error
    assert get_by_id(Account, account.id + 1000) is None
