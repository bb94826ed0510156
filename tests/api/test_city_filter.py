"""The City Admin's top-bar filter stays small with many barangays (a paged,
searchable picker instead of every barangay as an <option>), and the city dashboard's whole-city
totals come from a short-lived summary that says when it was counted and follows writes."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import insert, select

from sibol.extensions import db
from sibol.identity import tenancy
from sibol.models import Area, Barangay, Machine, RoleId
from tests.factories import make_account, make_machine
from tests.factories_household import make_member

PICKER = "/city/barangay-filter/choose"


@pytest.fixture
def city(app):
    """40 barangays besides the seeded one (past the <select>'s 30) and a City Admin."""
    db.session.add_all([Barangay(name=f"Sitio {n:02d}") for n in range(1, 41)])
    db.session.commit()
    return make_account(role=RoleId.CITY_ADMIN, username="city.picker")


def barangay_id(name: str) -> int:
    return db.session.scalar(select(Barangay.id).where(Barangay.name == name))


def picked_names(html: str) -> list[str]:
    return [n.strip() for n in re.findall(r'<tr data-barangay-id="\d+">\s*<td[^>]*>([^<]+)', html)]


def test_few_barangays_keep_the_select(client, login, app):
    db.session.add_all([Barangay(name=f"Sitio {n:02d}") for n in range(1, 29)])  # 29 with the seeded one
    db.session.commit()
    login(make_account(role=RoleId.CITY_ADMIN, username="city.few"))
    html = client.get("/city").get_data(as_text=True)
    assert 'id="barangay-filter-select"' in html and "Sitio 28" in html
    assert f'href="{PICKER}' not in html


def test_many_barangays_show_the_choice_and_a_change_link(client, login, city):
    login(city)
    res = client.get("/sibol-machines?q=x")
    html = res.get_data(as_text=True)
    assert 'id="barangay-filter"' in html and "<option" not in html.split('id="barangay-filter"')[1][:600]
    assert "Sitio 17" not in html  # no barangay listed in the top bar
    current = re.search(r'id="barangay-filter-current">([^<]+)<', html)
    assert current and current.group(1) == "All barangays"
    assert f'href="{PICKER}?next=/sibol-machines?q%3Dx"' in html
    # choosing one shows its name in the top bar
    client.post("/city/barangay-filter", data={"barangay_id": barangay_id("Sitio 17")})
    html = client.get("/sibol-machines").get_data(as_text=True)
    assert re.search(r'id="barangay-filter-current">Sitio 17<', html)


def test_picker_searches_and_pages(client, login, city):
    login(city)
    html = client.get(PICKER).get_data(as_text=True)
    first = picked_names(html)
    assert len(first) == 25 and first[0] == "Barangay Fortune" and first[1] == "Sitio 01"
    assert "41 barangays" in html and 'rel="next"' in html
    html = client.get(f"{PICKER}?page=2").get_data(as_text=True)
    assert picked_names(html) == [f"Sitio {n:02d}" for n in range(25, 41)]
    assert 'rel="next"' not in html
    html = client.get(f"{PICKER}?q=itio 3").get_data(as_text=True)
    assert picked_names(html) == [f"Sitio {n:02d}" for n in range(30, 40)]
    assert "10 barangays" in html
    html = client.get(f"{PICKER}?q=nowhere").get_data(as_text=True)
    assert picked_names(html) == [] and "No barangays" in html
    # odd paging falls back; a long q is cut, never a 500
    assert client.get(f"{PICKER}?page=abc&per_page=-3").status_code == 200
    assert client.get(f"{PICKER}?q={'x' * 500}").status_code == 200


def test_picking_sets_the_filter_and_returns_to_the_page(client, login, city):
    login(city)
    html = client.get(f"{PICKER}?next=/sibol-machines?page%3D2&q=Sitio 07").get_data(as_text=True)
    wanted = barangay_id("Sitio 07")
    # each row is a small POST form (CSRF) carrying the barangay and the page to return to
    form = re.search(
        rf'<form method="post" action="/city/barangay-filter">(?:(?!</form>).)*?name="barangay_id" value="{wanted}"',
        html,
        re.S,
    )
    assert form, html
    back = re.search(r'name="next" value="([^"]*)"', form.group(0)).group(1).replace("&amp;", "&")
    assert back == "/sibol-machines?page=2"
    res = client.post("/city/barangay-filter", data={"barangay_id": wanted, "next": back})
    assert res.status_code == 302 and res.headers["Location"] == "/sibol-machines?page=2"
    with client.session_transaction() as sess:
        assert sess[tenancy.FILTER_KEY] == wanted
    html = client.get(f"{PICKER}?q=Sitio 07").get_data(as_text=True)
    assert "(shown now)" in html
    # "All barangays" clears the choice
    assert 'id="pick-all"' in html
    client.post("/city/barangay-filter", data={"barangay_id": "", "next": "/city"})
    with client.session_transaction() as sess:
        assert tenancy.FILTER_KEY not in sess


@pytest.mark.parametrize(
    "target", ["https://evil.example/x", "//evil.example/x", "/\\evil.example", "javascript:x"]
)
def test_picker_and_filter_only_return_within_the_site(client, login, city, target):
    login(city)
    html = client.get(PICKER, query_string={"next": target}).get_data(as_text=True)
    main = html.split("<main", 1)[1]  # (the top bar's own "Change" link names this page, as a path)
    assert "evil.example" not in main and "javascript:" not in main
    assert '<a href="/city">&lsaquo;' in main and 'name="next" value="/city"' in main
    assert main.count('name="next" value="/city"') >= 2  # the search form and each row's button
    res = client.post("/city/barangay-filter", data={"barangay_id": barangay_id("Sitio 02"), "next": target})
    assert res.status_code == 302 and res.headers["Location"] == "/city"


def test_picking_a_barangay_that_does_not_exist_is_404(client, login, city):
    login(city)
    assert client.post("/city/barangay-filter", data={"barangay_id": "987654"}).status_code == 404
    assert client.post("/city/barangay-filter", data={"barangay_id": "12x"}).status_code == 404
    # a link (GET) cannot choose: another site must not decide where new records go
    assert client.get("/city/barangay-filter?barangay_id=1").status_code == 405
    with client.session_transaction() as sess:
        assert tenancy.FILTER_KEY not in sess


def test_only_the_city_admin_gets_the_picker(client, login, city):
    login(make_account(role=RoleId.ADMIN, username="admin.only"))
    assert client.get(PICKER).status_code == 403


# The city-wide totals' summary ---------------------------------------------------------------


def live_machines() -> int:
    with tenancy.unscoped():
        return db.session.query(Machine).count()


def test_city_totals_follow_writes_and_say_when_they_were_counted(client, login, api_headers, city):
    make_machine("Alpha")
    admin = make_account(role=RoleId.ADMIN, username="admin.writer")
    h = api_headers(city)
    body = client.get("/api/city/dashboard", headers=h).json
    assert body["city"]["machines"] == 1 and re.fullmatch(
        r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", body["city"]["asOf"]
    )
    # a write through the API: the next answer counts it
    area = db.session.scalar(select(Area.id).where(Area.name == "Purok 1"))
    assert client.post("/api/machines", json={"areaId": area}, headers=api_headers(admin)).status_code == 201
    body = client.get("/api/city/dashboard", headers=h).json
    assert body["city"]["machines"] == live_machines() == 2
    # households and points, then a deletion
    member = make_member("Reyes", points=70)
    assert client.get("/api/city/dashboard", headers=h).json["city"]["points"] == 70
    db.session.delete(member)
    db.session.commit()
    city_now = client.get("/api/city/dashboard", headers=h).json["city"]
    assert city_now["households"] == 0 and city_now["points"] == 0
    login(city)
    html = client.get("/city").get_data(as_text=True)
    assert 'data-total="machines">2<' in html and "As of " in html and 'id="city-totals-as-of"' in html


def test_another_process_writes_show_within_the_time_limit(client, api_headers, city, app):
    h = api_headers(city)
    first = client.get("/api/city/dashboard", headers=h).json["city"]
    area = db.session.scalar(select(Area.id).where(Area.name == "Purok 1"))
    barangay = db.session.scalar(select(Barangay.id).order_by(Barangay.id))
    with db.engine.begin() as conn:  # like a second worker or a CLI import: not this process's session
        conn.execute(insert(Machine.__table__).values(name="Elsewhere", area_id=area, barangay_id=barangay))
    db.session.commit()  # end the test's own read snapshot (MariaDB's repeatable read); nothing to write
    kept = client.get("/api/city/dashboard", headers=h).json["city"]
    assert kept == first  # the same count, and it says when it was made
    app.config["SIBOL_CITY_TOTALS_SECONDS"] = 0
    fresh = client.get("/api/city/dashboard", headers=h).json["city"]
    assert fresh["machines"] == first["machines"] + 1 == live_machines()
    assert fresh["asOf"] >= first["asOf"]
