"""The console's MQTT subscriber: device messages in, handled in batches, acknowledged after commit.

It keeps a persistent session (MQTT 5, clean start off, a session that never expires) under a
fixed client id, subscribed with QoS 1 to the suffixes that features registered (dispatch), so
that what devices publish while it is down waits at the broker. With a share group
(SIBOL_MQTT_SHARE_GROUP) the subscription is shared ($share/<group>/...) and several subscribers
split one stream; a plain subscription is the default because Mosquitto 2.0 restores plain
subscriptions from its persistence file after a restart but not shared ones (docs/deploy.md).
paho's network thread only queues each message; the main thread takes up to BATCH_SIZE messages
or whatever arrived within BATCH_WAIT seconds, hands them to the handlers (each commits its own
transaction), in this process or split by machine over writer processes (writers.py), and only
then acknowledges them (manual acks, in arrival order). A batch whose store raises (an error not
tied to one message, or one message that breaks a handler) is stored again message by message: a
message that still fails is parked as a dead letter (refusals.park) and the others are stored, so
one message never holds back the rest; only when the database cannot take even the dead letter
does the batch wait, unacknowledged, and is tried again. A SIGKILL between
the commit and the acks means the broker sends those messages again, so a handler must take a
message twice without storing it twice (telemetry's (machine, ts) rule, a command's one answer).
"""

from __future__ import annotations

import logging
import queue
import signal
import threading
import time
from dataclasses import dataclass
from typing import NamedTuple

from flask import Flask
from paho.mqtt.client import Client, MQTTMessage
from paho.mqtt.subscribeoptions import SubscribeOptions

from . import dispatch, refusals, session, writers
from .settings import Broker, new_client

log = logging.getLogger(__name__)

BATCH_SIZE = 500
BATCH_WAIT = 0.25


class Delivery(NamedTuple):
    """What the subscriber keeps of a received message until it is stored and acknowledged.

    paho's MQTTMessage with its MQTT 5 properties takes about 7 KB (a reading's payload is about
    200 bytes), and a subscriber that falls behind holds tens of thousands of them: Mosquitto
    keeps sending past our Receive Maximum, so 40,000 messages made 300 MB."""

    topic: str
    payload: bytes
    mid: int
    qos: int
    retain: bool


@dataclass
class Counters:
    received: int = 0
    ignored: int = 0  # on a topic no handler takes
    batches: int = 0
    split: int = 0  # batches stored again message by message after an error
    parked: int = 0  # messages kept as dead letters


