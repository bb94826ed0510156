"""The SIBOL Machines page: five tabs as links (?tab=...), each rendered on the server.

Forms here are the no-JavaScript path; the islands (machines-table, machines-selector,
machines-add-dialog) add the modals, the type-ahead and the client reload through /api.
"""

from __future__ import annotations

from urllib.parse import urlencode

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from ..data.export import wants_csv
from ..data.listing import page_args_lenient, page_link
from ..errors import ServiceError
from ..identity.access import module_required
from ..models import ModuleId, RoleId
from ..models.machines import PACKAGES
from ..telemetry import service as telemetry
from ..telemetry.service import analytics_csv
from ..web.home import home_of
from . import exports, records, search, service
from .serializers import area_label

bp = Blueprint("machines", __name__)

TABS = (
    ("process-panels", "Process Panels"),
    ("chemical-additives", "Chemical Additives"),
    ("machines", "Machines"),
    ("waste-container", "Waste Container"),
    ("analytics", "Analytics"),
)
DEFAULT_TAB = "chemical-additives"
SELECTOR_OPTIONS = 20  # the no-JavaScript selector lists this many matches


def page_url(**changes) -> str:
    """This page's URL with some query parameters changed (None removes one), dialogs closed."""
    return page_link("machines.index", ("add", "edit"), **changes)


@bp.get("/sibol-machines")
@home_of(RoleId.OPERATOR, module=ModuleId.MACHINES)
@module_required(ModuleId.MACHINES)
def index(tab: str | None = None, add_form: dict | None = None):
    """The page; `tab` and `add_form` ({"values", "errors"}) when a refused Add Machine shows again."""
    tab = tab or request.args.get("tab", DEFAULT_TAB)
    if tab not in dict(TABS):
        tab = DEFAULT_TAB
    q = request.args.get("q", "")[: search.QUERY_MAX]
    context: dict = {
        "tabs": TABS,
        "tab": tab,
        "q": q,
        "packages": PACKAGES,
        "page_url": page_url,
        "area_label": area_label,
    }
    if wants_csv():
        return _export(tab, q)
    if tab == "machines":
        page, per_page = page_args_lenient(sizes=None)
        result = search.search_machines(q, page, per_page)
        context.update(result=result, areas=service.list_areas(), statuses=service.list_statuses())
        edit_id = request.args.get("edit")
        context["editing"] = service.find_machine(edit_id) if edit_id else None
        context["adding"] = add_form is not None or request.args.get("add") == "1"
        context["add_form"] = add_form or {"values": {}, "errors": {}}
        context["can_issue_keys"] = current_user.role_id in telemetry.EDITOR_ROLES
    else:
        machine = service.find_machine(request.args.get("machine")) or service.first_machine()
        machine_q = request.args.get("machine_q", "")[: search.QUERY_MAX]
        options = search.search_machines(machine_q, 1, SELECTOR_OPTIONS, with_total=False).rows
        if machine is not None and all(m.id != machine.id for m in options):
            options.insert(0, machine)
        context.update(
            machine=machine,
            machine_options=options,
            machine_q=machine_q,
            adding=request.args.get("add") == "1" and machine is not None,
        )
        machine_id = machine.id if machine else None
        if tab == "chemical-additives":
            context["additives"] = records.list_chemical_additives(machine_id, q)
        elif tab == "waste-container":
            context["containers"] = records.list_waste_containers(machine_id, q)
        else:  # process-panels, analytics: the machine's telemetry
            context.update(
                telemetry.machine_tab(tab, machine_id, request.args.get("range"), current_user.role_id)
            )
    return render_template("machines/index.html", **context)


def _export(tab: str, q: str):
    """The CSV of the tab's table, with its search (and machine, or range); no table: 404."""
    if tab == "machines":
        return exports.machines_csv(q)
    machine = service.find_machine(request.args.get("machine")) or service.first_machine()
    machine_id = machine.id if machine else None
    if tab == "chemical-additives":
        return exports.chemical_additives_csv(machine_id, q)
    if tab == "waste-container":
        return exports.waste_containers_csv(machine_id, q)
    if tab == "analytics" and machine_id is not None:
        range_key = request.args.get("range", "24h")
        return analytics_csv(machine_id, range_key if range_key in telemetry.RANGES else "24h")
    abort(404)  # Process Panels (and Analytics without a machine) have no table to export


