"""Streamed answers of many rows: a CSV download and a JSON list, read while they are sent.

The rows are read while the response streams, after the view has returned and the request's
barangay scope (sibol/identity/tenancy) has been cleared; so every streamed body here is produced
inside the scope the view had (tests/api/test_tenant_isolation.py found exports leaking without
it). The encoding of the rows is the data layer's: sibol/data/export.py (CSV, the chunked reads)
and sibol/data/jsonlist.py (the JSON text).

Call these only after the request's input has been checked: once streaming starts, the status line
is sent and a refusal can no longer be a clean 400.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from flask import Response, stream_with_context

from ..data.export import CHUNK_ROWS, CSV_MIMETYPE, Shape, encode_rows
from ..data.jsonlist import encode_list
from ..i18n.localtime import today
from ..identity import tenancy


def in_request_scope(pieces: Iterable[bytes]) -> Iterator[bytes]:
    """A streamed body's pieces, produced inside this request's barangay scope (taken now, in
    the view, and set again while the body is read)."""
    scope = tenancy.current_scope()

    def generate() -> Iterator[bytes]:
        with tenancy.scoped(scope):
            yield from pieces

    return generate()


def export_filename(name: str) -> str:
    return f"{name}-{today().isoformat()}.csv"


def csv_response(name: str, headers: Sequence[Any], rows: Iterable[Any], shape: Shape) -> Response:
    """A streamed CSV download: `name-YYYY-MM-DD.csv`, the headers (lazy gettext strings are
    rendered now, in the request's language), then shape(row) for each row."""
    header_texts = [str(h) for h in headers]
    pieces = in_request_scope(encode_rows(header_texts, (shape(row) for row in rows)))
    response = Response(stream_with_context(pieces), mimetype=CSV_MIMETYPE)
    response.headers["Content-Type"] = "text/csv; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="{export_filename(name)}"'
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


def json_list_response(
    rows: Iterable[Any], shape: Callable[[Any], Any], chunk_rows: int = CHUNK_ROWS
) -> Response:
    """`[shape(row), ...]` as application/json, written in pieces while `rows` are read."""
    pieces = in_request_scope(encode_list((shape(row) for row in rows), chunk_rows))
    return Response(stream_with_context(pieces), mimetype="application/json")
