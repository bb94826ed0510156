"""The public barangay page, its poster, the city's page and the JSON: figures worked out by hand
from seeded data, no name without consent, size and caching, slugs and their redirects."""

from __future__ import annotations

import gzip
import re

import pytest
from sqlalchemy import select

from sibol.extensions import db
from sibol.i18n import localtime
from sibol.identity import tenancy
from sibol.models import (
    Barangay,
    CollectionArea,
    CollectionSchedule,
    EnergyReading,
    MemberCollection,
    RoleId,
    WasteCollection,
)
from sibol.public import slugs
from tests.factories import make_account
from tests.factories_admin import session_client
from tests.factories_household import make_member

pytestmark = pytest.mark.usefixtures("fresh_identity")


@pytest.fixture
def barangay(app):
    """The first barangay, renamed with odd characters, with this month's figures: 40 kg on Rizal
    Street and 12 kg on Mabini Street, 300 kWh typed, two households credited (one agreed to its
    name appearing), and a collection scheduled next week."""
    today = localtime.today()
    first = db.session.scalar(select(Barangay).order_by(Barangay.id))
    first.name, first.slug, first.collection_window = "Sto. Niño", None, "6-8 AM"
    db.session.add_all(
        [
            WasteCollection(street="Rizal Street", collected_on=today, weight_g=40_000),
            WasteCollection(street="Mabini Street", collected_on=today, weight_g=12_000),
            EnergyReading(month=today.replace(day=1), kilowatts=300),
        ]
    )
    shown = make_member("Rosa Shown", points=500, barangay="Mabini Street")
    hidden = make_member("Pedro Hidden", points=900, barangay="Rizal Street")
    make_member("Lea Rizal", points=10, barangay="Rizal Street")
    shown.public_name = True
    for member in (shown, hidden):
        db.session.add(MemberCollection(member_id=member.id, collected_on=today, waste_g=2_000, points=20))
    schedule = CollectionSchedule(
        maintenance_person="Jun Collector",
        collector_contact="09171234567",
        collection_date=today.replace(day=1) if False else today,
    )
    schedule.areas = [CollectionArea(name="Purok Uno", position=0)]
    db.session.add(schedule)
    db.session.commit()
    return first


def test_default_slugs_follow_the_names_and_a_clash_gets_a_number(app, barangay):
    assert slugs.slugify("Barangay Concepcion Uno") == "barangay-concepcion-uno"
    assert slugs.slugify("Sto. Niño") == "sto-nino"
    with tenancy.unscoped():
        db.session.add(Barangay(name="Sto Niño!", is_active=True))
        db.session.commit()
    slugs.ensure_slugs()
    found = sorted(db.session.scalars(select(Barangay.slug).where(Barangay.name.like("Sto%"))))
    assert found == ["sto-nino", "sto-nino-2"]


def test_the_page_shows_the_hand_computed_figures_and_names_only_with_consent(client, barangay):
    res = client.get("/b/sto-nino?lang=en")
    html = res.get_data(as_text=True)
    assert res.status_code == 200 and "<h1>Sto. Niño</h1>" in html
    # 52 kg; 300 kWh; 52 x 0.03 x 28 + 300 x 0.7122 = 43.68 + 213.66 = 257.34 kg CO2e; 2 households
    assert html.count('data-figure="waste">52 kg<') == 2  # this month and this year
    assert html.count('data-figure="energy">300 kWh<') == 2
    assert html.count('data-figure="co2e">257.3 kg<') == 2
    assert 'data-figure="households">2<' in html
    # Rizal: 40 kg for its 2 households = 20 kg each; Mabini: 12 kg for 1 = 12 kg each
    assert (
        "<li>Rizal Street: 20 kg per household (40 kg, 2)</li><li>Mabini Street: 12 kg per household (12 kg, 1)</li>"
        in html
    )
    assert "Purok Uno" in html and "Jun Collector" in html and 'data-label="Time">6-8 AM</td>' in html
    assert "Rosa Shown" in html and "Pedro Hidden" not in html and "A household (name not shown)" in html
    assert "<script" not in html


def test_filipino_by_accept_language_and_by_choice(client, barangay):
    html = client.get("/b/sto-nino", headers={"Accept-Language": "fil"}).get_data(as_text=True)
    assert 'lang="fil"' in html and "Susunod na koleksyon" in html
    assert "Susunod na koleksyon" in client.get("/b/sto-nino?lang=fil").get_data(as_text=True)


