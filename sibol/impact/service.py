"""Impact figures for a household, an area, a barangay or the city over a period of local days.

The rules (docs/impact.md gives the method, the sources and a worked example):
- Food waste diverted (kg): where a barangay's machines weighed waste in the period, their
  weighings; otherwise the collections its staff recorded.
- Biogas energy (kWh): each calendar month of the period on its own: the machines' power
  readings where the barangay's machines reported power in that part of the month; otherwise
  the energy typed for the month (kWh), counted in proportion to the days of the month the period
  covers.
- A household's waste is what it handed in; its energy is its share of its barangay's energy,
  in proportion to its share of the barangay's waste over the same period.
- Methane avoided, CO2e, grid CO2 displaced: impact.factors applied to the figures above.
Queries run unscoped with explicit barangay filters, so the city dashboard and the public pages
(no sign-in) count exactly what a barangay's own pages count.
"""

from __future__ import annotations

from calendar import monthrange
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlalchemy import func, select

from ..extensions import db
from ..i18n import localtime
from ..identity import tenancy
from ..models import Barangay, EnergyReading, HouseholdMember, MemberCollection, WasteCollection
from . import factors, rollups


@dataclass(frozen=True)
class Period:
    """Local days [start, end) of the barangay's zone (SIBOL_TIMEZONE)."""

    start: date
    end: date

    @classmethod
    def month_of(cls, day: date) -> Period:
        return cls(*localtime.month_bounds(day))

    @classmethod
    def year_of(cls, day: date) -> Period:
        return cls(date(day.year, 1, 1), date(day.year + 1, 1, 1))

    @classmethod
    def week_of(cls, day: date) -> Period:
        start = day - timedelta(days=day.weekday())
        return cls(start, start + timedelta(days=7))

    @property
    def utc_start(self) -> datetime:
        return localtime.utc_start_of(self.start)

    @property
    def utc_end(self) -> datetime:
        return localtime.utc_start_of(self.end)

    def months(self) -> list[Period]:
        """The period cut at each month's first day."""
        parts, day = [], self.start
        while day < self.end:
            part = Period(day, min(Period.month_of(day).end, self.end))
            parts.append(part)
            day = part.end
        return parts


@dataclass(frozen=True)
class Impact:
    waste_kg: float = 0.0
    energy_kwh: float = 0.0
    waste_source: str = "none"  # machines | collections | households | none
    energy_source: str = "none"  # machines | readings | mixed | share | none

    @property
    def methane_kg(self) -> float:
        return self.waste_kg * factors.CH4_PER_KG_WASTE

    @property
    def methane_co2e_kg(self) -> float:
        return self.methane_kg * factors.GWP_CH4

    @property
    def grid_co2e_kg(self) -> float:
        return self.energy_kwh * factors.GRID_KG_CO2_PER_KWH

    @property
    def co2e_kg(self) -> float:
        """CO2e kept out of the air: the dump's methane avoided plus the grid's CO2 displaced."""
        return self.methane_co2e_kg + self.grid_co2e_kg

    def __add__(self, other: Impact) -> Impact:
        def source(a: str, b: str) -> str:
            return b if a == "none" else a if b in ("none", a) else "mixed"

        return Impact(
            self.waste_kg + other.waste_kg,
            self.energy_kwh + other.energy_kwh,
            source(self.waste_source, other.waste_source),
            source(self.energy_source, other.energy_source),
        )

    def as_json(self) -> dict:
        """Rounded for display: kg and kWh to 0.1, CO2e to whole kg where large."""
        return {
            "wasteKg": round(self.waste_kg, 1),
            "energyKwh": round(self.energy_kwh, 1),
            "methaneKg": round(self.methane_kg, 1),
            "co2eKg": round(self.co2e_kg, 1),
            "gridCo2eKg": round(self.grid_co2e_kg, 1),
            "methaneCo2eKg": round(self.methane_co2e_kg, 1),
            "wasteSource": self.waste_source,
            "energySource": self.energy_source,
        }


def _all_ids() -> list[int]:
    return [int(b) for b in db.session.scalars(select(Barangay.id).order_by(Barangay.id))]