class Subscriber:
    def __init__(self, app: Flask, broker: Broker, name: str = "1", group: str | None = None):
        self.app, self.broker = app, broker
        self.group = (group if group is not None else app.config["SIBOL_MQTT_SHARE_GROUP"]) or None
        self.client_id = session.client_id(name)
        self.inbox: queue.Queue[Delivery] = queue.Queue()
        self.stopping = threading.Event()
        self.counters = Counters()
        count = writers.writer_count(app)  # forked before paho's network thread starts
        self.writers = writers.WriterPool(app, count) if count > 1 else None
        self.client: Client = new_client(broker, self.client_id, manual_ack=True)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_disconnect = self._on_disconnect
        self.client.reconnect_delay_set(min_delay=1, max_delay=5)

    # paho's network thread -------------------------------------------------------------------
    def _on_connect(self, client: Client, _u, flags, reason, _p) -> None:
        if reason.is_failure:
            log.error("the broker refused the subscriber: %s", reason)
            return
        topics = dispatch.subscriptions(self.group)
        # Retained messages: none is sent at subscription (a reading retained at the broker is
        # not new at each reconnect), and a live one keeps its retain flag, so that the handlers'
        # intake refuses it.
        options = SubscribeOptions(
            qos=1, retainAsPublished=True, retainHandling=SubscribeOptions.RETAIN_DO_NOT_SEND
        )
        client.subscribe([(t, options) for t in topics])
        log.info(
            "subscriber %s connected (session present: %s): %s", self.client_id, flags.session_present, topics
        )

    def _on_disconnect(self, _c, _u, _f, reason, _p) -> None:
        if not self.stopping.is_set():
            log.warning("subscriber %s lost the broker (%s); reconnecting", self.client_id, reason)

    def _on_message(self, _c, _u, message: MQTTMessage) -> None:
        self.inbox.put(
            Delivery(message.topic, message.payload, message.mid, message.qos, bool(message.retain))
        )

    # the main thread --------------------------------------------------------------------------
    def start(self) -> None:
        self.client.connect_async(
            self.broker.host,
            self.broker.port,
            keepalive=30,
            clean_start=False,
            properties=session.connect_properties(),
        )
        self.client.loop_start()

    def stop(self) -> None:
        self.stopping.set()

    def next_batch(self) -> list[Delivery]:
        try:
            first = self.inbox.get(timeout=0.5)
        except queue.Empty:
            return []
        messages = [first]
        deadline = time.monotonic() + BATCH_WAIT
        while len(messages) < BATCH_SIZE:
            left = deadline - time.monotonic()
            try:
                messages.append(self.inbox.get(timeout=left) if left > 0 else self.inbox.get_nowait())
            except queue.Empty:
                break
        return messages

    def process(self, messages: list[Delivery]) -> None:
        """Hand the batch to the handlers of its suffixes, then acknowledge every message."""
        parsed: list[dispatch.Message] = []
        for message in messages:
            where = dispatch.parse_topic(message.topic)
            if where is None or where[1] not in dispatch.HANDLERS:  # acknowledged all the same
                log.warning("ignored a message on %r", message.topic[:200])
                continue
            parsed.append(dispatch.Message(where[0], where[1], message.payload, message.retain))
        try:
            if self.writers is not None:
                results: object = self.writers.store(parsed)
            else:
                results = writers.store(self.app, parsed)
        except Exception:
            log.exception("a batch of %d messages failed; storing them one by one", len(parsed))
            results = self.store_one_by_one(parsed)
        c = self.counters
        c.received += len(messages)
        c.ignored += len(messages) - len(parsed)
        c.batches += 1
        log.debug("handled %d messages: %s", len(messages), results)
        for message in messages:  # after the commit: a crash before this means a resend
            if message.qos:
                self.client.ack(message.mid, message.qos)

    def store_one_by_one(self, messages: list[dispatch.Message]) -> list[object]:
        """Each message in a transaction of its own; one that fails is parked as a dead letter.
        Raises when even the dead letter cannot be written (the database is down)."""
        self.counters.split += 1
        results: list[object] = []
        for message in messages:
            try:
                results.append(writers.store(self.app, [message]))
            except Exception as err:  # noqa: BLE001 - whatever broke, the message is kept
                with self.app.app_context():
                    refusals.park(message.machine_id, message.suffix, message.payload, err)
                self.counters.parked += 1
        return results

    def process_until_stored(self, messages: list[Delivery]) -> None:
        """Store the batch, waiting and trying again while the database refuses it (the messages
        stay unacknowledged meanwhile, so nothing is lost if we are stopped)."""
        wait = 0.5
        while True:
            try:
                self.process(messages)
                return
            except Exception:
                log.exception(
                    "could not store a batch of %d messages; trying again in %.1fs", len(messages), wait
                )
                if self.stopping.wait(wait):
                    return
                wait = min(wait * 2, 30.0)

    def run(self) -> None:
        self.start()
        try:
            while not self.stopping.is_set():
                messages = self.next_batch()
                if messages:
                    self.process_until_stored(messages)
        finally:
            self.client.disconnect()
            self.client.loop_stop()
            if self.writers is not None:
                self.writers.close()


def run_forever(app: Flask, broker: Broker, name: str, group: str | None = None) -> None:
    """Run a subscriber until SIGTERM or SIGINT, finishing the batch in hand."""
    subscriber = Subscriber(app, broker, name, group)
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: subscriber.stop())
    subscriber.run()
