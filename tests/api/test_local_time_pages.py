"""one time zone (SIBOL_TIMEZONE, Asia/Manila by default) for every date and
time people read; the Stage field; the greeting."""

from __future__ import annotations

import re
from datetime import date, datetime, time

import pytest
from sqlalchemy import select

from sibol.extensions import db
from sibol.models import Account, AccountStatus, RoleId
from sibol.models.household import RewardClaim
from sibol.models.machines import ChemicalAdditive
from tests.factories import make_account, make_machine
from tests.factories_household import make_member, make_reward
from tests.factories_machines import make_additive

# 16:30 UTC on Nov 22 is 00:30 on Nov 23 in Manila (UTC+8).
NEAR_MIDNIGHT = datetime(2026, 11, 22, 16, 30)


@pytest.fixture
def admin(app):
    return make_account(role=RoleId.ADMIN, first_name="Ana")


def text(client, url: str) -> str:
    res = client.get(url)
    assert res.status_code == 200, url
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", res.get_data(as_text=True)))


def test_chemical_additive_time_is_shown_in_manila(client, admin_client):
    machine = make_machine("Digester A")
    make_additive(machine, added_on=date(2026, 11, 23), added_at=time(16, 30), created_at=NEAR_MIDNIGHT)
    page = text(client, f"/sibol-machines?machine={machine.id}")
    assert "Nov 23, 2026 12:30 AM" in page
    assert "16:30" not in page


def test_claim_date_is_the_manila_day(client, admin_client):
    member = make_member("Dela Cruz", points=500)
    reward = make_reward("Rice 5 kg", points=100)
    db.session.add(
        RewardClaim(reward_id=reward.id, member_id=member.id, points_spent=100, claimed_at=NEAR_MIDNIGHT)
    )
    db.session.commit()
    page = text(client, "/household?tab=claimed")
    assert "Rice 5 kg" in page and "Nov 23, 2026" in page and "Nov 22, 2026" not in page


def test_account_created_date_is_the_manila_day_and_the_zone_is_configurable(app, client, admin_client):
    other = make_account(username="nightowl", status=AccountStatus.PENDING)
    other.created_at = NEAR_MIDNIGHT
    db.session.commit()
    row = re.search(r"nightowl.*?(Nov \d+, 2026)", text(client, "/admin?tab=approval"))
    assert row and row.group(1) == "Nov 23, 2026"
    app.config["SIBOL_TIMEZONE"] = "UTC"
    row = re.search(r"nightowl.*?(Nov \d+, 2026)", text(client, "/admin?tab=approval"))
    assert row and row.group(1) == "Nov 22, 2026"
    app.config["SIBOL_TIMEZONE"] = "Not/AZone"  # a wrong name falls back to Manila, never a 500
    row = re.search(r"nightowl.*?(Nov \d+, 2026)", text(client, "/admin?tab=approval"))
    assert row and row.group(1) == "Nov 23, 2026"


def test_stage_field_round_trip(client, admin_client):
    machine = make_machine("Digester B")
    html = client.get(f"/sibol-machines?machine={machine.id}&add=1").get_data(as_text=True)
    assert 'name="stage"' in html and '<label for="add-stage">Stage' in html
    res = client.post(
        "/sibol-machines/chemical-additives",
        data={
            "machine": machine.id,
            "area": "Package 1",
            "startDate": "2026-11-20",
            "chemicalInput": "Lime",
            "stage": "Slurry Making",
            "value": "2",
            "units": "kg",
        },
        headers={"X-CSRFToken": ""},
    )
    assert res.status_code == 302
    row = db.session.scalar(select(ChemicalAdditive).where(ChemicalAdditive.machine_id == machine.id))
    assert (row.stage, row.area) == ("Slurry Making", "Package 1")
    page = text(client, f"/sibol-machines?machine={machine.id}")
    assert "Lime Slurry Making 2 kg Nov 20, 2026" in page
    assert "Lime Package 1" not in page  # the area is not put in the Stage column


def test_stage_left_empty_is_not_the_area(client, admin_client):
    machine = make_machine("Digester C")
    client.post(
        "/sibol-machines/chemical-additives",
        data={"machine": machine.id, "area": "Package 2", "startDate": "2026-11-20", "chemicalInput": "Urea"},
    )
    row = db.session.scalar(select(ChemicalAdditive).where(ChemicalAdditive.machine_id == machine.id))
    assert row.stage == "" and row.area == "Package 2"


def test_greeting_for_the_system_administrator_names_no_barangay(client, login):
    account = make_account(role=RoleId.ADMIN, first_name="System", last_name="Administrator")
    login(account)
    page = text(client, "/dashboard")
    assert "Welcome, System Administrator" in page
    assert "Barangay Fortune, System" not in page


def test_greeting_uses_the_accounts_own_barangay(client, login):
    from sibol.models import Barangay

    parang = Barangay(name="Barangay Parang")  # Seeding makes only the first barangay
    db.session.add(parang)
    db.session.commit()
    login(make_account(role=RoleId.HOUSEHOLD, first_name="Nena", barangay_id=parang.id))
    assert "Welcome to Barangay Parang, Nena" in text(client, "/dashboard")
    assert db.session.scalar(select(Account).where(Account.first_name == "Nena")).barangay_id == parang.id
