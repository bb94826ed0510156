"""Forgot Password without JavaScript: the dialog's steps as server-rendered form posts.

Each step goes through the same service functions as /api/auth/forgot-password,
verify-reset-code and reset-password; the reset step checks the code again.
"""

from __future__ import annotations

import html
import re
from datetime import timedelta

from sqlalchemy import select

from sibol.auth import service
from sibol.extensions import db, mail
from sibol.identity import onetime
from sibol.identity.passwords import PASSWORD_RULE_MESSAGE, password_rules, verify_password
from sibol.models import AccountStatus, utcnow
from sibol.models.auth import AccountToken
from tests.factories import DEFAULT_PASSWORD, make_account
from tests.factories_auth import code_in

NEW = "N3w-Passw0rd!"
EMAIL = "reset.nojs@example.test"


def dialog(res) -> str:
    """The Forgot Password dialog's server-rendered steps."""
    text = res.get_data(as_text=True)
    start = text.index('<dialog id="forgot-password"')
    return text[start : text.index("</dialog>", start)]


def step_of(part: str) -> str:
    return re.search(r'class="stack fp-steps" id="fp-steps" data-step="(\w+)"', part).group(1)


def banner(part: str, kind: str) -> str | None:
    found = re.search(rf'class="banner banner--{kind}" role="\w+">([^<]*)</p>', part)
    return html.unescape(found.group(1)) if found else None


def hidden(part: str, name: str) -> str | None:
    found = re.search(rf'<input type="hidden" name="{name}" value="([^"]*)">', part)
    return html.unescape(found.group(1)) if found else None


def request_code(client, email: str = EMAIL):
    with mail.record_messages() as outbox:
        res = client.post("/forgot-password", data={"email": email})
    return res, outbox


def live_token() -> AccountToken:
    return db.session.scalar(select(AccountToken).order_by(AccountToken.id.desc()))


def test_login_with_forgot_shows_the_email_step_as_an_open_dialog(client):
    res = client.get("/login?forgot=1")
    part = dialog(res)
    assert res.status_code == 200
    assert part.startswith(
        '<dialog id="forgot-password" class="modal" aria-labelledby="forgot-password-title" open>'
    )
    assert "Forgot Password" in part and step_of(part) == "email"
    assert '<label for="forgot-email">Enter your account email</label>' in part
    assert 'action="/forgot-password"' in part and 'name="csrf_token"' in part
    assert '<a class="btn fp-back" href="/login" id="forgot-cancel">Cancel</a>' in part
    assert ">Send Reset Code</button>" in part
    assert "needs JavaScript" not in res.get_data(as_text=True)
    # Without ?forgot the dialog is closed (the island opens it), the steps are there for it.
    assert '" open>' not in dialog(client.get("/login"))
    # A GET of the form's address (a reload, a bookmark) goes back to the dialog.
    got = client.get("/forgot-password")
    assert got.status_code == 302 and got.headers["Location"] == "/login?forgot=1"


