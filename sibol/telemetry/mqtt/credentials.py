"""A device key's identity at the broker, kept in step with the key service.

The key service calls key_changed() after it commits: the broker hash of a new key is stored (so
the embedded broker's files can be rebuilt from the database), then the broker is told at once:
the old client is deleted, which drops its connection, and a new key's client is created. When
the broker cannot be reached, the database still holds the truth and the embedded broker takes
it at its next start.
"""

from __future__ import annotations

import logging

from ...extensions import db
from ...models.mqtt import MqttDevice
from ...mqtt.settings import broker_settings
from . import dynsec

log = logging.getLogger(__name__)


def key_changed(machine_id: int, raw_key: str | None) -> bool:
    """Record and apply a new key (raw_key) or a revocation (None). Returns whether the broker
    took it now (False also when MQTT is not configured)."""
    row = db.session.get(MqttDevice, machine_id)
    if row is None:
        row = MqttDevice(machine_id=machine_id, refused_count=0)
        db.session.add(row)
    entry = dynsec.password_entry(raw_key) if raw_key is not None else {}
    row.password_hash, row.salt, row.iterations = (
        entry.get("password"),
        entry.get("salt"),
        entry.get("iterations"),
    )
    db.session.commit()
    broker = broker_settings()
    if broker is None:
        return False
    try:
        dynsec.run_commands(broker, dynsec.device_commands(machine_id, raw_key))
    except (dynsec.BrokerUnavailable, RuntimeError) as err:
        log.warning("the broker did not take machine %s's key change: %s", machine_id, err)
        return False
    return True
