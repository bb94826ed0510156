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
from ..mqtt import Message, refusals, register
from ..mqtt.payload import decode
from ..mqtt.rates import DeviceRates
from . import service

log = logging.getLogger(__name__)
SUFFIX = "commands/result"
MAX_PAYLOAD = 4096  # an answer is an id, a status and at most 500 characters of detail


@dataclass
class Results:
    recorded: int = 0
    repeated: int = 0
    refused: list[tuple[int, str]] = field(default_factory=list)


RATES = DeviceRates("mqtt-command-result")


def parse_answer(payload: bytes) -> dict:
    """The message's JSON object with an id; Invalid names what is wrong."""
    if len(payload) > MAX_PAYLOAD:
        raise Invalid(_("The message is longer than %(n)s bytes.", n=MAX_PAYLOAD), field="body")
    body = decode(payload)
    if body.get("id") is None:
        raise Invalid(_("id is required: the command's id."), field="id")
    return body


def store_results(messages: list[Message]) -> Results:
    """Record each answer in arrival order; refusals are recorded together at the end."""
    out = Results()
    for message in messages:
        machine_id = message.machine_id
        if not RATES.allow(machine_id):
            out.refused.append((machine_id, _("Too many messages: the device's rate limit.")))
            continue
        body: dict = {}
        try:
            body = parse_answer(message.payload)
            service.record_result(machine_id, body["id"], body.get("status"), body.get("detail"))
            out.recorded += 1
        except ServiceError as err:
            db.session.rollback()
            if isinstance(err, Conflict) and service.already_answered(
                machine_id, body["id"], body.get("status"), body.get("detail")
            ):
                out.repeated += 1
                continue
            out.refused.append((machine_id, _("Command result: %(reason)s", reason=err.message)))
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
