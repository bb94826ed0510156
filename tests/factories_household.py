"""make_* helpers for the household and dashboard tables, and small image files for uploads."""

from __future__ import annotations

import itertools
import struct
import zlib
from datetime import date

from sibol.extensions import db
from sibol.models import CollectionArea, CollectionSchedule, HouseholdMember, Reward, WasteCollection

_counter = itertools.count(1)


def make_schedule(
    *,
    areas=("Purok 1",),
    person: str | None = None,
    contact: str = "0917 000 0000",
    when: date = date(2026, 1, 15),
    status: str = "Pending",
    grams: int | None = None,
) -> CollectionSchedule:
    schedule = CollectionSchedule(
        maintenance_person=person or f"Collector {next(_counter)}",
        collector_contact=contact,
        collection_date=when,
        status=status,
        total_waste_g=grams,
        areas=[CollectionArea(name=a, position=i) for i, a in enumerate(areas)],
    )
    db.session.add(schedule)
    db.session.commit()
    return schedule


def make_member(
    name: str | None = None,
    *,
    points: int = 100,
    barangay: str = "Barangay Fortune",
    active: bool = True,
    area: str = "",
) -> HouseholdMember:
    member = HouseholdMember(
        name=name or f"Household {next(_counter)}",
        points=points,
        barangay=barangay,
        is_active=active,
        area=area,
    )
    db.session.add(member)
    db.session.commit()
    return member


def make_reward(
    name: str | None = None, *, points: int = 100, status: str = "Available", area: str = ""
) -> Reward:
    reward = Reward(name=name or f"Reward {next(_counter)}", points_required=points, status=status, area=area)
    db.session.add(reward)
    db.session.commit()
    return reward


def make_waste(street: str, day: date, grams: int) -> WasteCollection:
    row = WasteCollection(street=street, collected_on=day, weight_g=grams)
    db.session.add(row)
    db.session.commit()
    return row


def png_bytes(width: int = 2, height: int = 2) -> bytes:
    """A real, valid PNG (grey pixels), built without Pillow."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )
