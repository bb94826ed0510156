"""MQTT ingestion benchmark: devices on their own connections -> Mosquitto -> the subscriber.

Everything on this machine: a real Mosquitto set up by the console (dynamic security, persistence),
`flask mqtt subscribe`, gunicorn for /latest, the database, and the load generator (bench/mqtt_load.py,
one asyncio loop). Each message is one reading of 8 metrics with its own ts.

1. Throughput: DEVICES devices publish RATE messages/s in all for SECONDS; stored readings/s is
   counted in the database over the same window (the target is 2,000/s).
2. Latency at the fleet's rate (401/s): publish -> visible in GET /api/machines/{id}/telemetry/latest,
   sampled twice a second, p50 and p95 (the target is p95 <= 2 s).
3. Subscriber away: the subscriber stopped, DEVICES devices publish BACKLOG_RATE messages/s for
   BACKLOG_SECONDS, all queued at the broker: PUBACK latency, the broker's CPU seconds and the
   bytes it wrote (persistence), then the time the restarted subscriber takes to store them.
   The broker saves its state after every change; `--autosave-every-30s` runs it as it was
   before (saved every 30 s), for the comparison in docs/performance.md.
4. Memory: MEMORY_DEVICES devices connected at once; the broker's and the subscriber's RSS.

`--smoke` runs every case at a tiny size in a few seconds (make bench-smoke).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import threading
import time
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path

from common import ADMIN_PASSWORD, median, mysql_database, percentile, summary, table

from tests.support.mosquitto import CONSOLE_PASSWORD, Mosquitto, SubscriberProcess
from tests.support.servers import AppServer, free_port, server_env, setup_database

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mqtt_load import Fleet  # noqa: E402

MYSQL_DB = f"sibol_bench_mqtt_{os.getpid()}"  # its own database: others may run this bench too


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def tree_rss_mb(pid: int) -> tuple[float, int]:
    """RSS of a process and its children (the subscriber's writer processes), and how many."""
    children = [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    return rss_mb(pid) + sum(rss_mb(c) for c in children), 1 + len(children)


def broker_usage(pid: int) -> tuple[float, int]:
    """(CPU seconds, bytes written to storage) of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    io = dict(line.split(": ") for line in Path(f"/proc/{pid}/io").read_text().splitlines())
    return cpu, int(io["write_bytes"])


def old_autosave(conf: Path) -> None:
    """The broker's configuration as it was: state saved every 30 s, not after every change."""
    text = conf.read_text().replace(
        "autosave_on_changes true\nautosave_interval 1\n", "autosave_interval 30\n"
    )
    conf.write_text(text)


def broker_fields(raw: str) -> dict:
    from sibol.telemetry.mqtt import dynsec

    entry = dynsec.password_entry(raw)
    return {"password_hash": entry["password"], "salt": entry["salt"], "iterations": entry["iterations"]}


def prepare(database_url: str, count: int, broker_dir: Path, port: int) -> list[tuple[int, str]]:
    """count machines with device keys (and their broker hashes), then the broker's files."""
    os.environ["DATABASE_URL"] = database_url
    from sqlalchemy import insert, select

    from sibol import create_app
    from sibol.devices.keys import hash_key
    from sibol.extensions import db
    from sibol.models import Area, Machine
    from sibol.models.mqtt import MqttDevice
    from sibol.models.telemetry import DeviceKey
    from sibol.telemetry.mqtt.broker import write_files

    app = create_app({"SIBOL_MQTT_URL": ""})
    with app.app_context():
        area = db.session.scalar(select(Area).order_by(Area.id).limit(1))
        barangay = area.barangay_id
        db.session.execute(
            insert(Machine),
            [{"name": f"Bench {i}", "area_id": area.id, "barangay_id": barangay} for i in range(count)],
        )
        db.session.commit()
        ids = list(
            db.session.scalars(select(Machine.id).where(Machine.name.like("Bench %")).order_by(Machine.id))
        )
        keys = [f"sdk_bench_{i}_{os.urandom(8).hex()}" for i in ids]
        db.session.execute(
            insert(DeviceKey),
            [
                {"machine_id": i, "key_hash": hash_key(k), "barangay_id": barangay}
                for i, k in zip(ids, keys, strict=True)
            ],
        )
        db.session.execute(
            insert(MqttDevice),
            [
                {"machine_id": i, "refused_count": 0, **broker_fields(k)}
                for i, k in zip(ids, keys, strict=True)
            ],
        )
        db.session.commit()
        write_files(broker_dir, port, CONSOLE_PASSWORD)
        db.engine.dispose()
    return list(zip(ids, keys, strict=True))


def stored_count(database_url: str) -> int:
    from sqlalchemy import create_engine, text

    from sibol.config import database_url as normalise

    engine = create_engine(normalise(database_url, ""))
    with engine.connect() as conn:
        n = conn.execute(text("SELECT COUNT(*) FROM telemetry_readings")).scalar()
    engine.dispose()
    return int(n or 0)


def reading(device, seq: int, start: datetime) -> tuple[str, bytes]:
    ts = int((start + timedelta(seconds=seq)).timestamp() * 1000)
    body = {
        "ts": ts,
        "weight_kg": 12.5,
        "ph": 7.1,
        "temperature_c": 35.2,
        "pressure_kpa": 4.1,
        "methane_pct": 60.3,
        "voltage_v": 230.0,
        "current_a": 5.1,
        "water_l": 10.0,
    }
    return f"sibol/v1/machines/{device.machine_id}/telemetry", json.dumps(body).encode()


def login(base: str) -> str:
    req = urllib.request.Request(  # noqa: S310 - our own loopback server
        f"{base}/api/auth/login",
        data=json.dumps({"username": "admin", "password": ADMIN_PASSWORD}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=10) as res:  # noqa: S310 - our own loopback server
        return json.loads(res.read())["token"]


def latest_ts(base: str, token: str, machine_id: int) -> str | None:
    req = urllib.request.Request(  # noqa: S310 - our own loopback server
        f"{base}/api/machines/{machine_id}/telemetry/latest", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(req, timeout=10) as res:  # noqa: S310 - our own loopback server
        ph = json.loads(res.read())["data"].get("ph")
    return ph["ts"] if ph else None


async def throughput(fleet: Fleet, url: str, rate: float, seconds: float, start: datetime) -> dict:
    before, t0 = stored_count(url), time.monotonic()
    sent = await fleet.run_rate(rate, seconds, lambda d, seq: reading(d, seq, start))
    window = time.monotonic() - t0
    during = stored_count(url) - before
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())  # other users of the CPUs, at the window's end
    deadline = time.monotonic() + 120
    while stored_count(url) - before < fleet.acked() and time.monotonic() < deadline:
        await asyncio.sleep(0.5)
    drained = time.monotonic() - t0
    total = stored_count(url) - before
    return {
        "sent": sent,
        "acked": fleet.acked(),
        "stored": total,
        "rate": during / window,
        "drain": drained,
        "load": load,
    }


async def latency(fleet: Fleet, base: str, token: str, seconds: float, start: datetime) -> list[float]:
    """Publish at 401/s (or the smoke rate); twice a second follow one message into /latest."""
    rate = 401.0 if len(fleet.devices) >= 401 else 40.0
    samples: list[float] = []
    stop = threading.Event()
    chosen: list[tuple[int, str, float]] = []

    def make(device, seq):
        topic, payload = reading(device, seq, start)
        if len(chosen) < (time.monotonic() - began) * 2:
            ts = (start + timedelta(seconds=seq)).replace(tzinfo=UTC)
            chosen.append((device.machine_id, ts.strftime("%Y-%m-%dT%H:%M:%S"), time.monotonic()))
        return topic, payload

    def follower() -> None:
        done = 0
        while not stop.is_set() or done < len(chosen):
            if done >= len(chosen):
                time.sleep(0.01)
                continue
            machine_id, ts, sent = chosen[done]
            while time.monotonic() - sent < 30:
                seen = latest_ts(base, token, machine_id)
                if seen and seen[:19] >= ts:
                    samples.append(time.monotonic() - sent)
                    break
                time.sleep(0.02)
            done += 1

    thread = threading.Thread(target=follower)
    thread.start()
    began = time.monotonic()
    await fleet.run_rate(rate, seconds, make)
    stop.set()
    await asyncio.to_thread(thread.join, 60)
    return samples


async def backlog(
    fleet: Fleet, broker: Mosquitto, url: str, args: argparse.Namespace, start: datetime
) -> dict:
    """The subscriber is stopped: every message waits at the broker."""
    assert broker.proc is not None
    waits: list[float] = []  # the PUBACK waits of this case's messages only
    began = time.monotonic()
    fleet.on_ack = lambda _d, _mid, sent: sent >= began and waits.append(time.monotonic() - sent)
    cpu0, written0 = broker_usage(broker.proc.pid)
    sent = await fleet.run_rate(
        args.backlog_rate, args.backlog_seconds, lambda d, seq: reading(d, seq, start)
    )
    deadline = time.monotonic() + 30
    while len(waits) < sent and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    cpu1, written1 = broker_usage(broker.proc.pid)
    fleet.on_ack = None
    return {
        "sent": sent,
        "acked": len(waits),
        "p50": median(waits),
        "p95": percentile(waits, 95),
        "cpu": cpu1 - cpu0,
        "written": (written1 - written0) / 1e6,
        "load": ", ".join(f"{v:.1f}" for v in os.getloadavg()),
    }


def run(label: str, url: str, args: argparse.Namespace) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="sibol-mqtt-bench-"))
    env = server_env(
        url, SIBOL_TELEMETRY_RATE_LIMIT="1000000 per minute", SIBOL_ADMIN_PASSWORD=ADMIN_PASSWORD
    )
    setup_database(env)
    port = free_port()
    total = max(args.devices, args.memory_devices)
    began = time.monotonic()
    devices = prepare(url, total, tmp / "mqtt", port)
    print(f"\n{label}: {total:,} machines with keys in {time.monotonic() - began:.0f} s")
    if args.autosave_every_30s:
        old_autosave(tmp / "mqtt" / "mosquitto.conf")
    broker = Mosquitto(tmp / "mqtt", port).start(write=False)
    env["SIBOL_MQTT_URL"] = broker.url
    subscriber = SubscriberProcess(env, tmp / "subscriber.log").start().wait_ready(60)
    server = AppServer(env, workers=2, log=tmp / "server.log").start()
    rows = []
    try:
        start = datetime.now(UTC).replace(tzinfo=None, microsecond=0) - timedelta(days=2)

        async def scenario() -> None:
            fleet = Fleet("127.0.0.1", port, devices[: args.devices])
            await fleet.connect_all()
            r = await throughput(fleet, url, args.rate, args.seconds, start)
            rows.append(
                [
                    f"{args.devices} devices, {args.rate:.0f} msg/s offered, {args.seconds:.0f} s",
                    f"{r['rate']:,.0f} readings/s stored",
                    f"{r['acked']:,} acked, {r['stored']:,} stored, all in {r['drain']:.1f} s; "
                    f"load average {r['load']}",
                ]
            )
            summary(
                "telemetry_mqtt",
                f"{label}: stored readings/s",
                f"{r['rate']:,.0f}/s ({args.devices} devices)",
            )
            token = login(server.url)
            lat = await latency(fleet, server.url, token, args.latency_seconds, start + timedelta(days=1))
            rows.append(
                [
                    "publish -> /latest at the fleet's rate",
                    f"p50 {median(lat):.2f} s, p95 {percentile(lat, 95):.2f} s",
                    f"{len(lat)} samples",
                ]
            )
            summary("telemetry_mqtt", f"{label}: publish->latest p95", f"{percentile(lat, 95):.2f} s")
            subscriber.stop()
            before = stored_count(url)
            b = await backlog(fleet, broker, url, args, start - timedelta(hours=12))
            t0 = time.monotonic()
            subscriber.start().wait_ready(60)
            while stored_count(url) - before < b["acked"] and time.monotonic() - t0 < 300:
                await asyncio.sleep(0.5)
            rows.append(
                [
                    f"subscriber away: {args.backlog_rate:.0f} msg/s for {args.backlog_seconds:.0f} s, queued",
                    f"PUBACK p50 {b['p50'] * 1000:.1f} ms, p95 {b['p95'] * 1000:.1f} ms; "
                    f"broker {b['cpu']:.1f} CPU s, wrote {b['written']:.0f} MB",
                    f"{b['acked']:,} of {b['sent']:,} acked, {stored_count(url) - before:,} stored "
                    f"{time.monotonic() - t0:.1f} s after the subscriber's restart; load average {b['load']}",
                ]
            )
            summary(
                "telemetry_mqtt",
                f"{label}: subscriber away, broker",
                f"{b['cpu']:.1f} CPU s, {b['written']:.0f} MB written, PUBACK p95 {b['p95'] * 1000:.1f} ms",
            )
            await fleet.close()
            many = Fleet("127.0.0.1", port, devices[: args.memory_devices])
            t0 = time.monotonic()
            await many.connect_all()
            connect_s = time.monotonic() - t0
            await asyncio.sleep(2)
            assert broker.proc is not None and subscriber.proc is not None
            b = rss_mb(broker.proc.pid)
            s, processes = tree_rss_mb(subscriber.proc.pid)
            rows.append(
                [
                    f"{args.memory_devices:,} devices connected",
                    f"broker {b:.0f} MB, subscriber {s:.0f} MB RSS ({processes} processes)",
                    f"connected in {connect_s:.1f} s",
                ]
            )
            summary(
                "telemetry_mqtt",
                f"{label}: memory, {args.memory_devices} devices",
                f"broker {b:.0f} MB, subscriber {s:.0f} MB",
            )
            await many.close()

        asyncio.run(scenario())
        print(table(["case", "figure", "notes"], rows))
    finally:
        server.stop()
        subscriber.stop()
        broker.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=2500, help="messages/s offered in all")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--latency-seconds", type=float, default=20)
    parser.add_argument(
        "--backlog-rate", type=float, default=1000, help="messages/s while the subscriber is away"
    )
    parser.add_argument("--backlog-seconds", type=float, default=30)
    parser.add_argument(
        "--autosave-every-30s", action="store_true", help="the broker as before: its state saved every 30 s"
    )
    parser.add_argument("--memory-devices", type=int, default=10_000)
    parser.add_argument("--only", choices=("sqlite", "mysql"))
    parser.add_argument("--smoke", action="store_true", help="a tiny run of every case, in seconds")
    args = parser.parse_args()
    if args.smoke:
        args.devices, args.rate, args.seconds, args.latency_seconds, args.memory_devices = 20, 200, 2, 2, 50
        args.backlog_rate, args.backlog_seconds = 200, 2
        args.only = args.only or "sqlite"
    print(f"MQTT telemetry benchmark: {os.cpu_count()} CPUs")
    if args.only in (None, "sqlite"):
        with tempfile.TemporaryDirectory(prefix="sibol-bench-") as folder:
            run("SQLite", f"sqlite:///{folder}/bench.sqlite3", args)
    if args.only in (None, "mysql"):
        made = mysql_database(MYSQL_DB)
        if made is not None:
            url, drop = made
            try:
                run("MariaDB", url, args)
            finally:
                drop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
