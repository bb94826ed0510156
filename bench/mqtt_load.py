"""A lean MQTT 3.1.1 device fleet for the benchmarks: one asyncio loop, one connection per device.

paho opens three file descriptors and runs Python callbacks per client; ten thousand devices on a
2-core machine need less: this speaks just CONNECT, PUBLISH (QoS 1), PUBACK and PINGREQ.
"""

from __future__ import annotations

import asyncio
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass, field


def _length(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n % 128, n // 128
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _str(s: str) -> bytes:
    data = s.encode()
    return struct.pack("!H", len(data)) + data


def connect_packet(client_id: str, username: str, password: str, keepalive: int = 120) -> bytes:
    body = _str("MQTT") + bytes([4, 0xC2]) + struct.pack("!H", keepalive)  # user, password, clean
    body += _str(client_id) + _str(username) + _str(password)
    return b"\x10" + _length(len(body)) + body


def publish_packet(topic: str, payload: bytes, mid: int) -> bytes:
    body = _str(topic) + struct.pack("!H", mid) + payload
    return b"\x32" + _length(len(body)) + body  # QoS 1


@dataclass
class Device:
    machine_id: int
    key: str
    reader: asyncio.StreamReader | None = None
    writer: asyncio.StreamWriter | None = None
    next_mid: int = 1
    sent: dict[int, float] = field(default_factory=dict)  # mid -> publish time
    acked: int = 0


class Fleet:
    def __init__(self, host: str, port: int, devices: list[tuple[int, str]]):
        self.host, self.port = host, port
        self.devices = [Device(m, k) for m, k in devices]
        self.on_ack: Callable[[Device, int, float], None] | None = None

    async def _connect(self, device: Device) -> None:
        device.reader, device.writer = await asyncio.open_connection(self.host, self.port)
        device.writer.write(
            connect_packet(f"sibol-device-{device.machine_id}", str(device.machine_id), device.key)
        )
        head = await device.reader.readexactly(4)
        if head[0] != 0x20 or head[3] != 0:
            raise RuntimeError(f"machine {device.machine_id}: CONNACK refused ({head[3]})")
        asyncio.get_running_loop().create_task(self._read(device))

    async def connect_all(self, concurrency: int = 200) -> None:
        sem = asyncio.Semaphore(concurrency)

        async def one(d: Device) -> None:
            async with sem:
                await self._connect(d)

        await asyncio.gather(*(one(d) for d in self.devices))

    async def _read(self, device: Device) -> None:
        assert device.reader is not None
        try:
            while True:
                first = await device.reader.readexactly(2)
                rest = await device.reader.readexactly(first[1]) if first[1] else b""
                if first[0] >> 4 == 4:  # PUBACK
                    mid = struct.unpack("!H", rest[:2])[0]
                    sent = device.sent.pop(mid, None)
                    if sent is not None:
                        device.acked += 1
                        if self.on_ack:
                            self.on_ack(device, mid, sent)
        except (asyncio.IncompleteReadError, ConnectionError):
            return

    def publish(self, device: Device, topic: str, payload: bytes) -> int:
        mid = device.next_mid
        device.next_mid = mid % 65535 + 1
        device.sent[mid] = time.monotonic()
        assert device.writer is not None
        device.writer.write(publish_packet(topic, payload, mid))
        return mid

    async def run_rate(
        self, rate: float, seconds: float, make: Callable[[Device, int], tuple[str, bytes]]
    ) -> int:
        """Publish `rate` messages a second, devices in turn, for `seconds`; returns how many."""
        start = time.monotonic()
        sent, i, n = 0, 0, len(self.devices)
        while True:
            elapsed = time.monotonic() - start
            if elapsed >= seconds:
                return sent
            due = int(elapsed * rate) - sent
            for _ in range(due):
                device = self.devices[i % n]
                topic, payload = make(device, i // n)
                self.publish(device, topic, payload)
                i += 1
            sent += max(due, 0)
            await asyncio.sleep(0.005)

    def acked(self) -> int:
        return sum(d.acked for d in self.devices)

    async def close(self) -> None:
        for d in self.devices:
            if d.writer is not None:
                d.writer.write(b"\xe0\x00")  # DISCONNECT
                d.writer.close()
        await asyncio.sleep(0.1)
