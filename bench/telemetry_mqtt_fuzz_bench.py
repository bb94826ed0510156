"""A fuzzed MQTT stream: many machines, a share of malformed messages, none may hold up another.

MESSAGES messages (10 % malformed by default) from MACHINES devices, each on its own connection,
through a real Mosquitto and `flask mqtt subscribe`, on SQLite and MariaDB. The malformed ones are
every kind a faulty controller sends (not JSON, not UTF-8, not an object, too deep, pH 15, a ts two
hours ahead or a month old, an unknown field, no metric, empty readings, a number past a float),
in random places; 1 % of the valid readings are sent twice (a QoS 1 resend). What must hold, and
what the script checks and reports:

- every valid reading is stored, once (rows = distinct valid (machine, ts), each present);
- every malformed message is refused (the machines' refused counts) or parked (dead letters);
- none blocks: everything is stored within the drain window, and the subscriber never retried a
  batch ("trying again" never appears in its log).

`--smoke`: 500 messages across 20 machines, SQLite only (make bench-smoke).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from common import mysql_database, summary, table

from tests.support.mosquitto import Mosquitto, SubscriberProcess
from tests.support.servers import free_port, server_env, setup_database

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mqtt_load import Fleet  # noqa: E402
from telemetry_mqtt_bench import prepare, stored_count  # noqa: E402

MYSQL_DB = f"sibol_bench_fuzz_{os.getpid()}"


def malformed(rng: random.Random, now: datetime) -> bytes:
    kinds = [
        lambda: b"not json at all",
        lambda: b"\xff\xfe\x00garbage",
        lambda: b"[7.1, 35]",
        lambda: b"[" * 200 + b"]" * 200,
        lambda: json.dumps({"ph": 15, "ts": now.isoformat()}).encode(),
        lambda: json.dumps({"ph": 7, "ts": (now + timedelta(hours=2)).isoformat()}).encode(),
        lambda: json.dumps({"ph": 7, "ts": (now - timedelta(days=40)).isoformat()}).encode(),
        lambda: json.dumps({"ph": 7, "colour": "green"}).encode(),
        lambda: json.dumps({"ts": now.isoformat()}).encode(),
        lambda: b'{"readings": []}',
        lambda: b'{"ph": 1' + b"0" * 400 + b"}",
        lambda: b'{"ph": "sour"}',
        lambda: bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300))),
    ]
    return rng.choice(kinds)()


class Stream:
    """Decides each message: valid (a distinct ts per machine), a resend of one, or malformed."""

    def __init__(self, seed: int, bad_share: float, start: datetime):
        self.rng = random.Random(seed)
        self.bad_share, self.start = bad_share, start
        self.valid: dict[int, set[int]] = {}
        self.last: dict[int, bytes] = {}
        self.bad = self.resent = 0

    def make(self, device, seq: int) -> tuple[str, bytes]:
        topic = f"sibol/v1/machines/{device.machine_id}/telemetry"
        roll = self.rng.random()
        if roll < self.bad_share:
            self.bad += 1
            return topic, malformed(self.rng, datetime.now(UTC).replace(microsecond=0))
        if roll < self.bad_share + 0.01 and device.machine_id in self.last:
            self.resent += 1
            return topic, self.last[device.machine_id]
        ts = int((self.start + timedelta(seconds=seq)).timestamp() * 1000)
        self.valid.setdefault(device.machine_id, set()).add(ts)
        payload = json.dumps({"ts": ts, "ph": 7.1, "temperature_c": 35.2, "methane_pct": 60.3}).encode()
        self.last[device.machine_id] = payload
        return topic, payload


def database_counts(url: str) -> dict[str, int]:
    from sqlalchemy import create_engine, text

    from sibol.config import database_url as normalise

    engine = create_engine(normalise(url, ""))
    with engine.connect() as conn:
        out = {
            "refused": conn.execute(
                text("SELECT COALESCE(SUM(refused_count), 0) FROM mqtt_devices")
            ).scalar(),
            "parked": conn.execute(text("SELECT COUNT(*) FROM mqtt_dead_letters")).scalar(),
            "distinct": conn.execute(
                text("SELECT COUNT(*) FROM (SELECT DISTINCT machine_id, ts FROM telemetry_readings) AS d")
            ).scalar(),
        }
    engine.dispose()
    return {k: int(v or 0) for k, v in out.items()}


def stored_pairs(url: str) -> set[tuple[int, int]]:
    from sqlalchemy import create_engine, text

    from sibol.config import database_url as normalise

    engine = create_engine(normalise(url, ""))
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT machine_id, ts FROM telemetry_readings")).all()
    engine.dispose()
    epoch = datetime(1970, 1, 1)
    stamp = lambda ts: datetime.fromisoformat(ts) if isinstance(ts, str) else ts  # noqa: E731 - SQLite gives text
    return {(m, int((stamp(ts) - epoch).total_seconds() * 1000)) for m, ts in rows}


def run(label: str, url: str, args: argparse.Namespace) -> bool:
    tmp = Path(tempfile.mkdtemp(prefix="sibol-mqtt-fuzz-"))
    env = server_env(url, SIBOL_TELEMETRY_RATE_LIMIT="1000000 per minute")
    setup_database(env)
    port = free_port()
    devices = prepare(url, args.machines, tmp / "mqtt", port)
    broker = Mosquitto(tmp / "mqtt", port).start(write=False)
    env["SIBOL_MQTT_URL"] = broker.url
    subscriber = SubscriberProcess(env, tmp / "subscriber.log").start().wait_ready(60)
    start = datetime.now(UTC).replace(tzinfo=None, microsecond=0) - timedelta(days=2)
    stream = Stream(args.seed, args.bad, start)
    try:

        async def scenario() -> tuple[int, int, float]:
            fleet = Fleet("127.0.0.1", port, devices)
            await fleet.connect_all()
            t0 = time.monotonic()
            sent = await fleet.run_rate(args.rate, args.messages / args.rate, stream.make)
            for i in range(sent, args.messages):  # the rate's rounding leaves a few: send them now
                device = fleet.devices[i % len(fleet.devices)]
                fleet.publish(device, *stream.make(device, i // len(fleet.devices)))
                sent += 1
            deadline = time.monotonic() + 120
            while fleet.acked() < sent and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
            acked = fleet.acked()
            await fleet.close()
            valid = sum(len(v) for v in stream.valid.values())
            while time.monotonic() < deadline:
                counts = database_counts(url)
                if stored_count(url) >= valid and counts["refused"] + counts["parked"] >= stream.bad:
                    break
                await asyncio.sleep(0.5)
            return sent, acked, time.monotonic() - t0

        sent, acked, drained = asyncio.run(scenario())
    finally:
        subscriber.stop()
        broker.stop()
    valid = {(m, ts) for m, tss in stream.valid.items() for ts in tss}
    pairs = stored_pairs(url)
    counts = database_counts(url)
    rows = stored_count(url)
    retried = (tmp / "subscriber.log").read_text().count("trying again")
    checks = {
        "every message acknowledged": acked == sent,
        "every valid reading stored": valid <= pairs,
        "each stored once": rows == counts["distinct"] == len(valid),
        "every malformed one refused or parked": counts["refused"] + counts["parked"] == stream.bad,
        "no batch waited or was retried": retried == 0,
    }
    print(
        table(
            ["case", "figure"],
            [
                ["messages sent / acknowledged", f"{sent:,} / {acked:,}"],
                ["machines", f"{len(devices):,}"],
                ["valid readings (resends among them)", f"{len(valid):,} ({stream.resent:,} resent)"],
                ["stored rows", f"{rows:,}"],
                ["malformed", f"{stream.bad:,}"],
                ["refused / parked", f"{counts['refused']:,} / {counts['parked']:,}"],
                ["all stored and refused within", f"{drained:.1f} s"],
                *[[name, "yes" if ok else "NO"] for name, ok in checks.items()],
            ],
        )
    )
    summary(
        "telemetry_mqtt_fuzz",
        f"{label}: {sent:,} messages, {len(devices)} machines",
        f"{len(valid):,} valid stored once ({rows:,} rows); {stream.bad:,} malformed: "
        f"{counts['refused']:,} refused, {counts['parked']:,} parked; {drained:.1f} s",
    )
    return all(checks.values())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--machines", type=int, default=200)
    parser.add_argument("--bad", type=float, default=0.10, help="share of malformed messages")
    parser.add_argument("--rate", type=float, default=1000, help="messages/s offered")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=("sqlite", "mysql"))
    parser.add_argument("--smoke", action="store_true", help="500 messages, 20 machines, SQLite")
    args = parser.parse_args()
    if args.smoke:
        args.messages, args.machines, args.rate = 500, 20, 250
        args.only = args.only or "sqlite"
    print(
        f"Fuzzed MQTT stream: {args.messages:,} messages, {args.bad:.0%} malformed, {args.machines} machines"
    )
    ok = True
    if args.only in (None, "sqlite"):
        with tempfile.TemporaryDirectory(prefix="sibol-bench-") as folder:
            print("\nSQLite")
            ok &= run("SQLite", f"sqlite:///{folder}/bench.sqlite3", args)
    if args.only in (None, "mysql"):
        made = mysql_database(MYSQL_DB)
        if made is not None:
            url, drop = made
            try:
                print("\nMariaDB")
                ok &= run("MariaDB", url, args)
            finally:
                drop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
