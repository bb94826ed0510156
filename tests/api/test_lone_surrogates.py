"""A JSON string may spell a lone UTF-16 surrogate ("\\ud800"): valid JSON, but no text a database
can store or compare. Every JSON body is read by one reader (sibol/inputs/jsonbody.py), which
answers 400 naming the field instead of letting the value reach a query and fail with a 500."""

from __future__ import annotations

import pytest
from werkzeug.routing.converters import NumberConverter

from sibol.errors import Invalid
from sibol.extensions import db
from sibol.inputs.jsonbody import parse_object
from sibol.models import Account, RoleId
from sibol.models.telemetry import Reading
from tests.factories import make_account, make_machine
from tests.factories_telemetry import device, keyed_machine

pytestmark = pytest.mark.usefixtures("fresh_identity")

LONE = "\\ud800"  # as the JSON text spells it: a backslash escape, not a character
# The names the routes read, each with the lone surrogate: whatever a route reads, it meets one.
FIELDS = (
    "username", "password", "email", "name", "firstName", "lastName", "message", "status", "note",
    "notes", "title", "code", "token", "area", "value", "command", "detail", "language", "description",
)  # fmt: skip
BODY = ("{" + ", ".join(f'"{name}": "{LONE}"' for name in FIELDS) + "}").encode()
JSON = {"Content-Type": "application/json"}


def _path(rule, machine_id: int) -> str:
    values = {}
    for name in rule.arguments:
        converter = rule._converters[name]  # noqa: SLF001 - werkzeug exposes no API
        if isinstance(converter, NumberConverter) or name.endswith("_id"):
            values[name] = machine_id if name == "machine_id" else 987654
        else:
            values[name] = "no-such-thing"
    return rule.build(values, append_unknown=False)[1]


def test_no_json_route_answers_5xx_to_a_lone_surrogate(app, client, api_headers):
    admin = make_account(role=RoleId.ADMIN)
    machine = make_machine()
    db.session.commit()
    accounts_before = db.session.query(Account).count()
    walked, refused = 0, 0
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        for method in sorted(rule.methods & {"POST", "PUT", "PATCH", "DELETE"}):
            for headers in ({**JSON, **api_headers(admin)}, JSON):  # signed in, and not
                res = client.open(_path(rule, machine.id), method=method, data=BODY, headers=headers)
                walked += 1
                assert res.status_code < 500, (method, rule.rule, res.status_code, res.get_data(as_text=True))
                if res.status_code == 400 and res.is_json and res.json.get("field") in FIELDS:
                    refused += 1
    assert walked > 100 and refused > 40  # most writes read the body and name the field
    db.session.rollback()
    assert db.session.query(Account).count() == accounts_before  # nothing half-written


def test_sign_in_with_a_lone_surrogate_names_the_field(client):
    res = client.post(
        "/api/auth/login", data=f'{{"username": "a{LONE}b", "password": "x"}}'.encode(), headers=JSON
    )
    assert res.status_code == 400 and res.json["field"] == "username"
    assert res.json["message"] == "username contains a character that is not valid text."
    res = client.post(
        "/api/auth/login", data=f'{{"username": "someone", "password": "{LONE}"}}'.encode(), headers=JSON
    )
    assert res.status_code == 400 and res.json["field"] == "password"


def test_a_device_reading_with_a_lone_surrogate_is_refused_and_nothing_is_stored(client):
    machine, key = keyed_machine()
    res = client.post(
        "/api/telemetry",
        data=f'{{"readings": [{{"ph": 7, "note": "{LONE}"}}]}}'.encode(),
        headers={**JSON, **device(key)},
    )
    assert res.status_code == 400 and res.json["field"] == "readings[0].note"
    assert "not valid text" in res.json["message"]  # the reader's refusal, not the reading's
    assert db.session.query(Reading).filter_by(machine_id=machine.id).count() == 0


@pytest.mark.parametrize(
    ("text", "field"),
    [
        (f'{{"name": "{LONE}"}}', "name"),
        (f'{{"items": [1, {{"note": "ok"}}, {{"note": "x{LONE}"}}]}}', "items[2].note"),
        (f'{{"a": {{"b": ["{LONE}"]}}}}', "a.b[0]"),
        (f'{{"{LONE}": 1}}', "body"),  # a key: named by the object that holds it
        ('{"name": "\\udfff\\ud800"}', "name"),
    ],
)
def test_the_reader_names_where_the_lone_surrogate_stands(text, field):
    with pytest.raises(Invalid) as refused:
        parse_object(text.encode())
    assert refused.value.field == field


def test_a_surrogate_pair_is_a_character_and_passes():
    assert parse_object(b'{"name": "\\ud83d\\ude00"}') == {"name": "\U0001f600"}
