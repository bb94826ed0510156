"""Sample chemical additives and waste containers for the sample machines, and the generator of
many machines for benchmarks (`flask generate-machines`)."""

from __future__ import annotations

from datetime import time, timedelta
from typing import Any, cast

from sqlalchemy import Table, func, insert, select

from ..extensions import db
from ..models import Area, Machine, MachineStatus, utcnow
from ..models.machines import ChemicalAdditive, MachineTerm, WasteContainer, machine_terms

# (chemical input, stage, value, units, days before today, time, person in charge)
SAMPLE_ADDITIVES = (
    ("Lime (calcium hydroxide)", "Filtering", "2.5", "kg", 0, time(8, 30), "Juan Dela Cruz"),
    ("Sodium bicarbonate", "Slurry Making", "1.2", "kg", 1, time(9, 15), "Maria Santos"),
    ("Effective microorganisms", "Biogas Generation", "500", "mL", 2, time(10, 0), "Pedro Reyes"),
    ("Iron chloride", "Final Output", "0.8", "L", 3, time(14, 45), "Ana Garcia"),
)
# (area, status, days before today)
SAMPLE_CONTAINERS = (
    ("Package 1", "Full", 14),
    ("Package 2", "Not Full", 10),
    ("Package 3", "Not Full", 5),
)
GENERATED_KINDS = ("Digester", "Composter", "Shredder", "Biogas Unit", "Mixer")
DEFAULT_GENERATED = 120_305


def sample_data() -> None:
    """Rows for up to the first four machines, once (when both tables are empty)."""
    has_rows = db.session.scalar(select(func.count()).select_from(ChemicalAdditive)) or db.session.scalar(
        select(func.count()).select_from(WasteContainer)
    )
    if has_rows:
        return
    machines = list(db.session.scalars(select(Machine).order_by(Machine.id).limit(4)))
    today = utcnow().date()
    for n, machine in enumerate(machines):
        # Each machine gets a different share of the rows so the selector visibly changes them.
        for chem, stage, value, units, days, at, person in SAMPLE_ADDITIVES[: 4 - n]:
            db.session.add(
                ChemicalAdditive(
                    machine_id=machine.id,
                    chemical_input=chem,
                    stage=stage,
                    value=value,
                    units=units,
                    area=f"Package {n + 1}",
                    added_on=today - timedelta(days=days + 7 * n),
                    added_at=at,
                    person_in_charge=person,
                )
            )
        for i, (area, status, days) in enumerate(SAMPLE_CONTAINERS[: 3 - n % 3], start=1):
            db.session.add(
                WasteContainer(
                    machine_id=machine.id,
                    container_no=f"WC-{machine.id:03d}-{i:02d}",
                    area=area,
                    status=status,
                    start_date=today - timedelta(days=days + 7 * n),
                )
            )
    db.session.commit()


def generated_name(n: int) -> str:
    return f"SIBOL {GENERATED_KINDS[n % len(GENERATED_KINDS)]} {n}"


def generate_machines(count: int = DEFAULT_GENERATED, *, chunk: int = 5_000) -> int:
    """Adds `count` machines named 'SIBOL {kind} {n}' spread over the areas and statuses (and
    none), with their search terms, in chunks of bulk inserts. Returns the number added."""
    areas = [tuple(r) for r in db.session.execute(select(Area.id, Area.barangay_id).order_by(Area.id))]
    if not areas:
        raise ValueError("No areas: run `flask seed` first.")
    statuses: list[int | None] = [
        *db.session.scalars(select(MachineStatus.id).order_by(MachineStatus.id)),
        None,
    ]
    start = (db.session.scalar(select(func.max(Machine.id))) or 0) + 1
    now = utcnow()
    machines_table, terms_table = cast(Table, Machine.__table__), cast(Table, MachineTerm.__table__)
    for first in range(start, start + count, chunk):
        ids = range(first, min(first + chunk, start + count))
        rows: list[dict[str, Any]] = [
            {
                "id": i,
                "name": generated_name(i),
                "area_id": areas[i % len(areas)][0],
                "barangay_id": areas[i % len(areas)][1],  # a machine is in its area's barangay
                "status_id": statuses[i % len(statuses)],
                "created_at": now,
                "updated_at": now,
            }
            for i in ids
        ]
        db.session.execute(insert(machines_table), rows)
        db.session.execute(
            insert(terms_table),
            [
                {"term": t, "machine_id": r["id"], "shared": shared, "barangay_id": r["barangay_id"]}
                for r in rows
                for t, shared in machine_terms(r["name"])
            ],
        )
        db.session.commit()
    return count
