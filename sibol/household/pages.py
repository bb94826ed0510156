"""The Household page: tabs as links, tables searched and filtered on the server, forms that save."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask_babel import format_decimal
from flask_babel import gettext as _
from flask_login import current_user

from ..data.export import wants_csv
from ..data.listing import PAGE_SIZES, Page, page_args_lenient, page_link
from ..errors import NotFound, ServiceError
from ..i18n.languages import N_
from ..identity.access import module_required
from ..inputs.fields import field_errors
from ..inputs.rules import kg_text
from ..inputs.uploads import MAX_UPLOAD_MB, image_response
from ..models import ModuleId, RoleId
from ..web.lookup import found_or_404
from ..web.offline import offline_page
from ..web.safe_actions import confirmation_page, needs_confirmation, offer_undo, take_undo
from . import credits, exports, rewards, service

bp = Blueprint("household", __name__)

CLAIM_CHOICES = 500  # members offered in the Claim dialog's list
ADD_DIALOGS = ("add-schedule", "add-reward", "add-household")  # ?modal=... opens one on any tab


@dataclass(frozen=True)
class Dialog:
    """A dialog about one row, opened by an address argument (?record=<member id>)."""

    arg: str
    modal: str
    get: Callable[[int], Any]  # raises NotFound
    context: str  # the template's name for the row
    gone: str  # flashed when the id names no row


@dataclass(frozen=True)
class Tab:
    key: str
    label: str
    statuses: tuple[str, ...] = ()  # the status filter's choices
    listing: Callable[[str, str, int, int], Page] | None = None  # (q, status, page, per_page)
    export: Callable[[str, str | None], Response] | None = None  # (q, status) -> the CSV
    dialog: Dialog | None = None


TABS = {
    tab.key: tab
    for tab in (
        Tab(
            "schedule",
            "Schedule",
            service.COLLECTION_STATUSES,
            service.list_schedules,
            exports.schedules_csv,
            Dialog(
                "edit",
                "edit-schedule",
                service.get_schedule,
                "edit_schedule",
                N_("That collection schedule no longer exists."),
            ),
        ),
        Tab(
            "leaderboard",
            "Leaderboard",
            service.MEMBER_STATUSES,
            service.list_leaderboard,
            exports.leaderboard_csv,
            Dialog(
                "record",
                "record-waste",
                service.get_member,
                "record_member",
                N_("That row no longer exists."),
            ),
        ),
        Tab(
            "rewards",
            "Rewards",
            service.REWARD_STATUSES,
            rewards.list_rewards,
            exports.rewards_csv,
            Dialog(
                "claim", "claim-reward", rewards.get_reward, "claim_reward", N_("That row no longer exists.")
            ),
        ),
        Tab(
            "claimed",
            "Claimed Rewards",
            listing=lambda q, _status, page, per_page: rewards.list_claims(q, page, per_page),
            export=lambda q, _status: exports.claims_csv(q),
        ),
        Tab("points", "Point System"),  # a form, no table
    )
}


@dataclass
class Failed:
    """A form that did not save, shown again (in its dialog) with its values and messages."""

    values: dict
    errors: dict
    status: int
    modal: str | None = None
    row: Any = None  # the row its dialog is about


def kg_filter(grams: int | None) -> str:
    """Whole grams as kilograms for display: 12500 -> '12.5'."""
    return kg_text(grams)


def _tab(key: str | None = None) -> Tab:
    return TABS.get(key or request.args.get("tab", "schedule"), TABS["schedule"])


def _filters(tab: Tab) -> tuple[str, str]:
    """The search text and the status filter (one of the tab's statuses, else none)."""
    q = " ".join(request.args.get("q", "").split())[:100]
    status = request.args.get("status", "")
    return q, status if status in tab.statuses else ""


def _dialog_row(dialog: Dialog):
    """The row named by the dialog's address argument, or None (a gone row is flashed)."""
    raw = request.args.get(dialog.arg, "")
    if not raw.isdecimal():
        return None
    try:
        return dialog.get(int(raw))
    except NotFound:
        flash(_(dialog.gone), "error")
        return None


def _render(tab_key: str | None = None, failed: Failed | None = None):
    tab = _tab(tab_key)
    q, status_filter = _filters(tab)
    page, per_page = page_args_lenient()
    modal = failed.modal if failed else None
    if modal is None and request.args.get("modal") in ADD_DIALOGS:
        modal = request.args["modal"]
    rows = {"edit_schedule": None, "record_member": None, "claim_reward": None}
    if tab.dialog is not None:
        row = failed.row if failed and failed.row is not None else _dialog_row(tab.dialog)
        if row is not None:
            rows[tab.dialog.context] = row
            modal = modal or tab.dialog.modal
    claim_members: list = []
    if rows["claim_reward"] is not None:
        # Active members, most points first (the people who can afford a reward lead the list).
        claim_members = [m for m, _ in service.list_leaderboard(None, "Active", 1, CLAIM_CHOICES).rows]
    waste_g, points = service.point_rule()
    body = render_template(
        "household/index.html",
        tabs=[(t.key, t.label) for t in TABS.values()],
        tab=tab.key,
        q=q,
        status_filter=status_filter,
        status_options=tab.statuses,
        listing=tab.listing(q, status_filter, page, per_page) if tab.listing else None,
        per_page_sizes=PAGE_SIZES,
        modal=modal,
        values=failed.values if failed else {},
        errors=failed.errors if failed else {},
        claim_members=claim_members,
        barangays=service.barangay_names() if tab.key == "leaderboard" else [],
        rule_g=waste_g,
        rule_kg=kg_text(waste_g),
        rule_points=points,
        points_editing=(failed is not None and tab.key == "points") or request.args.get("edit") == "1",
        max_image_mb=MAX_UPLOAD_MB,
        page_url=lambda n: page_link("household.index", page=n),
        **rows,
    )
    return body, failed.status if failed else 200


@bp.get("/household")
@module_required(ModuleId.HOUSEHOLD)
@offline_page
def index():
    if current_user.role_id == RoleId.HOUSEHOLD:  # a resident's household page is their own
        return redirect(url_for("residents.my_household"))
    if wants_csv():
        return _export()
    return _render()


def _export():
    """The CSV of the tab's table with its search and status filter (read as the page reads them)."""
    tab = _tab()
    if tab.export is None:
        abort(404)  # the Point System tab has no table
    q, status = _filters(tab)
    return tab.export(q, status or None)


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
        return _render("schedule", Failed(data, field_errors(err), err.status, "add-schedule"))
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
        return _render("schedule", Failed(data, field_errors(err), err.status, "edit-schedule", schedule))
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
        return _render("rewards", Failed(data, field_errors(err), err.status, "add-reward"))
    flash(_("Reward saved."), "success")
    return redirect(url_for("household.index", tab="rewards"))


@bp.get("/household/rewards/<int:reward_id>/image")
@module_required(ModuleId.HOUSEHOLD, action="household.read")
def reward_image(reward_id: int):
    path, mimetype = found_or_404(rewards.reward_image, reward_id)
    return image_response(path, mimetype)


@bp.post("/household/point-rule")
@module_required(ModuleId.HOUSEHOLD, action="household.point_rule.write")
def save_point_rule():
    data = {"wasteKg": request.form.get("wasteKg"), "points": request.form.get("points")}
    try:
        service.update_point_rule(data, actor_id=current_user.id)
    except ServiceError as err:
        return _render("points", Failed(data, field_errors(err), err.status))
    flash(_("Point system saved."), "success")
    return redirect(url_for("household.index", tab="points"))


@bp.post("/household/members")
@module_required(ModuleId.HOUSEHOLD, action="household.member.write")
def add_member():
    data = {name: request.form.get(name) for name in ("name", "barangay", "area", "points", "status")}
    try:
        member = service.create_member(data)
    except ServiceError as err:
        return _render("leaderboard", Failed(data, field_errors(err), err.status, "add-household"))
    flash(_("%(name)s added to the leaderboard.", name=member.name), "success")
    return redirect(url_for("household.index", tab="leaderboard"))


@bp.post("/household/members/<int:member_id>/waste")
@module_required(ModuleId.HOUSEHOLD, action="household.waste.credit")
def record_waste(member_id: int):
    member = service.get_member(member_id)  # NotFound -> the 404 page
    data = {"wasteKg": request.form.get("wasteKg")}
    try:
        credit = credits.record_waste(member_id, data, actor_id=current_user.id)
    except ServiceError as err:
        return _render("leaderboard", Failed(data, field_errors(err), err.status, "record-waste", member))
    flash(
        _(
            "%(name)s: %(kg_text)s kg of food waste recorded, %(earned)s points earned (%(points)s in all).",
            name=credit.member.name,
            kg_text=kg_text(credit.waste_g),
            earned=format(credit.points, ","),
            points=format(credit.member.points, ","),
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
        return _render("rewards", Failed(data, field_errors(err), err.status, "claim-reward", reward))
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
