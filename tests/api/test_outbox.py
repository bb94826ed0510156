"""Without MAIL_SERVER, mail is written to the outbox beside the console's database, so two
consoles run from one checkout each find only their own mail there."""

from __future__ import annotations

import pytest

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
