"""A JSON list of database rows streamed whole, for a list too long to build in memory.

`json_list_response(rows, shape)` (sibol/web/downloads.py, which carries the request's barangay
scope into the stream) answers `[shape(row), ...]` as application/json, written in
pieces of CHUNK_ROWS rows while `rows` (stream_rows/stream_scalars of sibol/data/export.py: a
server-side cursor read in chunks) are read: neither the rows nor the text of the whole list are
ever held at once, so memory stays flat however many rows there are. Flask-Compress compresses the
pieces as they leave when the client accepts it (COMPRESS_ALGORITHM_STREAMING in sibol/config.py).
The output is the compact JSON Flask itself sends (no spaces), UTF-8.

As with a CSV export, call it only once the request's input has been checked: the status line is
sent with the first piece.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from .export import CHUNK_ROWS


def encode_list(items: Iterable[Any], chunk_rows: int = CHUNK_ROWS) -> Iterator[bytes]:
    """The JSON text of the list in pieces: '[' with the first chunk_rows items, ',' and the next
    ones, ..., then ']'."""
    batch: list[Any] = []
    opened = False
    for item in items:
        batch.append(item)
        if len(batch) >= chunk_rows:
            yield (b"," if opened else b"[") + _items_text(batch)
            opened, batch = True, []
    if batch:
        yield (b"," if opened else b"[") + _items_text(batch) + b"]"
    else:
        yield b"]" if opened else b"[]"


def _items_text(batch: list[Any]) -> bytes:
    """The items as JSON, without the list's brackets."""
    return json.dumps(batch, separators=(",", ":"), ensure_ascii=False)[1:-1].encode("utf-8")
