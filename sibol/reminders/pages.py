"""/reminders (what was sent, failed and cost; the barangay's reminder hour and SMS cap), the
resident's consent form on My household, and the stop link /r/stop/<token> (a page with one button)."""

from __future__ import annotations

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from ..errors import Invalid, ServiceError
from ..extensions import db
from ..household import service as household
from ..household.residents import service as resident
from ..identity import tenancy
from ..identity.access import module_required, public
from ..models import Account, Barangay, HouseholdMember, ModuleId
from . import service, texts
from .gateway import gateway_from

bp = Blueprint("reminders", __name__)


def _barangay() -> Barangay | None:
    scope = tenancy.current_scope()
    if scope is None:
        return None
    with tenancy.unscoped():
        return db.session.get(Barangay, scope)


def _page(errors: dict | None = None, values: dict | None = None, status: int = 200):
    return render_template(
        "reminders/index.html",
        barangay=_barangay(),
        sms_on=gateway_from(current_app.config) is not None,
        summary=service.summary(),
        errors=errors or {},
        values=values or {},
    ), status


@bp.get("/reminders")
@module_required(ModuleId.DASHBOARD, action="reminders.view")
def index():
    return _page()


@bp.post("/reminders/settings")
@module_required(ModuleId.DASHBOARD, action="reminders.settings")
def settings():
    barangay = _barangay()
    values = {k: request.form.get(k, "") for k in ("reminderHour", "smsDailyCap", "collectionWindow")}
    if barangay is None:
        return _page({"reminderHour": _("Choose a barangay in the barangay filter first.")}, values, 400)
    errors = {}
    try:
        hour = service.clean_hour(values["reminderHour"])
    except Invalid as err:
        errors["reminderHour"] = err.message
    try:
        window = texts.clean_window(values["collectionWindow"])
    except Invalid as err:
        errors["collectionWindow"] = err.message
    cap_text = values["smsDailyCap"].strip()
    if not cap_text.isdigit() or int(cap_text) > 100_000:
        errors["smsDailyCap"] = _("Daily SMS cap must be a whole number from 0 to 100,000.")
    if errors:
        return _page(errors, values, 400)
    with tenancy.unscoped():
        barangay.reminder_hour, barangay.sms_daily_cap = hour, int(cap_text)
        barangay.collection_window = window
        db.session.commit()
    flash(_("Reminder settings saved."), "success")
    return redirect(url_for("reminders.index"))


@bp.post("/household/my/reminders")
@module_required(ModuleId.HOUSEHOLD, action="resident.settings")
def my_reminders():
    """The household's own consent form on My household."""
    member = resident.member_of(current_user)
    form = request.form
    data = {
        "bySms": form.get("bySms") == "on",
        "byEmail": form.get("byEmail") == "on",
        "mobile": form.get("mobile", ""),
        "email": form.get("email", ""),
        "language": form.get("language", "fil"),
        "consent": form.get("consent") == "on",
    }
    try:
        service.subscribe(member, data, current_user)
    except ServiceError as err:
        db.session.rollback()
        for message in err.field_errors().values():
            flash(message, "error")
        return redirect(resident.my_household_url(_anchor="reminders"))
    flash(_("You will be reminded the evening before your collection."), "success")
    return redirect(resident.my_household_url(_anchor="reminders"))


def member_reminders(member: HouseholdMember) -> dict:
    """What a household agreed to, for the reminders form on its member record (household's
    page): the subscription and the staff account that recorded the consent."""
    sub = service.subscription_of(member)
    by = db.session.get(Account, sub.consent_by_id) if sub is not None and sub.consent_by_id else None
    return {"sub": sub, "by": by}


@bp.post("/household/members/<int:member_id>/reminders")
@module_required(ModuleId.HOUSEHOLD, action="household.member.write")
def member_reminders_form(member_id: int):
    """Staff record the household's consent (it agreed in person) on the member's record: the
    same check and the same one transaction as the API; a refusal re-shows the form with the
    fields' errors and what was typed, nothing saved."""
    member = household.get_member(member_id)
    form = request.form
    values = {
        "bySms": form.get("bySms") == "on",
        "byEmail": form.get("byEmail") == "on",
        "mobile": form.get("mobile", "")[:40],
        "email": form.get("email", "")[:254],
        "language": form.get("language", "fil"),
        "consent": form.get("consent") == "on",
    }
    try:
        service.subscribe(member, values, current_user)
    except ServiceError as err:
        db.session.rollback()
        return render_template(
            "household/member_account.html",
            member=member,
            account=resident.linked_account(member),
            username="",
            error=None,
            reminder_errors=err.field_errors(),
            reminder_values=values,
        ), err.status
    flash(_("The household's reminders are saved."), "success")
    return redirect(resident.member_account_url(member_id, _anchor="reminders"))


@bp.get("/r/stop/<token>")
@public
def stop_page(token: str):
    """The link from the SMS or the e-mail shows one button: a GET changes nothing, since link
    previews and mail scanners fetch links nobody tapped."""
    sub = service.by_stop_token(token)
    return render_template("reminders/stop.html", token=token, stopped=sub.stopped_at is not None)


@bp.post("/r/stop/<token>")
@public
def stop(token: str):
    """The button ends the reminders at once (no sign-in: the token is the authority)."""
    service.stop(token)
    return render_template("reminders/stopped.html")
