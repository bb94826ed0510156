"""Staff record a household's consent to reminders on the member's record with a plain form:
the fields' errors and nothing saved on bad input, the consent's time and staff account kept."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from sibol.extensions import db
from sibol.models import ReminderSubscription, RoleId
from tests.factories import make_account
from tests.factories_admin import session_client
from tests.factories_household import make_member

pytestmark = pytest.mark.usefixtures("fresh_identity")


def subscription(member_id: int) -> ReminderSubscription | None:
    db.session.expire_all()
    return db.session.scalar(select(ReminderSubscription).where(ReminderSubscription.member_id == member_id))


def test_the_member_record_has_the_reminders_form(app, staff):
    member = make_member("Ana Purok", barangay="Purok Uno")
    page = session_client(app, staff).get(f"/household/members/{member.id}/account").get_data(as_text=True)
    assert f'action="/household/members/{member.id}/reminders"' in page
    assert 'name="csrf_token"' in page and 'name="consent"' in page and 'name="mobile"' in page
    assert "This household has not agreed to reminders." in page


def test_bad_input_shows_the_fields_errors_and_saves_nothing(app, staff):
    member = make_member("Ana Purok", barangay="Purok Uno")
    client = session_client(app, staff)
    res = client.post(f"/household/members/{member.id}/reminders", data={"bySms": "on", "mobile": "0817 123"})
    page = res.get_data(as_text=True)
    assert res.status_code == 400
    assert "Mobile number must be a Philippine mobile" in page and "The household must agree" in page
    assert 'value="0817 123"' in page  # what was typed is kept
    assert subscription(member.id) is None
    res = client.post(f"/household/members/{member.id}/reminders", data={"consent": "on"})
    assert res.status_code == 400 and "Choose SMS, e-mail or both." in res.get_data(as_text=True)
    assert subscription(member.id) is None
    assert client.post("/household/members/999999/reminders", data={"consent": "on"}).status_code == 404


def test_the_consent_is_recorded_with_its_time_and_the_staff_account(app, staff):
    member = make_member("Ana Purok", barangay="Purok Uno")
    client = session_client(app, staff)
    res = client.post(
        f"/household/members/{member.id}/reminders",
        data={"bySms": "on", "mobile": "0917-123-4567", "language": "en", "consent": "on"},
    )
    assert res.status_code == 302 and res.headers["Location"].endswith(
        f"/household/members/{member.id}/account#reminders"
    )
    sub = subscription(member.id)
    assert sub is not None and sub.by_sms and not sub.by_email and sub.mobile == "+639171234567"
    assert sub.consent_by_id == staff.id and sub.consent_at is not None and sub.language == "en"
    page = client.get(f"/household/members/{member.id}/account").get_data(as_text=True)
    assert f"recorded by {staff.username}" in page and 'value="+639171234567"' in page
    # the API reads the same record
    assert client.get(f"/api/household/members/{member.id}/reminders").get_json()["reminders"]["mobile"] == (
        "+639171234567"
    )


def test_a_household_account_cannot_record_anothers_consent(app):
    member = make_member("Ana Purok", barangay="Purok Uno")
    client = session_client(app, make_account(role=RoleId.HOUSEHOLD))
    data = {"bySms": "on", "mobile": "09171234567", "consent": "on"}
    res = client.post(f"/household/members/{member.id}/reminders", data=data)
    assert res.status_code == 403 and subscription(member.id) is None