def test_size_and_caching(client, barangay):
    res = client.get("/b/sto-nino?lang=en")
    assert len(gzip.compress(res.data)) <= 20_000 and len(res.data) <= 20_000
    assert res.headers["Cache-Control"] == "public, max-age=300" and "Set-Cookie" not in res.headers
    etag = res.headers["ETag"]
    again = client.get("/b/sto-nino?lang=en", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    # a new collection changes the figures, hence the ETag
    db.session.add(WasteCollection(street="Rizal Street", collected_on=localtime.today(), weight_g=1_000))
    db.session.commit()
    changed = client.get("/b/sto-nino?lang=en", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and 'data-figure="waste">53 kg<' in changed.get_data(as_text=True)


def test_json_has_the_same_figures_cors_open_and_404(client, barangay):
    res = client.get("/api/public/barangays/sto-nino")
    assert res.status_code == 200 and res.headers["Access-Control-Allow-Origin"] == "*"
    body = res.json
    assert body["month"]["wasteKg"] == 52 and body["month"]["energyKwh"] == 300
    assert body["month"]["co2eKg"] == 257.3 and body["month"]["households"] == 2
    assert [h["name"] for h in body["households"]] == [None, "Rosa Shown", None]
    assert body["areas"][0] == {"area": "Rizal Street", "wasteKg": 40, "households": 2, "kgPerHousehold": 20}
    missing = client.get("/api/public/barangays/no-such-place")
    assert missing.status_code == 404 and missing.json["field"] == "slug"
    assert client.get("/b/no-such-place").status_code == 404
    assert client.post("/api/public/barangays/sto-nino").status_code in (405, 403)


def test_the_city_page_lists_each_barangay(client, barangay):
    html = client.get("/city/public?lang=en").get_data(as_text=True)
    assert (
        '<a href="/b/sto-nino">Sto. Niño</a></td><td data-label="Food waste collected (kg)">52</td>' in html
    )
    assert re.search(
        r'>52</td><td[^>]*>300</td><td[^>]*>257.3</td><td data-label="Households taking part">2</td>', html
    )


def test_poster_has_the_qr_code_and_address(client, barangay):
    html = client.get("/b/sto-nino/poster?lang=en").get_data(as_text=True)
    assert "<svg" in html and "http://localhost/b/sto-nino" in html and "size:A4" in html


def test_admin_changes_the_slug_and_the_old_one_redirects(app, client, barangay):
    admin = session_client(app, make_account(role=RoleId.ADMIN, barangay_id=barangay.id))
    page = admin.get("/public-page").get_data(as_text=True)
    assert "/b/sto-nino" in page and 'id="poster-link"' in page
    for bad in ("Sto Niño", "a", "x--y", "-abc", "api"):
        res = admin.post("/public-page", data={"slug": bad})
        assert res.status_code == 400 and 'id="slug-error"' in res.get_data(as_text=True)
    with tenancy.unscoped():
        db.session.add(Barangay(name="Barangay Taken", is_active=True))
        db.session.commit()
    slugs.ensure_slugs()
    clash = admin.post("/public-page", data={"slug": "barangay-taken"})
    assert clash.status_code == 400 and "already uses" in clash.get_data(as_text=True)
    assert db.session.get(Barangay, barangay.id).slug == "sto-nino"  # nothing half-saved
    assert admin.post("/public-page", data={"slug": "santo-nino"}).status_code == 302
    old = client.get("/b/sto-nino?lang=en")
    assert old.status_code == 301 and old.headers["Location"].endswith("/b/santo-nino?lang=en")
    assert client.get("/b/santo-nino").status_code == 200
    staff = session_client(app, make_account(role=RoleId.STAFF, barangay_id=barangay.id))
    assert staff.post("/public-page", data={"slug": "mine"}).status_code == 403


def test_household_opts_in_on_my_household(app, barangay):
    account = make_account(role=RoleId.HOUSEHOLD)
    member = make_member("Lito Optin", points=9999)
    member.account_id = account.id
    db.session.commit()
    me = session_client(app, account)
    client = app.test_client()
    assert "Lito Optin" not in client.get("/b/sto-nino").get_data(as_text=True)
    assert me.post("/household/my/public-name", data={"publicName": "on"}).status_code == 302
    assert "Lito Optin" in client.get("/b/sto-nino").get_data(as_text=True)
    assert me.post("/household/my/public-name", data={}).status_code == 302
    assert "Lito Optin" not in client.get("/b/sto-nino").get_data(as_text=True)


def test_the_json_is_rate_limited_per_address(client, barangay):
    for _n in range(60):
        assert client.get("/api/public/barangays/sto-nino").status_code in (200, 304)
    res = client.get("/api/public/barangays/sto-nino")
    assert res.status_code == 429
