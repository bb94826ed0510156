"""Reminders the evening before a collection, through a local server that speaks the SMS
gateway's API and the test SMTP server: sent once, none for a cancelled collection, the stop link,
the daily cap, a gateway error retried and then shown as failed, bad input refused."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from sibol.extensions import db
from sibol.i18n import localtime
from sibol.models import (
    Barangay,
    CollectionArea,
    CollectionSchedule,
    CollectionStatus,
    ReminderMessage,
    ReminderStatus,
    RoleId,
)
from sibol.reminders import service, tasks, texts
from tests.factories import make_account
from tests.factories_admin import session_client
from tests.factories_household import make_member
from tests.support.smsgateway import sms_gateway, sms_settings
from tests.support.smtp import mail_settings

pytestmark = pytest.mark.usefixtures("fresh_identity")


@pytest.fixture(scope="module")
def gateway():
    yield from sms_gateway()


@pytest.fixture
def app_overrides(smtp, gateway):
    controller, _inbox = smtp
    return {**mail_settings(controller.port), **sms_settings(gateway), "SIBOL_REMINDER_TRIES": 3}


@pytest.fixture
def world(app, smtp, gateway):
    """Reminders due now (hour 0), a collection tomorrow in Purok Uno, a household there that
    agreed to SMS and e-mail."""
    gateway.clear()
    smtp[1].messages.clear()
    barangay = db.session.scalar(select(Barangay).order_by(Barangay.id))
    barangay.reminder_hour, barangay.collection_window = 0, "6-8 AM"
    schedule = CollectionSchedule(
        maintenance_person="Jun",
        collector_contact="09170000000",
        collection_date=localtime.today() + timedelta(days=1),
    )
    schedule.areas = [CollectionArea(name="Purok Uno", position=0)]
    db.session.add(schedule)
    db.session.commit()
    staff = make_account(role=RoleId.STAFF)
    member = make_member("Ana Purok", barangay="Purok Uno")
    sub = service.subscribe(
        member,
        {
            "bySms": True,
            "byEmail": True,
            "mobile": "0917 123 4567",
            "email": "ana@example.test",
            "consent": True,
        },
        staff,
    )
    return {"barangay": barangay, "schedule": schedule, "sub": sub, "staff": staff}


def statuses() -> list[tuple[str, str]]:
    return sorted(
        (c, s) for c, s in db.session.execute(select(ReminderMessage.channel, ReminderMessage.status))
    )


def test_mobiles_are_checked_and_stored_as_plus_63():
    assert texts.clean_mobile("09171234567") == texts.clean_mobile("+63 917 123 4567") == "+639171234567"
    for bad in ("9171234567", "08171234567", "+6391712345", "0917123456a", "", None, 917):
        with pytest.raises(Exception) as err:
            texts.clean_mobile(bad)
        assert err.value.field == "mobile"


def test_texts_fit_one_sms_in_both_languages(app):
    day = localtime.today()
    long_name = "Barangay Santo Niño de la Concepción Poblacion Uno"
    for language in ("en", "fil"):
        text = texts.sms_text(
            language,
            long_name,
            "Purok Maligaya, Purok Masagana, Purok Mabuhay",
            day,
            "https://sibol.example.ph/r/stop/abcdefghijk",
            "12:30-14:30 Tue/Thu",  # the longest window allowed, too
        )
        assert texts.gsm7_length(text) is not None and texts.gsm7_length(text) <= 160
        assert "https://sibol.example.ph/r/stop/abcdefghijk" in text and "Purok" in text


def test_sent_once_by_sms_and_email_even_when_the_job_runs_twice(app, world, gateway, smtp):
    tasks.run()
    tasks.run()
    assert len(gateway.received) == 1 and len(smtp[1].messages) == 1
    sms = gateway.received[0]
    assert sms["number"] == "+639171234567" and sms["sendername"] == "SIBOL"
    assert "Purok Uno" in sms["message"] and f"/r/stop/{world['sub'].stop_token}" in sms["message"]
    assert "6-8 AM" in sms["message"] and "6-8 AM" in smtp[1].messages[0].content.decode(errors="replace")
    assert texts.gsm7_length(sms["message"]) <= 160
    assert smtp[1].messages[0].rcpt_tos == ["ana@example.test"]
    assert statuses() == [("email", "sent"), ("sms", "sent")]
    page = session_client(app, world["staff"]).get("/reminders").get_data(as_text=True)
    assert 'data-status="sms-sent"' in page and "SMS cost: PHP 0.50" in page


def test_a_cancelled_collection_sends_none(app, world, gateway, smtp):
    world["schedule"].status = CollectionStatus.COLLECTED
    db.session.commit()
    tasks.run()
    assert gateway.received == [] and smtp[1].messages == []
    db.session.delete(world["schedule"])
    db.session.commit()
    tasks.run()
    assert gateway.received == []


def test_the_stop_link_ends_them_at_once(app, world, gateway, client):
    link = f"/r/stop/{world['sub'].stop_token}"
    res = client.get(link)  # a link preview fetching it stops nothing
    page = res.get_data(as_text=True)
    assert res.status_code == 200 and 'id="stop"' in page and f'action="{link}"' in page
    assert 'name="csrf_token"' in page and "Stop reminders" in page
    db.session.refresh(world["sub"])
    assert world["sub"].stopped_at is None
    res = client.post(link)  # no sign-in: the token is the authority
    assert res.status_code == 200 and 'id="stopped"' in res.get_data(as_text=True)
    tasks.run()
    assert gateway.received == []
    assert "already stopped" in client.get(link).get_data(as_text=True)
    assert client.get("/r/stop/not-a-token").status_code == 404
    assert client.post("/r/stop/not-a-token").status_code == 404


def test_the_stop_button_needs_the_forms_csrf_token(app, world, gateway, monkeypatch):
    monkeypatch.setitem(app.config, "WTF_CSRF_ENABLED", True)
    client = app.test_client()
    link = f"/r/stop/{world['sub'].stop_token}"
    assert client.post(link).status_code == 400  # another site's form cannot stop them
    db.session.refresh(world["sub"])
    assert world["sub"].stopped_at is None
    page = client.get(link).get_data(as_text=True)
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    res = client.post(link, data={"csrf_token": token})
    assert res.status_code == 200 and 'id="stopped"' in res.get_data(as_text=True)


def test_the_daily_cap_holds(app, world, gateway):
    world["barangay"].sms_daily_cap = 1
    db.session.commit()
    other = make_member("Ben Purok", barangay="Purok Uno")
    service.subscribe(other, {"bySms": True, "mobile": "+639181234567", "consent": True}, world["staff"])
    tasks.run()
    assert len(gateway.received) == 1
    assert sorted(s for c, s in statuses() if c == "sms") == ["capped", "sent"]


def test_a_gateway_error_is_retried_then_shown_as_failed(app, world, gateway):
    gateway.refuse = 10
    due = service.plan(sms_on=True)
    sms_id = next(i for i in due if db.session.get(ReminderMessage, i).channel == "sms")
    for _try in range(2):
        with pytest.raises(tasks.RetryLater):
            tasks.send_now(sms_id)
        assert db.session.get(ReminderMessage, sms_id).status == ReminderStatus.QUEUED
    assert tasks.send_now(sms_id) == ReminderStatus.FAILED
    message = db.session.get(ReminderMessage, sms_id)
    assert message.attempts == 3 and "500" in message.error
    page = session_client(app, world["staff"]).get("/reminders").get_data(as_text=True)
    assert 'data-status="sms-failed"' in page
    gateway.refuse = 0
    assert tasks.send_now(sms_id) == "skipped" and gateway.received == []  # failed stays failed


def test_the_resident_opts_in_and_bad_input_saves_nothing(app, world):
    account = make_account(role=RoleId.HOUSEHOLD)
    member = make_member("Cora Home", barangay="Purok Uno")
    member.account_id = account.id
    db.session.commit()
    me = session_client(app, account)
    bad = me.post("/household/my/reminders", data={"bySms": "on", "mobile": "12345", "consent": "on"})
    assert bad.status_code == 302 and service.subscription_of(member) is None
    page = me.get("/household/my").get_data(as_text=True)
    assert "Philippine mobile" in page
    me.post("/household/my/reminders", data={"bySms": "on", "mobile": "09191234567"})  # no consent
    assert service.subscription_of(member) is None
    ok = me.post("/household/my/reminders", data={"bySms": "on", "mobile": "09191234567", "consent": "on"})
    assert ok.status_code == 302 and service.subscription_of(member).mobile == "+639191234567"


def test_reminder_hour_out_of_range_is_refused(app, world):
    admin = session_client(app, make_account(role=RoleId.ADMIN, barangay_id=world["barangay"].id))
    res = admin.post("/reminders/settings", data={"reminderHour": "24", "smsDailyCap": "50"})
    assert res.status_code == 400 and 'id="reminderHour-error"' in res.get_data(as_text=True)
    res = admin.post(
        "/reminders/settings",
        data={"reminderHour": "19", "smsDailyCap": "50", "collectionWindow": "6–8 AM ☀"},
    )
    assert res.status_code == 400 and 'id="collectionWindow-error"' in res.get_data(as_text=True)
    assert db.session.get(Barangay, world["barangay"].id).reminder_hour == 0  # nothing half-saved
    form = {"reminderHour": "19", "smsDailyCap": "50", "collectionWindow": "7-9 AM"}
    assert admin.post("/reminders/settings", data=form).status_code == 302
    saved = db.session.get(Barangay, world["barangay"].id)
    assert (saved.reminder_hour, saved.sms_daily_cap, saved.collection_window) == (19, 50, "7-9 AM")


def test_without_gateway_settings_sms_is_off_and_the_page_says_so(app, world, gateway):
    app.config["SIBOL_SMS_URL"] = None
    tasks.run()
    assert gateway.received == [] and statuses() == [("email", "sent")]
    page = session_client(app, world["staff"]).get("/reminders").get_data(as_text=True)
    assert "SMS is off" in page


def test_a_message_taken_by_one_worker_is_skipped_by_another(app, world, gateway):
    due = service.plan(sms_on=True)
    first = service.claim(due[0])
    assert first is not None and first.status == ReminderStatus.SENDING and first.attempts == 1
    assert service.claim(due[0]) is None  # a second worker holding the same id sends nothing
    assert tasks.send_now(due[0]) == "skipped" and gateway.received == []


def test_staff_record_consent_on_the_member_record(app, client, api_headers, world):
    staff = world["staff"]
    member = make_member("Dina Record", barangay="Purok Uno")
    url = f"/api/household/members/{member.id}/reminders"
    assert client.get(url, headers=api_headers(staff)).json["reminders"] is None
    for body, field in (
        ({"bySms": True, "mobile": "0817", "consent": True}, "mobile"),
        ({"byEmail": True, "email": "not-mail", "consent": True}, "email"),
        ({"bySms": True, "mobile": "09171234567"}, "consent"),
        ({"consent": True}, "bySms"),
    ):
        res = client.put(url, json=body, headers=api_headers(staff))
        assert res.status_code == 400 and res.json["field"] == field, res.json
    assert service.subscription_of(member) is None  # nothing half-saved
    res = client.put(
        url, json={"bySms": True, "mobile": "+639171112222", "consent": True}, headers=api_headers(staff)
    )
    assert res.status_code == 200 and res.json["reminders"]["mobile"] == "+639171112222"
    assert (
        client.put("/api/household/members/999999/reminders", json={}, headers=api_headers(staff)).status_code
        == 404
    )
    household = make_account(role=RoleId.HOUSEHOLD)
    assert client.put(url, json={"consent": True}, headers=api_headers(household)).status_code == 403


def test_a_worker_that_died_while_sending_leaves_a_failure_not_a_second_text(app, world, gateway):
    due = service.plan(sms_on=True)
    sms_id = next(i for i in due if db.session.get(ReminderMessage, i).channel == "sms")
    taken = service.claim(sms_id)
    taken.sent_at = taken.sent_at - timedelta(hours=1)  # the worker died an hour ago, mid-send
    db.session.commit()
    tasks.run()
    assert db.session.get(ReminderMessage, sms_id).status == ReminderStatus.FAILED
    assert gateway.received == []  # never sent a second time


def test_a_stop_reply_ends_the_sms_reminders_to_that_number(app, world, gateway, smtp, client, monkeypatch):
    monkeypatch.setitem(app.config, "SIBOL_SMS_INBOUND_SECRET", "gateway-secret")
    other = make_member("Ben Purok", barangay="Purok Uno")
    service.subscribe(other, {"bySms": True, "mobile": "09171234567", "consent": True}, world["staff"])
    third = make_member("Cora Purok", barangay="Purok Uno")
    service.subscribe(third, {"bySms": True, "mobile": "09181234567", "consent": True}, world["staff"])
    headers = {"X-Sibol-Secret": "gateway-secret"}
    res = client.post(
        "/api/reminders/inbound", data={"number": "639171234567", "message": "ok po"}, headers=headers
    )
    assert res.status_code == 200 and res.get_json()["stopped"] == 0  # not STOP: ignored
    res = client.post(
        "/api/reminders/inbound", data={"number": "639171234567", "message": "  sToP \n"}, headers=headers
    )
    assert res.status_code == 200 and res.get_json()["stopped"] == 2
    tasks.run()
    assert [sms["number"] for sms in gateway.received] == ["+639181234567"]  # the other number still
    assert len(smtp[1].messages) == 1  # Ana's e-mail reminders go on
    page = session_client(app, world["staff"]).get(f"/api/household/members/{other.id}/reminders")
    assert page.get_json()["reminders"]["stopped"] is True


def test_the_inbound_endpoint_needs_its_secret(app, world, client, monkeypatch):
    reply = {"number": "09171234567", "message": "STOP"}
    assert client.post("/api/reminders/inbound", data=reply).status_code == 404  # no setting, no endpoint
    monkeypatch.setitem(app.config, "SIBOL_SMS_INBOUND_SECRET", "gateway-secret")
    assert client.post("/api/reminders/inbound", data=reply).status_code == 403
    wrong = client.post("/api/reminders/inbound", data=reply, headers={"X-Sibol-Secret": "gateway-secreT"})
    assert wrong.status_code == 403 and wrong.is_json
    db.session.refresh(world["sub"])
    assert world["sub"].by_sms and world["sub"].stopped_at is None
    res = client.post("/api/reminders/inbound?secret=gateway-secret", json={"message": "STOP"})
    assert res.status_code == 400 and res.get_json()["field"] == "number"
    res = client.post(
        "/api/reminders/inbound?secret=gateway-secret", json={"number": "0917", "message": "STOP"}
    )
    assert res.status_code == 200 and res.get_json()["stopped"] == 0
    res = client.post("/api/reminders/inbound?secret=gateway-secret", json=reply)
    assert res.status_code == 200 and res.get_json()["stopped"] == 1
    db.session.refresh(world["sub"])
    assert not world["sub"].by_sms and world["sub"].by_email and world["sub"].stopped_at is None