def test_whole_recovery_through_the_forms_then_sign_in(client):
    user = make_account(email=EMAIL)
    res, outbox = request_code(client, f"  {EMAIL.upper()} ")
    part = dialog(res)
    assert res.status_code == 200 and step_of(part) == "verify"
    assert banner(part, "info") == "Reset code sent. Check your email." and banner(part, "error") is None
    assert hidden(part, "email") == EMAIL.upper()
    assert '<label for="forgot-code" id="forgot-code-label">Enter 6-digit code</label>' in part
    code_input = re.search(r'<input id="forgot-code"[^>]*>', part).group(0)
    for attr in ('name="code"', 'inputmode="numeric"', 'maxlength="6"', 'autocomplete="one-time-code"'):
        assert attr in code_input
    assert ">Verify Code</button>" in part and ">Back</button>" in part
    assert "Didn't get an email?" in part and ">Resend code</button>" in part
    code = code_in(outbox[0].body)

    res = client.post("/forgot-password/verify", data={"email": hidden(part, "email"), "code": f" {code} "})
    part = dialog(res)
    assert res.status_code == 200 and step_of(part) == "reset"
    assert banner(part, "info") == "Code verified. Enter your new password."
    assert hidden(part, "code") == code and hidden(part, "email") == EMAIL.upper()
    assert '<label for="newPassword">New password</label>' in part
    assert '<label for="confirmPassword">Confirm password</label>' in part
    assert len(re.findall(r'<li data-rule="\w+"', part)) == 5
    assert ">Reset Password</button>" in part and ">Back</button>" in part
    db.session.refresh(user)
    assert verify_password(user.password_hash, DEFAULT_PASSWORD)  # verifying changed nothing

    res = client.post(
        "/forgot-password/reset",
        data={
            "email": hidden(part, "email"),
            "code": hidden(part, "code"),
            "newPassword": NEW,
            "confirmPassword": NEW,
        },
    )
    part = dialog(res)
    assert res.status_code == 200 and step_of(part) == "done"
    assert banner(part, "success") == "Your password was reset successfully."
    assert '<a class="btn btn--primary" href="/login" id="forgot-close">Close</a>' in part
    db.session.refresh(user)
    assert verify_password(user.password_hash, NEW)
    assert live_token().used_at is not None

    assert (
        client.post("/login", data={"username": user.username, "password": DEFAULT_PASSWORD}).status_code
        == 400
    )
    assert client.post("/login", data={"username": user.username, "password": NEW}).status_code == 302


def test_bad_email_stays_on_the_email_step_and_sends_nothing(client):
    for bad in ["", "   ", "not an email", "a b@example.test", "x@" + "e" * 250 + ".test"]:
        res, outbox = request_code(client, bad)
        part = dialog(res)
        assert res.status_code == 400 and step_of(part) == "email", bad
        assert banner(part, "error") == "Please enter a valid email."
        assert outbox == []
    assert db.session.scalar(select(AccountToken)) is None


def test_the_answer_is_the_same_for_unknown_inactive_and_real_emails(client):
    make_account(email=EMAIL)
    pending = make_account(status=AccountStatus.PENDING, email="pending.nojs@example.test")
    answers = []
    for email in (EMAIL, "ghost@example.test", pending.email):
        res, _outbox = request_code(client, email)
        part = dialog(res)
        answers.append((res.status_code, step_of(part), banner(part, "info"), banner(part, "error")))
    assert answers == [(200, "verify", service.RESET_SENT, None)] * 3
    assert len(list(db.session.scalars(select(AccountToken)))) == 1


def test_the_email_is_escaped_when_shown_again(client):
    res, _ = request_code(client, '"><script>alert(1)</script>')
    text = res.get_data(as_text=True)
    assert res.status_code == 400 and "<script>alert(1)" not in text
    assert 'value="&#34;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"' in text


def test_resend_code_from_the_verify_step_sends_a_new_code(client):
    make_account(email=EMAIL)
    _res, first = request_code(client)
    res, second = request_code(client)  # the Resend code button posts the hidden email here
    assert step_of(dialog(res)) == "verify" and banner(dialog(res), "info") == service.RESET_SENT
    old, new = code_in(first[0].body), code_in(second[0].body)
    if old != new:  # the first code was retired
        res = client.post("/forgot-password/verify", data={"email": EMAIL, "code": old})
        assert res.status_code == 400 and banner(dialog(res), "error") == service.INVALID_CODE
    res = client.post("/forgot-password/verify", data={"email": EMAIL, "code": new})
    assert res.status_code == 200 and step_of(dialog(res)) == "reset"


def test_code_format_is_checked_without_spending_a_try(client):
    make_account(email=EMAIL)
    request_code(client)
    for bad in ["", "12345", "1234567", "12a456", "١٢٣٤٥٦"]:
        res = client.post("/forgot-password/verify", data={"email": EMAIL, "code": bad})
        part = dialog(res)
        assert res.status_code == 400 and step_of(part) == "verify", bad
        assert banner(part, "error") == "Code must be a 6-digit number."
        assert hidden(part, "email") == EMAIL
    api = client.post("/api/auth/verify-reset-code", json={"email": EMAIL, "code": "١٢٣٤٥٦"})  # same rule
    assert api.status_code == 400 and api.json["message"] == "Code must be a 6-digit number."
    assert live_token().failed_attempts == 0