def _recorded_kg(period: Period, ids: list[int]) -> dict[int, float]:
    rows = db.session.execute(
        select(WasteCollection.barangay_id, func.sum(WasteCollection.weight_g))
        .where(
            WasteCollection.barangay_id.in_(ids),
            WasteCollection.collected_on >= period.start,
            WasteCollection.collected_on < period.end,
        )
        .group_by(WasteCollection.barangay_id)
    )
    return {int(b): int(g or 0) / 1000 for b, g in rows}


def _typed_kwh(period: Period, ids: list[int]) -> dict[int, float]:
    """Typed monthly energy, pro rata the days of its month the part `period` covers."""
    month = Period.month_of(period.start)
    days = monthrange(month.start.year, month.start.month)[1]
    rows = db.session.execute(
        select(EnergyReading.barangay_id, EnergyReading.kilowatts).where(
            EnergyReading.barangay_id.in_(ids), EnergyReading.month == month.start
        )
    )
    share = (period.end - period.start).days / days
    return {int(b): float(kwh) * share for b, kwh in rows}


def _waste(period: Period, ids: list[int]) -> dict[int, tuple[float, str]]:
    weighed = rollups.weighed_kg(period.utc_start, period.utc_end, ids)
    recorded = _recorded_kg(period, [b for b in ids if b not in weighed])
    found = {b: (kg, "machines") for b, kg in weighed.items()}
    found.update({b: (kg, "collections") for b, kg in recorded.items()})
    return found


def _energy(period: Period, ids: list[int]) -> dict[int, Impact]:
    totals: dict[int, Impact] = {}
    for part in period.months():
        measured = rollups.power_kwh(part.utc_start, part.utc_end, ids)
        typed = _typed_kwh(part, [b for b in ids if b not in measured])
        for source, values in (("machines", measured), ("readings", typed)):
            for b, kwh in values.items():
                totals[b] = totals.get(b, Impact()) + Impact(energy_kwh=kwh, energy_source=source)
    return totals


def for_barangays(ids: list[int] | None, period: Period) -> dict[int, Impact]:
    """{barangay id: Impact} for the given barangays (None: every barangay with figures)."""
    with tenancy.unscoped():
        ids = _all_ids() if ids is None else list(ids)
        if not ids:
            return {}
        waste, energy = _waste(period, ids), _energy(period, ids)
    result = {}
    for b in ids:
        kg, source = waste.get(b, (0.0, "none"))
        result[b] = Impact(waste_kg=kg, waste_source=source) + energy.get(b, Impact())
    return result


def for_barangay(barangay_id: int, period: Period) -> Impact:
    return for_barangays([barangay_id], period)[barangay_id]


def for_city(period: Period) -> Impact:
    total = Impact()
    for impact in for_barangays(None, period).values():
        total = total + impact
    return total


def for_scope(period: Period) -> Impact:
    """The barangay the session is scoped to, or the whole city when it is not (a City Admin
    viewing every barangay)."""
    scope = tenancy.current_scope()
    return for_city(period) if scope is None else for_barangay(scope, period)


def for_household(member: HouseholdMember, period: Period) -> Impact:
    """What one household handed in, and its share of its barangay's energy."""
    with tenancy.unscoped():
        grams = db.session.scalar(
            select(func.coalesce(func.sum(MemberCollection.waste_g), 0)).where(
                MemberCollection.member_id == member.id,
                MemberCollection.collected_on >= period.start,
                MemberCollection.collected_on < period.end,
            )
        )
    kg = int(grams or 0) / 1000
    barangay = for_barangay(member.barangay_id, period)
    kwh = barangay.energy_kwh * min(kg / barangay.waste_kg, 1.0) if barangay.waste_kg else 0.0
    return Impact(kg, kwh, "households" if kg else "none", "share" if kwh else "none")


def households_taking_part(ids: list[int], period: Period) -> dict[int, int]:
    """{barangay id: households credited with a collection in the period}."""
    with tenancy.unscoped():
        rows = db.session.execute(
            select(MemberCollection.barangay_id, func.count(func.distinct(MemberCollection.member_id)))
            .where(
                MemberCollection.barangay_id.in_(ids),
                MemberCollection.collected_on >= period.start,
                MemberCollection.collected_on < period.end,
            )
            .group_by(MemberCollection.barangay_id)
        )
        return {int(b): int(n) for b, n in rows}
