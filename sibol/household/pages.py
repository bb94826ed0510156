"""The Household page: tabs as links, tables searched and filtered on the server, forms that save."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import format_decimal
from flask_babel import gettext as _
from flask_login import current_user

from ..data.export import wants_csv
from ..data.listing import PAGE_SIZES, page_args_lenient, page_link
from ..errors import NotFound, ServiceError
from ..identity.access import module_required
from ..inputs.fields import field_errors
from ..inputs.rules import kg_text
from ..inputs.uploads import MAX_UPLOAD_MB, image_response
from ..models import ModuleId, RoleId
from ..web.safe_actions import confirmation_page, needs_confirmation, offer_undo, take_undo
from . import exports, rewards, service

bp = Blueprint("household", __name__)

TABS = (
    ("schedule", "Schedule"),
    ("leaderboard", "Leaderboard"),
    ("rewards", "Rewards"),
    ("claimed", "Claimed Rewards"),
    ("points", "Point System"),
)
STATUS_OPTIONS = {
    "schedule": service.COLLECTION_STATUSES,
    "leaderboard": service.MEMBER_STATUSES,
    "rewards": service.REWARD_STATUSES,
}
CLAIM_CHOICES = 500  # members offered in the Claim dialog's list


@bp.app_template_filter("kg")
def kg_filter(grams: int | None) -> str:
    """Whole grams as kilograms for display: 12500 -> '12.5'."""
    return kg_text(grams)


def _target(arg: str, getter):
    """The row named by a dialog's address argument (?record=<member id>, ?claim=<reward id>)."""
    raw = request.args.get(arg, "")
    if not raw.isdecimal() or len(raw) > 10:
        return None
    try:
        return getter(int(raw))
    except NotFound:
        flash(_("That row no longer exists."), "error")
        return None


def _render(
    *,
    tab: str | None = None,
    modal: str | None = None,
    values: dict | None = None,
    errors: dict | None = None,
    status: int = 200,
    edit_schedule=None,
    points_editing=False,
    record_member=None,
    claim_reward=None,
):
    tab = tab or request.args.get("tab", "schedule")
    if tab not in dict(TABS):
        tab = "schedule"
    q = " ".join(request.args.get("q", "").split())[:100]
    status_filter = request.args.get("status", "")
    if status_filter not in STATUS_OPTIONS.get(tab, ()):
        status_filter = ""
    page, per_page = page_args_lenient()
    listing = None
    if tab == "schedule":
        listing = service.list_schedules(q, status_filter, page, per_page)
    elif tab == "leaderboard":
        listing = service.list_leaderboard(q, status_filter, page, per_page)
    elif tab == "rewards":
        listing = rewards.list_rewards(q, status_filter, page, per_page)
    elif tab == "claimed":
        listing = rewards.list_claims(q, page, per_page)

    if modal is None and request.args.get("modal") in ("add-schedule", "add-reward", "add-household"):
        modal = request.args["modal"]
    if record_member is None and tab == "leaderboard" and "record" in request.args:
        record_member = _target("record", service.get_member)
        modal = modal or ("record-waste" if record_member else None)
    if claim_reward is None and tab == "rewards" and "claim" in request.args:
        claim_reward = _target("claim", rewards.get_reward)
        modal = modal or ("claim-reward" if claim_reward else None)
    claim_members = []
    if claim_reward is not None:
        # Active members, most points first (the people who can afford a reward lead the list).
        claim_members = [m for m, _ in service.list_leaderboard(None, "Active", 1, CLAIM_CHOICES).rows]
    if edit_schedule is None and tab == "schedule" and request.args.get("edit", "").isdecimal():
        try:
            edit_schedule = service.get_schedule(int(request.args["edit"]))
            modal = modal or "edit-schedule"
        except NotFound:
            flash(_("That collection schedule no longer exists."), "error")
    waste_g, points = service.point_rule()
    body = render_template(
        "household/index.html",
        tabs=TABS,
        tab=tab,
        q=q,
        status_filter=status_filter,
        status_options=STATUS_OPTIONS.get(tab, ()),
        listing=listing,
        per_page_sizes=PAGE_SIZES,
        modal=modal,
        values=values or {},
        errors=errors or {},
        edit_schedule=edit_schedule,
        record_member=record_member,
        claim_reward=claim_reward,
        claim_members=claim_members,
        barangays=service.barangay_names() if tab == "leaderboard" else [],
        rule_g=waste_g,
        rule_kg=kg_text(waste_g),
        rule_points=points,
        points_editing=points_editing or request.args.get("edit") == "1",
        max_image_mb=MAX_UPLOAD_MB,
        page_url=lambda n: page_link("household.index", page=n),
    )
    return body, status