def test_a_wrong_code_counts_as_a_try_and_five_kill_the_code(client):
    make_account(email=EMAIL)
    _res, outbox = request_code(client)
    code = code_in(outbox[0].body)
    wrong = "000000" if code != "000000" else "111111"
    res = client.post("/forgot-password/verify", data={"email": EMAIL, "code": wrong})
    part = dialog(res)
    assert res.status_code == 400 and step_of(part) == "verify"
    assert banner(part, "error") == "Invalid or expired code. Request a new code if needed."
    assert live_token().failed_attempts == 1
    for _ in range(onetime.MAX_CODE_ATTEMPTS - 1):
        client.post("/forgot-password/verify", data={"email": EMAIL, "code": wrong})
    res = client.post("/forgot-password/verify", data={"email": EMAIL, "code": code})
    assert res.status_code == 400 and banner(dialog(res), "error") == service.INVALID_CODE


def test_an_expired_or_used_code_is_refused(client):
    user = make_account(email=EMAIL)
    _res, outbox = request_code(client)
    code = code_in(outbox[0].body)
    token = live_token()
    token.expires_at = utcnow() - timedelta(seconds=1)
    db.session.commit()
    res = client.post("/forgot-password/verify", data={"email": EMAIL, "code": code})
    assert res.status_code == 400 and banner(dialog(res), "error") == service.INVALID_CODE

    _res, outbox = request_code(client)
    code = code_in(outbox[0].body)
    data = {"email": EMAIL, "code": code, "newPassword": NEW, "confirmPassword": NEW}
    assert step_of(dialog(client.post("/forgot-password/reset", data=data))) == "done"
    for path in ("/forgot-password/verify", "/forgot-password/reset"):
        res = client.post(
            path, data={**data, "newPassword": "Other-Passw0rd!", "confirmPassword": "Other-Passw0rd!"}
        )
        part = dialog(res)
        assert res.status_code == 400 and step_of(part) == "verify", path
        assert banner(part, "error") == service.INVALID_CODE
    db.session.refresh(user)
    assert verify_password(user.password_hash, NEW)


def test_the_reset_step_checks_the_code_again(client):
    """A made-up code in the hidden field is refused and counts as a try: no "verified" flag."""
    user = make_account(email=EMAIL)
    _res, outbox = request_code(client)
    code = code_in(outbox[0].body)
    wrong = "000000" if code != "000000" else "111111"
    res = client.post(
        "/forgot-password/reset",
        data={"email": EMAIL, "code": wrong, "newPassword": NEW, "confirmPassword": NEW, "verified": "1"},
    )
    part = dialog(res)
    assert res.status_code == 400 and step_of(part) == "verify"
    assert banner(part, "error") == service.INVALID_CODE and hidden(part, "email") == EMAIL
    assert live_token().failed_attempts == 1
    db.session.refresh(user)
    assert verify_password(user.password_hash, DEFAULT_PASSWORD)
    # Another account's e-mail with this code: refused as well.
    other = make_account(email="other.nojs@example.test")
    res = client.post(
        "/forgot-password/reset",
        data={"email": other.email, "code": code, "newPassword": NEW, "confirmPassword": NEW},
    )
    assert res.status_code == 400 and banner(dialog(res), "error") == service.INVALID_CODE
    db.session.refresh(other)
    assert verify_password(other.password_hash, DEFAULT_PASSWORD)
    # A tampered e-mail goes back to the email step.
    res = client.post(
        "/forgot-password/reset",
        data={"email": "nope", "code": code, "newPassword": NEW, "confirmPassword": NEW},
    )
    assert step_of(dialog(res)) == "email" and banner(dialog(res), "error") == "Please enter a valid email."


