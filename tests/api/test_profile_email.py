"""Profile e-mail change through a real SMTP server: the new address takes effect only when the
link e-mailed to it is opened (part 5)."""

from __future__ import annotations

from email import message_from_bytes
from email.policy import default as default_policy

import pytest

from sibol.extensions import db
from sibol.models import Account, RoleId
from tests.factories import make_account
from tests.factories_admin import session_client
from tests.factories_auth import link_in
from tests.support.smtp import mail_settings

pytestmark = pytest.mark.usefixtures("fresh_identity")


@pytest.fixture
def app_overrides(smtp):
    controller, _inbox = smtp
    return mail_settings(controller.port, SIBOL_BASE_URL="http://localhost")


def email_of(account_id: int) -> str | None:
    db.session.expire_all()
    return db.session.get(Account, account_id).email


def test_email_change_takes_effect_through_the_mailed_link(app, smtp):
    _controller, inbox = smtp
    inbox.messages.clear()
    account = make_account(role=RoleId.HOUSEHOLD, email="old@example.test")
    make_account(email="taken@example.test")
    page = session_client(app, account)
    taken = page.post("/profile/email", data={"email": "Taken@example.test"})
    assert taken.status_code == 409 and "Another account uses this e-mail address." in taken.get_data(
        as_text=True
    )
    bad = page.post("/profile/email", data={"email": "nope"})
    assert bad.status_code == 400 and "Enter a valid e-mail address." in bad.get_data(as_text=True)
    assert inbox.messages == []
    res = page.post("/profile/email", data={"email": "new@example.test"}, follow_redirects=True)
    assert "We sent a link to new@example.test" in res.get_data(as_text=True)
    assert "Waiting for confirmation: <strong>new@example.test</strong>" in res.get_data(as_text=True)
    assert email_of(account.id) == "old@example.test"  # not before the link is opened
    assert len(inbox.messages) == 1 and inbox.messages[0].rcpt_tos == ["new@example.test"]
    message = message_from_bytes(inbox.messages[0].content, policy=default_policy)
    assert "Confirm your new e-mail address" in message["Subject"]
    link = link_in(message.get_body(preferencelist=("plain",)).get_content(), "/profile/email/confirm")
    path = link.removeprefix("http://localhost")
    opened = app.test_client().get(path)  # e.g. on the phone, not signed in
    assert opened.status_code == 200 and "now <strong>new@example.test</strong>" in opened.get_data(
        as_text=True
    )
    assert email_of(account.id) == "new@example.test"
    again = app.test_client().get(path)
    assert again.status_code == 400 and "already used" in again.get_data(as_text=True)
    assert app.test_client().get("/profile/email/confirm?token=forged").status_code == 400


def test_email_change_by_api_and_a_newer_request_replaces_the_older_link(app, smtp, api_headers):
    _controller, inbox = smtp
    inbox.messages.clear()
    account = make_account(email="first@example.test")
    h = api_headers(account)
    res = app.test_client().put("/api/me", json={"email": "second@example.test"}, headers=h)
    assert res.status_code == 200 and res.json["user"]["pendingEmail"] == "second@example.test"
    res = app.test_client().put("/api/me", json={"email": "third@example.test"}, headers=h)
    assert res.status_code == 200
    links = [
        link_in(
            message_from_bytes(m.content, policy=default_policy)
            .get_body(preferencelist=("plain",))
            .get_content(),
            "/profile/email/confirm",
        ).removeprefix("http://localhost")
        for m in inbox.messages
    ]
    assert len(links) == 2
    assert app.test_client().get(links[0]).status_code == 400  # replaced by the newer request
    assert email_of(account.id) == "first@example.test"
    assert app.test_client().get(links[1]).status_code == 200
    assert email_of(account.id) == "third@example.test"
