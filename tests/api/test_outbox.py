"""Without MAIL_SERVER, mail is written to the outbox beside the console's database, so two
consoles run from one checkout each find only their own mail there."""

from __future__ import annotations

import time

import pytest

from sibol import emails
from tests.factories import make_account


@pytest.fixture
def app_overrides():
    return {"MAIL_SUPPRESS_SEND": False, "MAIL_SERVER": None}


@pytest.fixture
def console_folder(monkeypatch, tmp_path):
    folder = tmp_path / "north"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{folder / 'sibol.sqlite3'}")
    return folder


def test_a_reset_code_lands_in_the_outbox_beside_the_database(console_folder, client):
    make_account(username="ana", email="ana@north.example.test")
    res = client.post("/api/auth/forgot-password", json={"email": "ana@north.example.test"})
    assert res.status_code == 200
    written = list((console_folder / "outbox").glob("*.eml"))
    assert len(written) == 1 and "ana@north.example.test" in written[0].name
    assert "ana@north.example.test" in written[0].read_text()


def test_two_mails_of_one_kind_to_one_address_in_one_second_are_both_kept(
    console_folder, client, monkeypatch
):
    stamp = time.strftime("%Y%m%d-%H%M%S")
    monkeypatch.setattr(emails.time, "strftime", lambda _fmt, *_when: stamp)  # both in one second
    with client.application.test_request_context():
        for code in ("111111", "222222"):
            emails.deliver_now("ana@north.example.test", "Code", code, f"<p>{code}</p>", "auth_reset_code")
    written = sorted(p.name for p in (console_folder / "outbox").glob("*.eml"))
    assert written == [
        f"{stamp}-auth_reset_code-ana@north.example.test-2.eml",
        f"{stamp}-auth_reset_code-ana@north.example.test.eml",
    ]
    bodies = [(console_folder / "outbox" / name).read_text() for name in written]
    assert "222222" in bodies[0] and "111111" in bodies[1]  # neither overwrote the other
