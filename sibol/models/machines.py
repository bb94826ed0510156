"""Tables of the machines feature: the machine search index, chemical additives, waste containers.

Machine, Area and MachineStatus live in models/core.py. Search over 120,305 machines needs an
index a B-tree can use, so every machine has "terms": its lowercased name from each word on
("sibol machine 12", "machine 12", "12"). A prefix query on the term index finds machines whose
name has a word starting with the query, on SQLite and MariaDB alike. The terms are kept in step
with the machines by an after_flush hook, whoever writes the machine through the ORM.
"""

from __future__ import annotations

from datetime import date, datetime, time
from typing import cast

from sqlalchemy import Date, DateTime, ForeignKey, Index, SmallInteger, String, Table, Time, event, inspect
from sqlalchemy.orm import Mapped, Session, mapped_column

from ..extensions import Model
from .core import Machine, TenantOwned, utcnow

__all__ = [
    "CONTAINER_STATUSES",
    "PACKAGES",
    "ChemicalAdditive",
    "MachineTerm",
    "WasteContainer",
    "machine_terms",
]

# The add forms of the non-machine tabs offer these areas (spec section 9).
PACKAGES = ("Package 1", "Package 2", "Package 3", "Package 4")
CONTAINER_STATUSES = ("Full", "Not Full")
TERM_LENGTH = 100  # Machine.name is String(100); a term is a suffix of it


class MachineTerm(TenantOwned, Model):
    """One searchable suffix of a machine's lowercased name (starting at a word).

    `shared` is the longest prefix this term shares with an earlier term of the same machine, so
    among a machine's terms that start with a query q exactly one has shared < len(q): counting
    matches is then a covering index range scan, with no DISTINCT (see machine_terms()).
    """

    __tablename__ = "machine_terms"
    term: Mapped[str] = mapped_column(String(TERM_LENGTH), primary_key=True)
    machine_id: Mapped[int] = mapped_column(
        ForeignKey("machines.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    shared: Mapped[int] = mapped_column(SmallInteger, default=0)

    __table_args__ = (
        Index("ix_machine_terms_term_shared", "term", "shared", "machine_id"),
        Index("ix_machine_terms_barangay_term", "barangay_id", "term", "shared", "machine_id"),
    )


class ChemicalAdditive(TenantOwned, Model):
    __tablename__ = "chemical_additives"
    id: Mapped[int] = mapped_column(primary_key=True)
    machine_id: Mapped[int] = mapped_column(ForeignKey("machines.id", ondelete="CASCADE"))
    chemical_input: Mapped[str] = mapped_column(String(100))
    stage: Mapped[str] = mapped_column(String(50), default="")
    value: Mapped[str] = mapped_column(String(20), default="")
    units: Mapped[str] = mapped_column(String(20), default="")
    area: Mapped[str] = mapped_column(String(20), default="")  # Package 1..4 from the add form
    added_on: Mapped[date] = mapped_column(Date)
    added_at: Mapped[time] = mapped_column(Time)
    person_in_charge: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)

    __table_args__ = (Index("ix_chemical_additives_machine_date", "machine_id", "added_on", "id"),)


class WasteContainer(TenantOwned, Model):
    __tablename__ = "waste_containers"
    id: Mapped[int] = mapped_column(primary_key=True)
    machine_id: Mapped[int] = mapped_column(ForeignKey("machines.id", ondelete="CASCADE"))
    container_no: Mapped[str] = mapped_column(String(20))
    area: Mapped[str] = mapped_column(String(20))
    status: Mapped[str] = mapped_column(String(10), default="Not Full")  # Full / Not Full
    start_date: Mapped[date] = mapped_column(Date)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)

    __table_args__ = (Index("ix_waste_containers_machine_id_id", "machine_id", "id"),)


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def machine_terms(name: str) -> list[tuple[str, int]]:
    """(term, shared) for the lowercased name from each word on: 'SIBOL Machine 12' gives
    'sibol machine 12', 'machine 12' and '12'. `shared` is the longest common prefix with an
    earlier term: if a query q starts two terms, the later one shares at least len(q)."""
    words = name.lower().split()
    terms: list[tuple[str, int]] = []
    for i in range(len(words)):
        term = " ".join(words[i:])[:TERM_LENGTH]
        if any(term == t for t, _ in terms):
            continue
        shared = max((_common_prefix(term, t) for t, _ in terms), default=0)
        terms.append((term, shared))
    return terms


@event.listens_for(Session, "after_flush")
def _index_machine_names(session: Session, _context) -> None:
    """Keep machine_terms in step with every machine added or renamed through the ORM.

    In after_flush the ids exist and session.new/dirty and the attribute history still describe
    the flush, so the terms are written in the same transaction as the machine.
    """
    changed = [m for m in session.new if isinstance(m, Machine)]
    changed += [
        m for m in session.dirty if isinstance(m, Machine) and inspect(m).attrs.name.history.has_changes()
    ]
    changed = [m for m in changed if m.id is not None]
    if not changed:
        return
    table = cast(Table, MachineTerm.__table__)
    connection = session.connection()
    connection.execute(table.delete().where(table.c.machine_id.in_([m.id for m in changed])))
    rows = [
        {"term": t, "machine_id": m.id, "shared": shared, "barangay_id": m.barangay_id}
        for m in changed
        for t, shared in machine_terms(m.name or "")
    ]
    if rows:
        connection.execute(table.insert(), rows)
