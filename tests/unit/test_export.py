"""sibol/data/export.py and sibol/web/downloads.py: the CSV file's bytes (BOM, CRLF, formula cells) and who asks for CSV."""

from __future__ import annotations

import csv
import io
from datetime import date, datetime, time

import pytest
from sqlalchemy import select
from sqlalchemy.exc import InvalidRequestError
from sqlalchemy.orm import joinedload

from sibol.data.export import (
    cell,
    encode_rows,
    neutralise,
    stream_scalars,
    wants_csv,
)
from sibol.errors import Invalid
from sibol.extensions import db
from sibol.models import Machine
from sibol.web.downloads import csv_response, export_filename
from tests.factories import make_machine


def read_csv(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def test_file_starts_with_a_bom_and_ends_lines_with_crlf():
    data = b"".join(encode_rows(["Name", "Points"], [["Ana", 5], ["Ben", 7]]))
    assert data.startswith(b"\xef\xbb\xbfName,Points\r\n")
    assert data.endswith(b"Ben,7\r\n")
    assert data.count(b"\r\n") == 3
    assert b"\n" not in data.replace(b"\r\n", b"")


def test_filipino_name_round_trips_through_a_csv_reader():
    names = ["Santo Niño", "Peñafrancia, Doña Remedios", 'Jose "Pepe" Dela Cruz', "Line\nbreak"]
    data = b"".join(encode_rows(["Name"], [[n] for n in names]))
    assert "Santo Niño".encode() in data  # UTF-8, not Latin-1 or an escape
    assert read_csv(data) == [["Name"], *([n] for n in names)]


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_each_dangerous_first_character_is_neutralised(start):
    value = f'{start}HYPERLINK("http://evil.test","x")'
    assert neutralise(value) == "'" + value
    rows = read_csv(b"".join(encode_rows(["Name"], [[value]])))
    assert rows[1] == ["'" + value]


@pytest.mark.parametrize("value", ["Ana", "1+1", "a=b", " =1", "'=1", "", "Niño"])
def test_harmless_cells_are_left_alone(value):
    assert neutralise(value) == value


def test_headers_are_neutralised_too():
    rows = read_csv(b"".join(encode_rows(["=cmd", "Name"], [])))
    assert rows == [["'=cmd", "Name"]]


def test_numbers_stay_numbers_but_text_that_looks_like_one_is_quoted():
    assert cell(-5) == "-5"  # a number, negative or not, is no formula
    assert cell(-2.5) == "-2.5"
    assert cell(7) == "7"
    assert cell("-5+A1") == "'-5+A1"  # text starting with - may be a formula: quoted


def test_cells_of_dates_times_and_nothing(app):
    assert cell(None) == ""
    assert cell(date(2026, 1, 5)) == "2026-01-05"
    assert cell(time(9, 5)) == "09:05"
    assert cell(True) == "yes"
    # Instants are stored as naive UTC and read in the barangay's zone (Asia/Manila, UTC+8).
    assert cell(datetime(2026, 1, 5, 20, 30)) == "2026-01-06 04:30"


def test_rows_leave_in_chunks():
    pieces = list(encode_rows(["n"], ([i] for i in range(1, 12)), chunk_rows=5))
    assert len(pieces) == 3  # header + 5, 5, 1
    assert read_csv(b"".join(pieces))[1:] == [[str(i)] for i in range(1, 12)]


@pytest.mark.parametrize(
    ("query", "accept", "expected"),
    [
        ("?format=csv", None, True),
        ("?format=CSV", None, True),
        ("?format=json", "text/csv", False),  # an explicit format wins over Accept
        ("", "text/csv", True),
        ("", "text/csv;q=0.9, application/json;q=0.5", True),
        ("", "application/json, text/csv;q=0.5", False),
        ("", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", False),  # a browser
        ("", "*/*", False),
        ("", None, False),
        ("?format=", None, False),
    ],
)
def test_who_asks_for_csv(app, query, accept, expected):
    headers = {"Accept": accept} if accept else {}
    with app.test_request_context(f"/api/machines{query}", headers=headers):
        assert wants_csv() is expected


@pytest.mark.parametrize("value", ["xml", "xlsx", "csv2"])
def test_an_unknown_format_is_refused_naming_format(app, value):
    with app.test_request_context(f"/api/machines?format={value}"), pytest.raises(Invalid) as err:
        wants_csv()
    assert err.value.field == "format"


def test_response_is_an_attachment_named_by_table_and_date(app):
    with app.test_request_context("/api/machines?format=csv"):
        response = csv_response("machines", ["Name"], iter([("Ana",)]), lambda row: row)
        assert response.is_streamed
        assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
        name = export_filename("machines")
        assert name.startswith("machines-20") and name.endswith(".csv")
        assert response.headers["Content-Disposition"] == f'attachment; filename="{name}"'
        assert read_csv(b"".join(response.response)) == [["Name"], ["Ana"]]


def test_streamed_rows_never_query_again_mid_stream(app):
    """A server-side cursor leaves its connection busy: a lazy load while streaming must fail
    loudly in tests (raiseload), not run a second query (MySQL: commands out of sync)."""
    make_machine("Unit A")
    make_machine("Unit B")
    db.session.expunge_all()
    rows = stream_scalars(select(Machine).order_by(Machine.id), chunk_rows=1)
    with pytest.raises(InvalidRequestError):
        next(rows).area  # noqa: B018 - the attribute access is the test
    rows.close()
    loaded = stream_scalars(
        select(Machine).options(joinedload(Machine.area)).order_by(Machine.id), chunk_rows=1
    )
    assert [m.area.name for m in loaded] == ["Purok 1", "Purok 1"]
