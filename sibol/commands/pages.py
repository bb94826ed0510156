"""Pages: send and cancel a machine's commands from its device page and the Process Panels tab.

Forms post here and redirect back (to `next`, a path on this site, else the account's home page:
the forms always send it). The
history is rendered by templates/commands/_history.html, which the device page includes; it is a
live region (sibol.web.live): `history_fragment` redraws it when a command is sent or its status
changes, so each status follows without a reload (and its Refresh link reloads the page).
`generator stop` and `reboot` ask first: with JavaScript in place (data-confirm), without it on
a confirmation page (sibol/web/safe_actions.py) that posts the same form back with confirmed=1.
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request
from flask_babel import gettext as _
from flask_login import current_user

from ..errors import ServiceError
from ..identity.access import module_required
from ..identity.permissions import role_may
from ..models import ModuleId
from ..web.home import home_url
from ..web.live import Fragment, live_fragment
from ..web.lookup import machine_or_404
from ..web.safe_actions import confirmation_page
from . import rules, service

bp = Blueprint("commands", __name__)


def may_send_commands() -> bool:
    """In templates: whether the signed-in account may send and cancel commands."""
    return bool(current_user.is_authenticated) and role_may(
        current_user.role_id, None, ModuleId.MACHINES, "POST"
    )


# The names the device page's templates call (the feature's declaration in sibol/__init__.py).
TEMPLATE_GLOBALS = {
    "may_send_commands": may_send_commands,
    "command_kinds": rules.KINDS,
    "describe_command": rules.describe,
}


def _back(machine_id: int) -> str:
    target = request.form.get("next", "")
    if target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target
    return home_url()


@bp.get("/sibol-machines/machines/<machine_id>/live/commands")
@module_required(ModuleId.MACHINES)
@live_fragment
def history_fragment(machine_id: str) -> Fragment:
    """The device page's command history alone: 304 until a command is sent or changes status."""
    machine = machine_or_404(machine_id)  # through the scope: another barangay's is 404
    return Fragment(
        service.history_version(machine.id),
        lambda: render_template(
            "commands/_history.html",
            machine=machine,
            commands=service.history(machine.id),
            fragment=True,  # Cancel returns to the device page, not to this fragment or the poll
        ),
    )


@bp.post("/sibol-machines/machines/<machine_id>/commands")
@module_required(ModuleId.MACHINES)
def send(machine_id: str):
    machine = machine_or_404(machine_id)
    command, value = request.form.get("command", ""), request.form.get("value")
    if command in rules.KINDS and rules.needs_confirmation(command, (value or "").strip().lower() or None):
        if request.form.get("confirmed") != "1":
            what = rules.describe(command, (value or "").strip().lower() or None)
            return confirmation_page(
                _("%(what)s on %(machine)s?", what=what, machine=machine.name),
                _("The machine's controller will carry this out as soon as it takes its commands."),
                _("Yes, send %(what)s", what=what),
                _back(machine.id),
            )
    try:
        cmd = service.send(machine.id, command, value, actor=current_user)
    except ServiceError as err:
        if err.status == 404:
            abort(404)
        flash(_("Command not sent: %(message)s", message=err.message), "error")
        return redirect(_back(machine.id))
    flash(
        _(
            "%(what)s sent to %(machine)s: queued as #%(id)s.",
            what=rules.describe(cmd.command, cmd.value),
            machine=machine.name,
            id=cmd.id,
        ),
        "success",
    )
    return redirect(_back(machine.id))


@bp.post("/sibol-machines/machines/<machine_id>/commands/<command_id>/cancel")
@module_required(ModuleId.MACHINES)
def cancel(machine_id: str, command_id: str):
    try:
        cmd = service.cancel(machine_id, command_id, actor=current_user)
    except ServiceError as err:
        if err.status == 404:
            abort(404)
        flash(_("Command not cancelled: %(message)s", message=err.message), "error")
        return redirect(_back(int(machine_id)))
    flash(_("Command #%(id)s cancelled.", id=cmd.id), "success")
    return redirect(_back(cmd.machine_id))