@bp.get("/household")
@module_required(ModuleId.HOUSEHOLD)
def index():
    if current_user.role_id == RoleId.HOUSEHOLD:  # a resident's household page is their own
        return redirect(url_for("residents.my_household"))
    if wants_csv():
        return _export()
    return _render()


def _export():
    """The CSV of the tab's table with its search and status filter (read as the page reads them)."""
    tab = request.args.get("tab", "schedule")
    tab = tab if tab in dict(TABS) else "schedule"
    q = " ".join(request.args.get("q", "").split())[:100]
    raw_status = request.args.get("status", "")
    status = raw_status if raw_status in STATUS_OPTIONS.get(tab, ()) else None
    if tab == "schedule":
        return exports.schedules_csv(q, status)
    if tab == "leaderboard":
        return exports.leaderboard_csv(q, status)
    if tab == "rewards":
        return exports.rewards_csv(q, status)
    if tab == "claimed":
        return exports.claims_csv(q)
    abort(404)  # the Point System tab has no table


def _schedule_form() -> dict:
    form = request.form
    data = {
        "maintenancePerson": form.get("maintenancePerson"),
        "collectorContact": form.get("collectorContact"),
        "dateOfCollection": form.get("dateOfCollection"),
        # The chips island sends one `area` per chip; without JavaScript, one text with commas.
        "areas": form.getlist("area") if "area" in form else form.get("areas"),
    }
    for optional in ("status", "totalWaste"):
        if optional in form:
            data[optional] = form.get(optional)
    return data


@bp.post("/household/schedules")
@module_required(ModuleId.HOUSEHOLD, action="household.schedule.write")
def add_schedule():
    data = _schedule_form()
    try:
        service.create_schedule(data)
    except ServiceError as err:
        return _render(
            tab="schedule", modal="add-schedule", values=data, errors=field_errors(err), status=err.status
        )
    flash(_("Collection schedule saved."), "success")
    return redirect(url_for("household.index", tab="schedule"))


@bp.post("/household/schedules/<int:schedule_id>")
@module_required(ModuleId.HOUSEHOLD, action="household.schedule.write")
def edit_schedule(schedule_id: int):
    schedule = service.get_schedule(schedule_id)  # NotFound -> the 404 page
    data = _schedule_form()
    try:
        service.update_schedule(schedule_id, data)
    except ServiceError as err:
        return _render(
            tab="schedule",
            modal="edit-schedule",
            values=data,
            errors=field_errors(err),
            status=err.status,
            edit_schedule=schedule,
        )
    flash(_("Collection schedule updated."), "success")
    return redirect(url_for("household.index", tab="schedule"))


@bp.post("/household/rewards")
@module_required(ModuleId.HOUSEHOLD, action="household.reward.write")
def add_reward():
    data = {name: request.form.get(name) for name in ("reward", "status", "points", "area")}
    image = request.files.get("image")
    if image is not None and not image.filename:
        image = None  # the form's file input was left empty
    try:
        rewards.create_reward(data, image.stream if image else None)
    except ServiceError as err:
        return _render(
            tab="rewards", modal="add-reward", values=data, errors=field_errors(err), status=err.status
        )
    flash(_("Reward saved."), "success")
    return redirect(url_for("household.index", tab="rewards"))


@bp.get("/household/rewards/<int:reward_id>/image")
@module_required(ModuleId.HOUSEHOLD, action="household.read")
def reward_image(reward_id: int):
    try:
        path, mimetype = rewards.reward_image(reward_id)
    except NotFound:
        abort(404)
    return image_response(path, mimetype)


