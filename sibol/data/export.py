"""CSV export of a table: the same query the table pages through, streamed whole.

A list view asks `wants_csv()` (`?format=csv`, or an Accept header preferring text/csv; any other
`format` is a 400 naming it), checks its input as usual, then answers `csv_response(...)`
(sibol/web/downloads.py, which carries the request's barangay scope into the stream) with the
statement its page would run, unpaged. Rows come from the database in chunks (`yield_per`, which
also asks the driver for a server-side cursor: `stream_results`) and leave as CSV in chunks, so
memory stays flat however long the table. Relationships are loaded only by joins in that one
statement (`raiseload("*")` otherwise): a server-side cursor leaves no room for a second query on
its connection while it is read (MySQL's "commands out of sync").

The file is UTF-8 with a byte-order mark (spreadsheet programs then read ñ and other non-ASCII
letters right), CRLF line ends (RFC 4180), and every cell that a spreadsheet would run as a
formula (starting with = + - @, tab or CR) is prefixed with a single quote, as OWASP advises.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import date, datetime, time
from typing import Any

from flask import request
from flask_babel import gettext as _
from sqlalchemy import Select
from sqlalchemy.orm import raiseload

from ..errors import Invalid
from ..extensions import db
from ..i18n.localtime import to_local
from .listing import query_url

CSV_MIMETYPE = "text/csv"
CHUNK_ROWS = 500  # rows per database fetch and per piece of the response
BOM = "\ufeff"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
FORMATS = ("csv", "json", "html")  # format=json/html: the usual answer of that route

Shape = Callable[[Any], Sequence[Any]]


def wants_csv() -> bool:
    """Whether this request asks for CSV: `?format=csv`, or an Accept header that prefers
    text/csv over JSON and HTML. An unknown `format` is Invalid (a 400 naming `format`)."""
    raw = request.args.get("format")
    if raw is not None:
        value = raw.strip().lower()
        if value and value not in FORMATS:
            raise Invalid(_("format must be csv (or json)."), field="format")
        return value == "csv"
    accept = request.accept_mimetypes
    if CSV_MIMETYPE not in accept.values():  # only an explicit text/csv counts, never */*
        return False
    return accept.best_match(["application/json", "text/html", CSV_MIMETYPE]) == CSV_MIMETYPE


def neutralise(text: str) -> str:
    """A cell a spreadsheet would read as a formula, made plain text by a leading quote."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def cell(value: Any) -> str:
    """One value as CSV text: dates ISO, instants in the barangay's time, formulas defused."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        text = to_local(value).strftime("%Y-%m-%d %H:%M")
    elif isinstance(value, date):
        text = value.isoformat()
    elif isinstance(value, time):
        text = value.strftime("%H:%M")
    elif isinstance(value, bool):
        text = "yes" if value else "no"
    elif isinstance(value, int):
        return str(value)  # a number, even a negative one, is no formula
    elif isinstance(value, float):
        return f"{value:g}"
    else:
        text = str(value)
    return neutralise(text)


def encode_rows(
    headers: Sequence[Any], rows: Iterable[Sequence[Any]], chunk_rows: int = CHUNK_ROWS
) -> Iterator[bytes]:
    """The CSV file in pieces: the BOM and header row, then `chunk_rows` rows per piece."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    buffer.write(BOM)
    writer.writerow([cell(h) for h in headers])
    pending = 0
    for row in rows:
        writer.writerow([cell(v) for v in row])
        pending += 1
        if pending >= chunk_rows:
            yield buffer.getvalue().encode("utf-8")
            buffer.seek(0)
            buffer.truncate()
            pending = 0
    yield buffer.getvalue().encode("utf-8")


def stream_scalars(statement: Select, chunk_rows: int = CHUNK_ROWS) -> Iterator[Any]:
    """The statement's first column, fetched `chunk_rows` at a time through db.session (so
    session-level filters such as barangay scoping apply). Related objects must be loaded by
    the statement itself (joined); anything else raises rather than querying mid-stream."""
    return _stream(statement, chunk_rows, scalars=True)


def stream_rows(statement: Select, chunk_rows: int = CHUNK_ROWS) -> Iterator[Any]:
    """Like stream_scalars, for a statement whose rows have several columns."""
    return _stream(statement, chunk_rows, scalars=False)


def _stream(statement: Select, chunk_rows: int, *, scalars: bool) -> Iterator[Any]:
    # Read while the response streams: sibol/web/downloads.py sets the request's barangay scope
    # again around it (tests/api/test_tenant_isolation.py found exports leaking without it).
    statement = statement.options(raiseload("*")).execution_options(yield_per=chunk_rows)
    result = db.session.execute(statement)
    try:
        yield from (result.scalars() if scalars else result)
    finally:
        result.close()


def export_link(**extra: Any) -> str:
    """This page's URL with its current query string (search, filters), paging dropped and
    format=csv added: the Export button's plain link (a Jinja global)."""
    dropped = {"page", "per_page", "format", *extra}
    pairs = [(k, v) for k, v in request.args.items(multi=True) if k not in dropped]  # repeats kept
    return query_url(
        request.endpoint or "", [*pairs, *extra.items(), ("format", "csv")], **(request.view_args or {})
    )
