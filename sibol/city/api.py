"""/api/city/barangays and /api/city/dashboard: the City Admin's calls; others get 403."""

from __future__ import annotations

from flask import Blueprint, request
from flask_babel import gettext as _

from ..admin.service import account_json
from ..api import int_field, json_body, pick
from ..data.listing import page_args
from ..errors import Invalid
from ..i18n.localtime import iso_utc
from ..identity.access import module_required
from ..models import Barangay, ModuleId
from . import service

bp = Blueprint("city", __name__)
ADMIN = ModuleId.ADMIN


def barangay_json(
    barangay: Barangay, *, accounts: int | None = None, admins: list[str] | None = None
) -> dict:
    body = {"id": barangay.id, "name": barangay.name, "isActive": bool(barangay.is_active)}
    if accounts is not None:
        body["accounts"] = accounts
    if admins is not None:
        body["admins"] = admins
    return body


def totals_json(totals: service.Totals) -> dict:
    return {
        "machines": totals.machines,
        "households": totals.households,
        "wasteKg": totals.waste_kg,
        "energyKwh": totals.energy_kwh,
        "points": totals.points,
        "openMaintenance": totals.open_maintenance,
    }


def _q() -> str:
    q = request.args.get("q", "")
    if len(q) > 100:
        raise Invalid(_("q must be at most %(n)s characters.", n=100), field="q")
    return q.strip()


@bp.get("/city/barangays")
@module_required(ADMIN, action="city.barangays")
def list_barangays():
    page, per_page = page_args(25)
    found = service.list_barangays(_q(), page, per_page)
    return {
        "success": True,
        "items": [barangay_json(r.barangay, accounts=r.accounts, admins=r.admins) for r in found.rows],
        "total": found.total,
        "page": found.page,
        "per_page": found.per_page,
    }


@bp.post("/city/barangays")
@module_required(ADMIN, action="city.barangays")
def create_barangay():
    body = json_body()
    barangay = service.create_barangay(body.get("name"))
    return {
        "success": True,
        "message": _("Barangay %(name)s created.", name=barangay.name),
        "barangay": barangay_json(barangay),
    }, 201


@bp.get("/city/barangays/<int:barangay_id>")
@module_required(ADMIN, action="city.barangays")
def get_barangay(barangay_id: int):
    return {"success": True, "barangay": barangay_json(service.get_barangay(barangay_id))}


@bp.patch("/city/barangays/<int:barangay_id>")
@module_required(ADMIN, action="city.barangays")
def update_barangay(barangay_id: int):
    body = json_body()
    service.get_barangay(barangay_id)  # 404 before any field error
    if "name" not in body and "isActive" not in body:
        raise Invalid(_("Send name and/or isActive."), field="body")
    if "name" in body and body["name"] is None:
        raise Invalid(_("Name is required."), field="name")
    barangay = service.update_barangay(barangay_id, name=body.get("name"), is_active=body.get("isActive"))
    return {"success": True, "barangay": barangay_json(barangay)}


@bp.post("/city/barangays/<int:barangay_id>/admins")
@module_required(ADMIN, action="city.barangays")
def appoint_admin(barangay_id: int):
    body = json_body()
    service.get_barangay(barangay_id)
    if pick(body, "accountId") is not None:
        account_id = int_field(body, "accountId", label="accountId")
        account, created = service.appoint_admin(barangay_id, account_id=account_id)
    else:
        account, created = service.appoint_admin(barangay_id, new=body)
    return {"success": True, "created": created, "account": account_json(account)}, (201 if created else 200)


@bp.get("/city/dashboard")
@module_required(ADMIN, action="city.dashboard")
def city_dashboard():
    page, per_page = page_args(25)
    found, city = service.city_dashboard(page, per_page, _q())
    return {
        "success": True,
        "items": [{"barangay": barangay_json(r.barangay), **totals_json(r.totals)} for r in found.rows],
        "city": {**totals_json(city), "asOf": iso_utc(city.as_of)},
        "total": found.total,
        "page": found.page,
        "per_page": found.per_page,
    }
