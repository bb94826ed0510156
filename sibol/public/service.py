"""The figures of a barangay's public page and of the city's, read unscoped for one barangay.

Waste, energy and CO2e are the impact module's (sibol/impact), the same figures the signed-in
pages show. Households appear by name only where they agreed (HouseholdMember.public_name).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import func, select

from ..extensions import db
from ..i18n import localtime
from ..identity import tenancy
from ..impact import service as impact
from ..models import (
    Barangay,
    CollectionArea,
    CollectionSchedule,
    CollectionStatus,
    HouseholdMember,
    WasteCollection,
)
from . import slugs
from .slugs import free_slug as free_slug

TOP_HOUSEHOLDS = 5


@dataclass
class NextCollection:
    area: str
    day: date
    collector: str


@dataclass
class PublicFigures:
    barangay: Barangay
    month: impact.Impact
    year: impact.Impact
    households_this_month: int
    next_collections: list[NextCollection]
    areas: list[tuple[str, float, int, float | None]]  # (area, kg, households, kg per household)
    households: list[tuple[int, str | None, int]]  # (rank, name or None without consent, points)
    month_start: date
    year_start: date


def next_collections(barangay_id: int, today: date) -> list[NextCollection]:
    """The next pending collection of each area, soonest first."""
    rows = db.session.execute(
        select(CollectionArea.name, CollectionSchedule.collection_date, CollectionSchedule.maintenance_person)
        .join(CollectionSchedule, CollectionSchedule.id == CollectionArea.schedule_id)
        .where(
            CollectionSchedule.barangay_id == barangay_id,
            CollectionSchedule.status == CollectionStatus.PENDING,
            CollectionSchedule.collection_date >= today,
        )
        .order_by(CollectionSchedule.collection_date, CollectionArea.position)
    )
    found: dict[str, NextCollection] = {}
    for area, day, collector in rows:
        found.setdefault(area.casefold(), NextCollection(area, day, collector))
    return list(found.values())


def areas_by_waste(barangay_id: int, period: impact.Period) -> list[tuple[str, float, int, float | None]]:
    """(area, kg in the period, households, kg per household) per area with collections, ranked
    by kg per household (areas with no household on record last, by kg). A household's area is
    the area named on its member record."""
    rows = db.session.execute(
        select(WasteCollection.street, func.sum(WasteCollection.weight_g))
        .where(
            WasteCollection.barangay_id == barangay_id,
            WasteCollection.collected_on >= period.start,
            WasteCollection.collected_on < period.end,
        )
        .group_by(WasteCollection.street)
    )
    households = {
        (name or "").strip().casefold(): int(n)
        for name, n in db.session.execute(
            select(HouseholdMember.barangay, func.count(HouseholdMember.id))
            .where(HouseholdMember.barangay_id == barangay_id, HouseholdMember.is_active.is_(True))
            .group_by(HouseholdMember.barangay)
        )
    }
    areas = []
    for street, grams in rows:
        kg, n = int(grams or 0) / 1000, households.get(street.strip().casefold(), 0)
        areas.append((street, kg, n, kg / n if n else None))
    return sorted(areas, key=lambda a: (a[3] is None, -(a[3] or 0), -a[1], a[0]))


def top_households(barangay_id: int) -> list[tuple[int, str | None, int]]:
    rows = db.session.execute(
        select(HouseholdMember.name, HouseholdMember.public_name, HouseholdMember.points)
        .where(HouseholdMember.barangay_id == barangay_id, HouseholdMember.is_active.is_(True))
        .order_by(HouseholdMember.points.desc(), HouseholdMember.id)
        .limit(TOP_HOUSEHOLDS)
    )
    return [(rank, name if shown else None, points) for rank, (name, shown, points) in enumerate(rows, 1)]


def figures(barangay: Barangay) -> PublicFigures:
    today = localtime.today()
    month, year = impact.Period.month_of(today), impact.Period.year_of(today)
    with tenancy.unscoped():
        return PublicFigures(
            barangay=barangay,
            month=impact.for_barangay(barangay.id, month),
            year=impact.for_barangay(barangay.id, year),
            households_this_month=impact.households_taking_part([barangay.id], month).get(barangay.id, 0),
            next_collections=next_collections(barangay.id, today),
            areas=areas_by_waste(barangay.id, month),
            households=top_households(barangay.id),
            month_start=month.start,
            year_start=year.start,
        )


def city_lines() -> list[tuple[Barangay, impact.Impact, int]]:
    """Each active barangay with this month's impact and households taking part."""
    slugs.ensure_slugs()
    month = impact.Period.month_of(localtime.today())
    with tenancy.unscoped():
        barangays = list(
            db.session.scalars(select(Barangay).where(Barangay.is_active.is_(True)).order_by(Barangay.name))
        )
        ids = [b.id for b in barangays]
        found = impact.for_barangays(ids, month) if ids else {}
        households = impact.households_taking_part(ids, month) if ids else {}
    return [(b, found.get(b.id, impact.Impact()), households.get(b.id, 0)) for b in barangays]


def figures_json(f: PublicFigures) -> dict:
    def numbers(i: impact.Impact) -> dict:
        return {k: v for k, v in i.as_json().items() if not k.endswith("Source")}

    return {
        "barangay": f.barangay.name,
        "slug": f.barangay.slug,
        "timeZone": localtime.time_zone_name(),
        "collectionWindow": f.barangay.collection_window,
        "month": {
            "start": f.month_start.isoformat(),
            **numbers(f.month),
            "households": f.households_this_month,
        },
        "year": {"start": f.year_start.isoformat(), **numbers(f.year)},
        "nextCollections": [
            {"area": n.area, "date": n.day.isoformat(), "collector": n.collector} for n in f.next_collections
        ],
        "areas": [
            {
                "area": a,
                "wasteKg": round(kg, 1),
                "households": n,
                "kgPerHousehold": None if per is None else round(per, 1),
            }
            for a, kg, n, per in f.areas
        ],
        "households": [{"rank": r, "name": name, "points": p} for r, name, p in f.households],
    }
