"""Live fragments of the telemetry pages: the device page's readings, the Process Panels tab and
the bell. Each answers 304 while its version is unchanged (sibol.web.live); the page includes the
same partial, so a fragment is exactly what a reload would show."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, url_for
from flask_login import current_user

from ..devices import keys
from ..errors import ServiceError
from ..identity.access import module_required, signed_in
from ..models import ModuleId
from ..web.live import Fragment, live_fragment
from . import panels, regions
from .panels import EDITOR_ROLES

bp = Blueprint("telemetry_live", __name__)


def _machine_or_404(machine_id: str):
    try:
        return keys.get_machine(machine_id)
    except ServiceError:
        abort(404)


@bp.get("/sibol-machines/machines/<machine_id>/live/readings")
@module_required(ModuleId.MACHINES)
@live_fragment
def readings(machine_id: str) -> Fragment:
    machine = _machine_or_404(machine_id)
    return Fragment(
        regions.readings_version(machine.id),
        lambda: render_template(
            "machines/_device_readings.html", machine=machine, readings=regions.latest_readings(machine.id)
        ),
    )


@bp.get("/sibol-machines/machines/<machine_id>/live/process-panel")
@module_required(ModuleId.MACHINES)
@live_fragment
def process_panel(machine_id: str) -> Fragment:
    machine = _machine_or_404(machine_id)
    return Fragment(
        regions.panel_version(machine.id, machine.name),
        lambda: render_template(
            "machines/_process.html",
            machine=machine,
            panel=panels.process_panel(machine.id),
            can_edit=current_user.role_id in EDITOR_ROLES,
            # The command forms return to the tab, not to this fragment or the poll that drew it.
            back=url_for("machines.index", tab="process-panels", machine=machine.id),
        ),
    )


@bp.get("/notifications/live/bell")
@signed_in
@live_fragment
def bell() -> Fragment:
    return Fragment((regions.unread(current_user.id),), lambda: render_template("notifications/_bell.html"))