def test_a_weak_password_shows_the_rule_and_the_checklist_for_what_was_typed(client):
    user = make_account(email=EMAIL)
    _res, outbox = request_code(client)
    code = code_in(outbox[0].body)
    for weak in ["abcDEF12", "short1!", "ALLUPPER1!", "", "Aa1!" * 70]:
        res = client.post(
            "/forgot-password/reset",
            data={"email": EMAIL, "code": code, "newPassword": weak, "confirmPassword": weak},
        )
        part = dialog(res)
        assert res.status_code == 400 and step_of(part) == "reset", weak
        assert banner(part, "error") == PASSWORD_RULE_MESSAGE
        assert hidden(part, "code") == code and hidden(part, "email") == EMAIL
        shown = dict(re.findall(r'<li data-rule="(\w+)" data-met="(true|false)">', part))
        assert shown == {k: str(v).lower() for k, v in password_rules(weak[:256]).items()}
        assert weak == "" or weak not in part  # the password is never echoed back
    assert 'data-met="true"' in dialog(
        client.post("/forgot-password/reset", data={"email": EMAIL, "code": code, "newPassword": "abcDEF12"})
    )
    assert live_token().failed_attempts == 0  # the rule is checked before the code
    db.session.refresh(user)
    assert verify_password(user.password_hash, DEFAULT_PASSWORD)


def test_passwords_that_do_not_match_change_nothing(client):
    user = make_account(email=EMAIL)
    _res, outbox = request_code(client)
    code = code_in(outbox[0].body)
    res = client.post(
        "/forgot-password/reset",
        data={"email": EMAIL, "code": code, "newPassword": NEW, "confirmPassword": NEW + "x"},
    )
    part = dialog(res)
    assert res.status_code == 400 and step_of(part) == "reset"
    assert banner(part, "error") == "Passwords do not match"
    assert 'data-met="false"' not in part  # the password itself was fine
    assert live_token().failed_attempts == 0 and live_token().used_at is None
    db.session.refresh(user)
    assert verify_password(user.password_hash, DEFAULT_PASSWORD)


def test_back_buttons_return_to_the_previous_step_with_the_email(client):
    res = client.post("/forgot-password/back", data={"to": "email", "email": EMAIL, "code": "123456"})
    part = dialog(res)
    assert res.status_code == 200 and step_of(part) == "email"
    assert f'value="{EMAIL}"' in part and banner(part, "error") is None
    res = client.post("/forgot-password/back", data={"to": "verify", "email": EMAIL, "code": "123456"})
    part = dialog(res)
    assert step_of(part) == "verify" and hidden(part, "email") == EMAIL
    assert step_of(dialog(client.post("/forgot-password/back", data={"to": "reset"}))) == "email"


def test_debug_codes_are_shown_only_when_configured(client, app):
    make_account(email=EMAIL)
    app.config["SIBOL_DEBUG_CODES"] = True
    res, outbox = request_code(client)
    assert banner(dialog(res), "info") == f"Debug code: {code_in(outbox[0].body)}"
    res, _ = request_code(client, "ghost@example.test")
    assert banner(dialog(res), "info") == service.RESET_SENT


def test_posts_without_the_csrf_token_are_refused(client, app):
    make_account(email=EMAIL)
    app.config["WTF_CSRF_ENABLED"] = True
    for path in (
        "/forgot-password",
        "/forgot-password/verify",
        "/forgot-password/reset",
        "/forgot-password/back",
    ):
        res = client.post(
            path, data={"email": EMAIL, "code": "123456", "newPassword": NEW, "confirmPassword": NEW}
        )
        assert res.status_code == 400, path
        assert "security token" in res.get_data(as_text=True)
    assert db.session.scalar(select(AccountToken)) is None
    page = client.get("/login?forgot=1").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', dialog_text(page)).group(1)
    with mail.record_messages() as outbox:
        res = client.post("/forgot-password", data={"email": EMAIL, "csrf_token": token})
    assert res.status_code == 200 and step_of(dialog(res)) == "verify" and len(outbox) == 1


def dialog_text(page: str) -> str:
    start = page.index('<dialog id="forgot-password"')
    return page[start:]


def test_the_page_and_the_api_share_one_rate_limit(client):
    for _ in range(3):
        assert (
            client.post("/api/auth/forgot-password", json={"email": "ghost@example.test"}).status_code == 200
        )
    for _ in range(2):
        assert request_code(client, "ghost@example.test")[0].status_code == 200
    assert request_code(client, "ghost@example.test")[0].status_code == 429
    assert client.post("/api/auth/forgot-password", json={"email": "ghost@example.test"}).status_code == 429
    # The Back button is not limited: going back never sends or checks anything.
    assert client.post("/forgot-password/back", data={"to": "email"}).status_code == 200
