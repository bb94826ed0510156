"""Pages of "My household" (/household/my, where /household sends a Household account), its
claim forms, the staff redeem desk and the member <-> account link."""

from __future__ import annotations

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from ...errors import NotFound, ServiceError
from ...i18n.localtime import today
from ...identity.access import module_required
from ...models import ModuleId, RoleId
from ...web.home import home_of
from .. import service as household
from . import claims, resident

bp = Blueprint("residents", __name__)


def _my_household_page(errors: dict | None = None, status: int = 200):
    """The resident's view; a Household account with no linked member gets an explanation."""
    try:
        view = resident.overview(current_user, today())
    except NotFound as err:
        return render_template("household/resident.html", view=None, missing=err.message), status
    return render_template("household/resident.html", view=view, errors=errors or {}), status


@bp.get("/household/my")
@home_of(RoleId.HOUSEHOLD, module=ModuleId.HOUSEHOLD)
@module_required(ModuleId.HOUSEHOLD, action="resident.read")
def my_household():
    return _my_household_page()


@bp.post("/household/my/claims")
@module_required(ModuleId.HOUSEHOLD, action="resident.claim")
def request_claim():
    try:
        claim = claims.reserve(resident.member_of(current_user), request.form.get("rewardId"))
    except ServiceError as err:
        flash(err.message, "error")
        return _my_household_page({"rewardId": err.message}, err.status)
    flash(
        _("%(name)s reserved. Show code %(code)s at pick-up.", name=claim.reward.name, code=claim.code),
        "success",
    )
    return redirect(url_for("residents.my_household", _anchor="claims"))


@bp.post("/household/my/claims/<int:claim_id>/cancel")
@module_required(ModuleId.HOUSEHOLD, action="resident.claim")
def cancel_my_claim(claim_id: int):
    member = resident.member_of(current_user)
    claim = claims.claim_of(member, claim_id)  # another member's id: the 404 page
    try:
        claims.cancel(claim)
    except ServiceError as err:
        flash(err.message, "error")
        return redirect(url_for("residents.my_household", _anchor="claims"))
    flash(
        _(
            "Claim for %(name)s cancelled; %(points_spent)s points are back.",
            name=claim.reward.name,
            points_spent=format(claim.points_spent, ","),
        ),
        "success",
    )
    return redirect(url_for("residents.my_household", _anchor="claims"))


@bp.post("/household/my/public-name")
@module_required(ModuleId.HOUSEHOLD, action="resident.settings")
def set_public_name():
    """The household's consent to its name on the barangay's public page (a checkbox)."""
    shown = resident.set_public_name(resident.member_of(current_user), request.form.get("publicName") == "on")
    flash(
        _("Your household's name now appears on the barangay's public page.")
        if shown
        else _("Your household's name no longer appears on the barangay's public page."),
        "success",
    )
    return redirect(url_for("residents.my_household", _anchor="public-name"))


def qr_response(member, claim_id: int) -> Response:
    """The QR code PNG of one of the member's claims (another member's id: 404)."""
    claim = claims.claim_of(member, claim_id)
    if not claim.code:
        raise NotFound(_("This claim has no code."))
    response = Response(claims.qr_png(claim.code), mimetype="image/png")
    response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.get("/household/my/claims/<int:claim_id>/qr.png")
@module_required(ModuleId.HOUSEHOLD, action="resident.read")
def my_claim_qr(claim_id: int):
    return qr_response(resident.member_of(current_user), claim_id)


# Staff and operators ---------------------------------------------------------------------------


def _redeem_page(code: str = "", error: str | None = None, done=None, status: int = 200):
    return render_template("household/redeem.html", code=code, error=error, done=done), status


@bp.get("/household/redeem")
@module_required(ModuleId.HOUSEHOLD, action="household.claim.redeem")
def redeem_desk():
    return _redeem_page()


@bp.post("/household/redeem")
@module_required(ModuleId.HOUSEHOLD, action="household.claim.redeem")
def redeem():
    code = (request.form.get("code") or "")[:60]
    try:
        claim = claims.redeem(claims.find_by_code(code), current_user)
    except ServiceError as err:
        return _redeem_page(code, err.message, status=err.status)
    # The page's "Redeemed" banner is the one success message (no flash beside it).
    return _redeem_page(done=claim)


@bp.post("/household/claims/<int:claim_id>/cancel")
@module_required(ModuleId.HOUSEHOLD, action="household.claim.cancel")
def cancel_claim(claim_id: int):
    claim = claims.get_claim(claim_id)
    try:
        claims.cancel(claim)
    except ServiceError as err:
        flash(err.message, "error")
    else:
        flash(
            _(
                "Claim %(code)s cancelled; %(points_spent)s points back to %(name)s.",
                code=claim.code,
                points_spent=format(claim.points_spent, ","),
                name=claim.member.name,
            ),
            "success",
        )
    return redirect(url_for("household.index", tab="claimed"))


def _link_page(member, username: str = "", error: str | None = None, status: int = 200):
    return render_template(
        "household/member_account.html",
        member=member,
        account=resident.linked_account(member),
        username=username,
        error=error,
    ), status


@bp.get("/household/members/<int:member_id>/account")
@module_required(ModuleId.HOUSEHOLD, action="household.roster.read")
def member_account(member_id: int):
    return _link_page(household.get_member(member_id))


@bp.post("/household/members/<int:member_id>/account")
@module_required(ModuleId.HOUSEHOLD, action="household.member.write")
def link_member_account(member_id: int):
    member = household.get_member(member_id)
    username = (request.form.get("username") or "")[:100]
    try:
        resident.link_account(member_id, username)
    except ServiceError as err:
        return _link_page(member, username, err.message, err.status)
    flash(_("Account link saved."), "success")
    return redirect(url_for("residents.member_account", member_id=member_id))