@bp.post("/household/point-rule")
@module_required(ModuleId.HOUSEHOLD, action="household.point_rule.write")
def save_point_rule():
    data = {"wasteKg": request.form.get("wasteKg"), "points": request.form.get("points")}
    try:
        service.update_point_rule(data, actor_id=current_user.id)
    except ServiceError as err:
        return _render(
            tab="points", values=data, errors=field_errors(err), status=err.status, points_editing=True
        )
    flash(_("Point system saved."), "success")
    return redirect(url_for("household.index", tab="points"))


@bp.post("/household/members")
@module_required(ModuleId.HOUSEHOLD, action="household.member.write")
def add_member():
    data = {name: request.form.get(name) for name in ("name", "barangay", "points", "status")}
    try:
        member = service.create_member(data)
    except ServiceError as err:
        return _render(
            tab="leaderboard",
            modal="add-household",
            values=data,
            errors=field_errors(err),
            status=err.status,
        )
    flash(_("%(name)s added to the leaderboard.", name=member.name), "success")
    return redirect(url_for("household.index", tab="leaderboard"))


@bp.post("/household/members/<int:member_id>/waste")
@module_required(ModuleId.HOUSEHOLD, action="household.waste.credit")
def record_waste(member_id: int):
    member = service.get_member(member_id)  # NotFound -> the 404 page
    data = {"wasteKg": request.form.get("wasteKg")}
    try:
        member, waste_g, earned = service.record_waste(member_id, data)
    except ServiceError as err:
        return _render(
            tab="leaderboard",
            modal="record-waste",
            values=data,
            errors=field_errors(err),
            status=err.status,
            record_member=member,
        )
    flash(
        _(
            "%(name)s: %(kg_text)s kg of food waste recorded, %(earned)s points earned (%(points)s in all).",
            name=member.name,
            kg_text=kg_text(waste_g),
            earned=format(earned, ","),
            points=format(member.points, ","),
        ),
        "success",
    )
    return redirect(url_for("household.index", tab="leaderboard"))


@bp.post("/household/rewards/<int:reward_id>/claims")
@module_required(ModuleId.HOUSEHOLD, action="household.claim.create")
def claim_reward(reward_id: int):
    reward = rewards.get_reward(reward_id)  # NotFound -> the 404 page
    data = {"memberId": request.form.get("memberId")}
    member = rewards.find_member(data["memberId"])
    if needs_confirmation() and member is not None and rewards.can_claim(reward, member):
        return confirmation_page(
            _("Claim %(reward)s for %(member)s?", reward=reward.name, member=member.name),
            _(
                "%(points)s points will be taken from %(member)s's %(total)s. "
                "You can undo this for a few seconds.",
                points=format_decimal(reward.points_required),
                member=member.name,
                total=format_decimal(member.points),
            ),
            _("Claim reward"),
            url_for("household.index", tab="rewards", claim=reward.id),
            danger=False,
        )
    try:
        claim = rewards.claim_reward(reward_id, data["memberId"])
    except ServiceError as err:
        return _render(
            tab="rewards",
            modal="claim-reward",
            values=data,
            errors=field_errors(err),
            status=err.status,
            claim_reward=reward,
        )
    flash(
        _(
            "%(name)s claimed %(name2)s for %(points_spent)s points (%(points)s left).",
            name=claim.member.name,
            name2=claim.reward.name,
            points_spent=format(claim.points_spent, ","),
            points=format(claim.member.points, ","),
        ),
        "success",
    )
    offer_undo(
        "reward-claim",
        claim.id,
        _("%(member)s claimed %(reward)s.", member=claim.member.name, reward=claim.reward.name),
        url_for("household.undo_claim", claim_id=claim.id),
    )
    return redirect(url_for("household.index", tab="claimed"))


@bp.post("/household/claims/<int:claim_id>/undo")
@module_required(ModuleId.HOUSEHOLD)
def undo_claim(claim_id: int):
    """Undo of a claim within the few seconds it is offered: the points go back."""
    if not take_undo("reward-claim", claim_id):
        flash(_("It is too late to undo that claim."), "error")
        return redirect(url_for("household.index", tab="claimed"))
    try:
        member = rewards.undo_claim(claim_id)
    except ServiceError as err:
        flash(err.message, "error")
    else:
        flash(
            _(
                "Claim undone; %(name)s has %(points)s points again.",
                name=member.name,
                points=format(member.points, ","),
            ),
            "success",
        )
    return redirect(url_for("household.index", tab="claimed"))
