"""encode_list: a JSON list written in pieces of a few items each."""

from __future__ import annotations

import json

import pytest

from sibol.data.jsonlist import encode_list


@pytest.mark.parametrize(("count", "pieces"), [(0, 1), (1, 1), (3, 2), (4, 2), (6, 3), (7, 3)])
def test_every_count_of_items_makes_one_valid_list(count, pieces):
    items = [{"n": n, "name": f"Niño {n}", "none": None} for n in range(count)]
    written = list(encode_list(iter(items), chunk_rows=3))
    assert len(written) == pieces
    assert json.loads(b"".join(written).decode("utf-8")) == items
    assert all(b": " not in piece and b", " not in piece for piece in written)  # compact, as Flask's


def test_items_come_out_before_the_list_ends():
    """Nothing waits for the end of the rows: the first piece leaves after the first chunk."""
    consumed = []

    def rows():
        for n in range(10):
            consumed.append(n)
            yield n

    first = next(encode_list(rows(), chunk_rows=4))
    assert first == b"[0,1,2,3" and consumed == [0, 1, 2, 3]
