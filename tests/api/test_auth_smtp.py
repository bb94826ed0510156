"""Sign-up e-mail through a real SMTP server started by the test, then the link it carries."""

from email import message_from_bytes
from email.policy import default as default_policy

import pytest
from sqlalchemy import select

from sibol.extensions import db
from sibol.models import Account, AccountStatus
from tests.factories_auth import link_in, signup_body
from tests.support.smtp import mail_settings


@pytest.fixture
def app_overrides(smtp):
    controller, _inbox = smtp
    return mail_settings(controller.port, SIBOL_BASE_URL="http://localhost")


def test_signup_mail_goes_through_smtp_and_its_link_verifies(client, smtp):
    _controller, inbox = smtp
    inbox.messages.clear()
    res = client.post("/api/auth/signup", json=signup_body("smtp.user@example.test"))
    assert res.status_code == 201
    assert len(inbox.messages) == 1
    envelope = inbox.messages[0]
    assert envelope.rcpt_tos == ["smtp.user@example.test"]
    message = message_from_bytes(envelope.content, policy=default_policy)
    assert "Verify your email address" in message["Subject"]
    text = message.get_body(preferencelist=("plain",)).get_content()
    link = link_in(text, "/email-verification")
    path = link.removeprefix("http://localhost")
    page = client.get(path)
    assert page.status_code == 200 and 'data-state="loading"' in page.get_data(as_text=True)
    token = path.split("token=", 1)[1]
    verified = client.get(f"/api/auth/verify-email/{token}")
    assert verified.status_code == 200 and verified.json["username"] == "smtp.user"
    account = db.session.scalar(select(Account).where(Account.email == "smtp.user@example.test"))
    assert account.status == AccountStatus.PENDING
