"""The household screens' sample rows (spec section 2), written once into empty tables."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from ..extensions import db
from ..i18n.localtime import today as local_today
from ..models import CollectionArea, CollectionSchedule, HouseholdMember, PointRule, Reward

# (maintenance person, contact, areas, days from the first seeding, status, total waste in grams)
SCHEDULES = (
    ("Juan Dela Cruz", "0917 123 4567", ("Package 1",), 1, "Pending", None),
    ("Maria Santos", "maria.santos@barangay.local", ("Package 2",), 3, "Pending", None),
    ("Pedro Reyes", "0918 765 4321", ("Package 3",), 5, "Pending", None),
    ("Ana Villanueva", "0920 555 0101", ("Package 4", "Purok 1"), -2, "Collected", 12_500),
    ("Jose Garcia", "jose.garcia@barangay.local", ("Purok 2",), -6, "Collected", 8_750),
)
MEMBERS = (
    ("Rosa Mendoza", "Barangay Fortune", 1250, True),
    ("Carlos Bautista", "Barangay Fortune", 980, True),
    ("Liza Fernandez", "Barangay Malanday", 860, True),
    ("Ramon Aquino", "Barangay Parang", 640, False),
    ("Teresa Cruz", "Barangay Fortune", 520, True),
    ("Miguel Torres", "Barangay Nangka", 310, False),
)
REWARDS = (
    ("Rice (5 kg)", "All areas", 500, "Available"),
    ("Reusable tote bag", "Purok 1", 150, "Available"),
    ("Grocery voucher (PHP 200)", "All areas", 800, "Not Available"),
)


def _empty(model) -> bool:
    return (db.session.scalar(select(func.count()).select_from(model)) or 0) == 0


def sample_data() -> None:
    if _empty(CollectionSchedule):
        today = local_today()
        for person, contact, areas, days, status, grams in SCHEDULES:
            schedule = CollectionSchedule(
                maintenance_person=person,
                collector_contact=contact,
                status=status,
                collection_date=today + timedelta(days=days),
                total_waste_g=grams,
                areas=[CollectionArea(name=a, position=i) for i, a in enumerate(areas)],
            )
            db.session.add(schedule)
    if _empty(HouseholdMember):
        for name, barangay, points, active in MEMBERS:
            db.session.add(HouseholdMember(name=name, barangay=barangay, points=points, is_active=active))
    if _empty(Reward):
        for name, area, points, status in REWARDS:
            db.session.add(Reward(name=name, area=area, points_required=points, status=status))
    if _empty(PointRule):
        db.session.add(PointRule(waste_g=1000, points=30))
    db.session.commit()
