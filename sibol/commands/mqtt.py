"""The subscriber's "commands/result" handler: a device's answers published to
sibol/v1/machines/{id}/commands/result as {"id", "status", "detail"}.

Each answer goes through service.record_result, with the rules of the HTTP route
(POST /api/device/commands/{id}/result): the machine is the topic's (which the broker only lets
that machine's key publish to), so another machine's command is not found; a second answer is
refused. A refused message (not JSON, no id, a bad status, another machine's command, a second
answer) stores nothing, is recorded on the machine's device page beside its refused readings and
never stops the subscriber. The same answer sent again by the broker (after a subscriber stopped
before acknowledging it) is taken as already recorded. Each answer is its own transaction.

Importing this module registers the handler (sibol/cli.py does, for `flask mqtt subscribe`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from flask_babel import gettext as _

from ..errors import Conflict, Invalid, ServiceError
from ..extensions import db
from ..mqtt import Message, intake, refusals, register
from ..mqtt.refusals import Refusal
from . import service

log = logging.getLogger(__name__)
SUFFIX = "commands/result"
MAX_PAYLOAD = 4096  # an answer is an id, a status and at most 500 characters of detail


@dataclass
class Results:
    recorded: int = 0
    repeated: int = 0
    refused: list[Refusal] = field(default_factory=list)


def store_results(messages: list[Message]) -> Results:
    """Record each answer in arrival order; refusals are recorded together at the end."""
    out = Results()
    screened, out.refused = intake.screen(messages, max_bytes=MAX_PAYLOAD)
    for message, body in screened:
        machine_id = message.machine_id
        try:
            if body.get("id") is None:
                raise Invalid(_("id is required: the command's id."), field="id")
            service.record_result(machine_id, body["id"], body.get("status"), body.get("detail"))
            out.recorded += 1
        except ServiceError as err:
            db.session.rollback()
            if isinstance(err, Conflict) and service.already_answered(
                machine_id, body["id"], body.get("status"), body.get("detail")
            ):
                out.repeated += 1
                continue
            reason = _("Command result: %(reason)s", reason=err.message)
            out.refused.append(Refusal(machine_id, reason, message.payload))
    refusals.record(out.refused)
    if out.recorded or out.refused:
        log.info(
            "command results: recorded %d repeated %d refused %d",
            out.recorded,
            out.repeated,
            len(out.refused),
        )
    return out


register(SUFFIX, store_results)
