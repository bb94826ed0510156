"""Tables of the household and dashboard features: collections, leaderboard, rewards, figures.

Weights are whole grams (integers) so sums are exact on every database; pages show kilograms.
"""

from __future__ import annotations

import enum
from datetime import date, datetime

from sqlalchemy import Boolean, Date, DateTime, ForeignKey, Index, Integer, String, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import Model
from .core import TenantOwned, utcnow

__all__ = [
    "CollectionArea",
    "CollectionSchedule",
    "CollectionStatus",
    "OPEN_COLLECTION_STATUSES",
    "EnergyReading",
    "HouseholdMember",
    "PointRule",
    "PointRuleChange",
    "Reward",
    "RewardClaim",
    "RewardStatus",
    "WasteCollection",
]


class CollectionStatus(enum.StrEnum):
    # The spec's client numbers them (sched_stat_id): 1 Collecting, 2 Pending, 3 Collected,
    # 4 Cancelled (sibol/household/client_schedules.py).
    PENDING = "Pending"
    COLLECTING = "Collecting"
    COLLECTED = "Collected"
    CANCELLED = "Cancelled"


# A collection still to happen (or happening): what the dashboard and "My household" look ahead to.
OPEN_COLLECTION_STATUSES = (CollectionStatus.PENDING, CollectionStatus.COLLECTING)


class RewardStatus(enum.StrEnum):
    AVAILABLE = "Available"
    NOT_AVAILABLE = "Not Available"


class CollectionSchedule(TenantOwned, Model):
    """A household waste collection: who collects, where (one or more areas), when, how much."""

    __tablename__ = "collection_schedules"
    id: Mapped[int] = mapped_column(primary_key=True)
    maintenance_person: Mapped[str] = mapped_column(String(100))
    # The collector's account when one was chosen (the spec's client picks an operator); the
    # name above is what the schedule shows either way.
    collector_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), index=True
    )
    collector_contact: Mapped[str] = mapped_column(String(254))
    collection_date: Mapped[date] = mapped_column(Date, index=True)
    status: Mapped[str] = mapped_column(String(20), default=CollectionStatus.PENDING, index=True)
    total_waste_g: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow)

    areas: Mapped[list[CollectionArea]] = relationship(
        back_populates="schedule",
        cascade="all, delete-orphan",
        order_by="CollectionArea.position",
        lazy="selectin",
    )

    @property
    def area_names(self) -> list[str]:
        return [a.name for a in self.areas]


class CollectionArea(TenantOwned, Model):
    """One area chip of a collection schedule, in the order it was entered."""

    __tablename__ = "collection_areas"
    id: Mapped[int] = mapped_column(primary_key=True)
    schedule_id: Mapped[int] = mapped_column(
        ForeignKey("collection_schedules.id", ondelete="CASCADE"), index=True
    )
    position: Mapped[int] = mapped_column(Integer, default=0)
    name: Mapped[str] = mapped_column(String(100), index=True)

    schedule: Mapped[CollectionSchedule] = relationship(back_populates="areas")


class HouseholdMember(TenantOwned, Model):
    """A household on the leaderboard, ranked by points."""

    __tablename__ = "household_members"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), index=True)
    barangay: Mapped[str] = mapped_column(String(100), default="")
    # The area (purok, street) the household is collected in: the collection day page lists the
    # households of each scheduled area together. Empty when not known.
    area: Mapped[str] = mapped_column(String(100), default="", server_default="")
    points: Mapped[int] = mapped_column(Integer, default=0, index=True)
    is_active: Mapped[bool] = mapped_column(Boolean, default=True)
    # The Household account that sees this member as "My household" (one each).
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), index=True, unique=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    # The household agreed to its name appearing on the barangay's public page.
    public_name: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    __table_args__ = (Index("ix_household_members_barangay_points", "barangay_id", "points"),)


class Reward(TenantOwned, Model):
    __tablename__ = "rewards"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120), index=True)
    area: Mapped[str] = mapped_column(String(100), default="")
    points_required: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(20), default=RewardStatus.AVAILABLE, index=True)
    # Random file name under SIBOL_UPLOAD_DIR/rewards/, served by a route (never from /static).
    image_file: Mapped[str | None] = mapped_column(String(80))
    image_type: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class RewardClaim(TenantOwned, Model):
    __tablename__ = "reward_claims"
    # An undone claim's row is deleted: SQLite must not hand its id to the next claim, so that
    # nothing that named the old claim (an undo offer, a link) can reach the new one.
    __table_args__ = {"sqlite_autoincrement": True}
    id: Mapped[int] = mapped_column(primary_key=True)
    reward_id: Mapped[int] = mapped_column(ForeignKey("rewards.id", ondelete="CASCADE"), index=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("household_members.id", ondelete="CASCADE"), index=True)
    points_spent: Mapped[int] = mapped_column(Integer, default=0)
    claimed_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, index=True)
    # A resident's claim reserves points (open) until staff redeem or someone cancels
    # it; claims staff make for a member are redeemed at once. code: shown and in the QR image.
    code: Mapped[str | None] = mapped_column(String(16), unique=True)
    state: Mapped[str] = mapped_column(String(12), default="redeemed", server_default="redeemed", index=True)
    redeemed_at: Mapped[datetime | None] = mapped_column(DateTime)
    redeemed_by_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"))
    cancelled_at: Mapped[datetime | None] = mapped_column(DateTime)

    reward: Mapped[Reward] = relationship(lazy="joined")
    member: Mapped[HouseholdMember] = relationship(lazy="joined")


class PointRule(TenantOwned, Model):
    """The point system's equivalence: waste_g grams of food waste earn `points` points (one row)."""

    __tablename__ = "point_rules"
    id: Mapped[int] = mapped_column(primary_key=True)
    waste_g: Mapped[int] = mapped_column(Integer, default=1000)
    points: Mapped[int] = mapped_column(Integer, default=30)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow)
    updated_by_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"))


class PointRuleChange(TenantOwned, Model):
    """The point system from `valid_from` on (UTC): a credit entered later for a collection made
    earlier (an entry made offline) earns by the rule of the moment it was made."""

    __tablename__ = "point_rule_changes"
    id: Mapped[int] = mapped_column(primary_key=True)
    valid_from: Mapped[datetime] = mapped_column(DateTime)
    waste_g: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer)

    __table_args__ = (Index("ix_point_rule_changes_barangay_valid_from", "barangay_id", "valid_from"),)


class WasteCollection(TenantOwned, Model):
    """Food waste collected on one street on one day: the dashboard's doughnut sums these."""

    __tablename__ = "waste_collections"
    id: Mapped[int] = mapped_column(primary_key=True)
    street: Mapped[str] = mapped_column(String(100), index=True)
    collected_on: Mapped[date] = mapped_column(Date, index=True)
    weight_g: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)

    __table_args__ = (Index("ix_waste_collections_barangay_date", "barangay_id", "collected_on"),)


class EnergyReading(TenantOwned, Model):
    """Energy produced in one month (the first day of the month names it), in kilowatts."""

    __tablename__ = "energy_readings"
    id: Mapped[int] = mapped_column(primary_key=True)
    month: Mapped[date] = mapped_column(Date)
    kilowatts: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)

    __table_args__ = (UniqueConstraint("barangay_id", "month", name="uq_energy_readings_barangay_id_month"),)
