"""The dashboard's sample figures (spec section 3) as rows, written once into empty tables.

Waste periods are anchored on the latest collection (see dashboard/service.py), so these dates
give exactly the spec's figures whatever today is: the week of 12 March 2025 holds
[1.5, 1.2, 1.3] kg, March 2025 [5, 6, 5] kg and 2025 [60, 70, 62] kg.
"""

from __future__ import annotations

from datetime import date

from sqlalchemy import func, select

from ..extensions import db
from ..models import EnergyReading, WasteCollection

STREETS = ("Rizal Street", "Mabini Street", "Bonifacio Street")
WEEK_DAY, MONTH_DAY, YEAR_DAY = date(2025, 3, 12), date(2025, 3, 3), date(2025, 2, 10)
# grams per street: the week, the rest of the month, the rest of the year
WEEK = (1500, 1200, 1300)
REST_OF_MONTH = (3500, 4800, 3700)  # month totals 5, 6, 5 kg
REST_OF_YEAR = (55000, 64000, 57000)  # year totals 60, 70, 62 kg
ENERGY = {2024: (120, 135, 150), 2025: (140, 160, 175)}  # kilowatts, January to March


def sample_data() -> None:
    if (db.session.scalar(select(func.count(WasteCollection.id))) or 0) == 0:
        for day, weights in ((WEEK_DAY, WEEK), (MONTH_DAY, REST_OF_MONTH), (YEAR_DAY, REST_OF_YEAR)):
            for street, grams in zip(STREETS, weights, strict=True):
                db.session.add(WasteCollection(street=street, collected_on=day, weight_g=grams))
    if (db.session.scalar(select(func.count(EnergyReading.id))) or 0) == 0:
        for year, values in ENERGY.items():
            for month, kilowatts in enumerate(values, start=1):
                db.session.add(EnergyReading(month=date(year, month, 1), kilowatts=kilowatts))
    db.session.commit()