def _back(tab: str, **args) -> str:
    query = {"tab": tab, **{k: v for k, v in args.items() if v}}
    return url_for("machines.index") + "?" + urlencode(query)


def _form_int(name: str) -> int | None:
    raw = request.form.get(name, "").strip()
    return int(raw) if raw.isdecimal() and len(raw) < 10 else None


@bp.post("/sibol-machines/machines")
@module_required(ModuleId.MACHINES)
def create_machine():
    """Add Machine without JavaScript: a name (required) and an area; refused fields show beside
    the fields in the open dialog. Saved, the machine's device page offers its device key (to
    those who issue keys; the others see the list)."""
    values = {k: request.form.get(k, "")[:200] for k in ("name", "areaId", "startDate")}
    errors: dict[str, str] = {}
    if not " ".join(values["name"].split()):
        errors["name"] = _("Machine Name is required.")
    area_id = _form_int("areaId")
    if area_id is None:
        errors["areaId"] = _("Area is required.")
    machine = None
    if not errors and area_id is not None:
        try:
            machine = service.create_machine(area_id, _form_int("status"), values["name"])
        except ServiceError as err:
            errors["name" if err.field == "name" else "areaId"] = err.message
    if machine is None:
        return index(tab="machines", add_form={"values": values, "errors": errors}), 400
    if current_user.role_id not in telemetry.EDITOR_ROLES:  # keys are issued by Admin and Staff
        flash(_("Machine created successfully!"), "success")
        return redirect(_back("machines", q=machine.name))
    flash(_("Machine %(name)s created. Issue its device key to connect it.", name=machine.name), "success")
    return redirect(telemetry.device_page_url(machine.id))


@bp.post("/sibol-machines/machines/<machine_id>")
@module_required(ModuleId.MACHINES)
def update_machine(machine_id: str):
    area_id = _form_int("areaId")
    try:
        machine = service.get_machine(machine_id)
        if area_id is None:
            raise ServiceError(_("Area is required."))
        service.update_machine(
            machine.id, name=request.form.get("name", ""), area_id=area_id, status_id=_form_int("status")
        )
    except ServiceError as err:
        flash(_("Failed to update machine: %(message)s", message=err.message), "error")
        return redirect(_back("machines", edit=machine_id if machine_id.isdecimal() else None))
    flash(_("Machine updated successfully!"), "success")
    return redirect(_back("machines"))


@bp.post("/sibol-machines/chemical-additives")
@module_required(ModuleId.MACHINES)
def add_chemical_additive():
    machine_id = request.form.get("machine", "")
    form = request.form
    try:
        records.add_chemical_additive(
            machine_id,
            area=form.get("area"),
            start_date=form.get("startDate"),
            chemical_input=form.get("chemicalInput"),
            stage=form.get("stage"),
            value=form.get("value"),
            units=form.get("units"),
            person_in_charge=form.get("personInCharge"),
        )
    except ServiceError as err:
        flash(_("Failed to add chemical: %(message)s", message=err.message), "error")
        return redirect(_back("chemical-additives", machine=machine_id, add="1"))
    flash(_("Chemical added."), "success")
    return redirect(_back("chemical-additives", machine=machine_id))


@bp.post("/sibol-machines/waste-containers")
@module_required(ModuleId.MACHINES)
def add_waste_container():
    machine_id = request.form.get("machine", "")
    try:
        records.add_waste_container(
            machine_id, area=request.form.get("area"), start_date=request.form.get("startDate")
        )
    except ServiceError as err:
        flash(_("Failed to add waste container: %(message)s", message=err.message), "error")
        return redirect(_back("waste-container", machine=machine_id, add="1"))
    flash(_("Waste container added."), "success")
    return redirect(_back("waste-container", machine=machine_id))
