"""GET /api/machines with no parameters (the spec's plain list, which its Machines tab renders
whole): streamed as it is read, in pieces, compressed when the client accepts gzip or Brotli; the
same JSON as before. Paged requests are as they were."""

from __future__ import annotations

import gzip
import json

import brotli
import pytest

from sibol.extensions import db
from sibol.identity import tenancy
from sibol.machines import api as machines_api
from sibol.machines.serializers import machine_json
from sibol.models import Area, Barangay, Machine, RoleId
from tests.factories import make_account, make_machine
from tests.factories_machines import status_id


@pytest.fixture
def machines():
    """Seven machines over areas and statuses, one name with letters beyond ASCII and quotes."""
    made = [
        make_machine(
            f"Digester {n}", area=f"Purok {n % 3 + 1}", status_id=status_id("Active") if n % 2 else None
        )
        for n in range(6)
    ]
    made.append(make_machine('Biogas "Santo Niño"', area="Purok 5", status_id=status_id("Offline")))
    return made


def expected(machines) -> list[dict]:
    return [machine_json(db.session.get(Machine, m.id)) for m in sorted(machines, key=lambda m: m.id)]


def test_the_plain_list_is_the_same_json_streamed(client, staff_headers, machines):
    res = client.get("/api/machines", headers=staff_headers)
    assert res.status_code == 200 and res.mimetype == "application/json"
    assert "Content-Length" not in res.headers  # streamed: its length is not known up front
    assert "Content-Encoding" not in res.headers  # the client did not ask for any
    assert res.json == expected(machines)
    assert list(res.json[0]) == ["machine_id", "Name", "Area_id", "Area_Name", "status_id", "status_name"]
    assert 'Biogas \\"Santo Niño\\"' in res.get_data(as_text=True)  # UTF-8, quotes escaped


@pytest.mark.parametrize(
    ("accept", "encoding", "decode"),
    [
        ("gzip", "gzip", gzip.decompress),
        ("gzip, deflate, br", "br", brotli.decompress),
        ("br;q=1.0, gzip;q=0.8", "br", brotli.decompress),
        ("deflate, gzip", "gzip", gzip.decompress),
    ],
)
def test_compressed_when_the_client_accepts_it(client, staff_headers, machines, accept, encoding, decode):
    res = client.get("/api/machines", headers={**staff_headers, "Accept-Encoding": accept})
    assert res.status_code == 200 and res.headers["Content-Encoding"] == encoding
    assert "Accept-Encoding" in res.headers["Vary"]
    assert json.loads(decode(res.get_data())) == expected(machines)


def test_written_in_pieces_while_the_rows_are_read(client, staff_headers, machines, monkeypatch):
    """A few machines per piece: the list leaves in several pieces, each holding only its own rows."""
    monkeypatch.setattr(machines_api, "PLAIN_LIST_CHUNK", 3)
    res = client.get("/api/machines", headers=staff_headers, buffered=False)
    pieces = list(res.response)
    res.close()
    assert len(pieces) == 3  # 3 + 3 + 1 machines
    assert [piece.count(b'"machine_id"') for piece in pieces] == [3, 3, 1]
    assert pieces[0].startswith(b"[{") and pieces[-1].endswith(b"}]")
    assert json.loads(b"".join(pieces)) == expected(machines)
    gzipped = client.get(
        "/api/machines", headers={**staff_headers, "Accept-Encoding": "gzip"}, buffered=False
    )
    assert len(list(gzipped.response)) > 1
    gzipped.close()


def test_no_machines_is_an_empty_list(client, staff_headers):
    for accept in ("identity", "gzip"):
        res = client.get("/api/machines", headers={**staff_headers, "Accept-Encoding": accept})
        body = gzip.decompress(res.data) if res.headers.get("Content-Encoding") == "gzip" else res.data
        assert res.status_code == 200 and json.loads(body) == []


def test_only_the_barangays_machines_stream(client, staff_headers, machines):
    other = Barangay(name="Barangay Dos")
    db.session.add(other)
    db.session.commit()
    with tenancy.scoped(other.id):
        db.session.add(Area(name="Sitio Bravo"))
        db.session.commit()
        make_machine("Bravo Digester", area="Sitio Bravo")
    names = [m["Name"] for m in client.get("/api/machines", headers=staff_headers).json]
    assert "Bravo Digester" not in names and len(names) == len(machines)


def test_paged_requests_are_as_they_were(client, staff_headers, machines):
    res = client.get("/api/machines?page=2&per_page=3", headers={**staff_headers, "Accept-Encoding": "gzip"})
    # Built whole, so its length is known (compressed as before when over 500 bytes).
    assert res.status_code == 200 and int(res.headers["Content-Length"]) == len(res.data)
    gzipped = res.headers.get("Content-Encoding") == "gzip"
    body = json.loads(gzip.decompress(res.data) if gzipped else res.data)
    assert (body["total"], body["page"], body["per_page"]) == (7, 2, 3)
    assert [m["machine_id"] for m in body["data"]] == [m["machine_id"] for m in expected(machines)[3:6]]
    searched = client.get("/api/machines?q=digester&per_page=10", headers=staff_headers).json
    assert searched["total"] == 6 and "data" in searched
    csv = client.get("/api/machines?format=csv", headers=staff_headers)
    assert csv.status_code == 200 and csv.mimetype == "text/csv"


def test_the_plain_list_keeps_its_access_rule(client, api_headers, machines):
    assert client.get("/api/machines").status_code == 401
    no_module = api_headers(make_account(role=RoleId.STAFF, modules=[1, 3, 4, 5]))
    res = client.get("/api/machines", headers={**no_module, "Accept-Encoding": "gzip"})
    assert res.status_code == 403 and res.json["module"] == 2
