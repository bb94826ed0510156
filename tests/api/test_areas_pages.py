"""/admin/areas without JavaScript: the barangay's areas with their machines, the add, rename,
retire and restore forms, field errors next to the field they are about, and the machines page
that offers only open areas to new work."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from sibol.extensions import db
from sibol.models import Area, Barangay, RoleId
from tests.factories import make_account, make_machine
from tests.support.html import page

pytestmark = pytest.mark.usefixtures("fresh_identity")


@pytest.fixture
def admin(app):
    return make_account(role=RoleId.ADMIN, username="areas.boss")


def area_id(name: str) -> int:
    return db.session.scalar(select(Area.id).where(Area.name == name))


def area_names(html: str) -> dict[str, str]:
    """name shown in each row's rename box -> "Active" or "Retired"."""
    body = html.split('id="areas-table"', 1)[1].split("</tbody>", 1)[0]
    shown = {}
    for row in body.split("<tr")[1:]:
        name = re.search(r'name="name"[^>]*value="([^"]*)"', row)
        if name:
            shown[name.group(1)] = "Retired" if "data-retired" in row.split(">", 1)[0] else "Active"
    return shown


def field_error(html: str, field_id: str) -> str:
    found = re.search(rf'<p class="field__error" id="{field_id}-error"[^>]*>([^<]*)</p>', html)
    return found.group(1).strip() if found else ""


def test_the_admin_page_has_an_areas_tab_listing_areas_and_their_machines(client, admin_client):
    make_machine("One", area="Purok 2")
    make_machine("Two", area="Purok 2")
    assert 'id="tab-areas"' in page(client, "/admin")
    html = page(client, "/admin/areas")
    assert 'id="tab-areas" aria-current="page"' in html
    assert area_names(html) == {f"Purok {n}": "Active" for n in range(1, 6)}
    row = html.split(f'data-area-id="{area_id("Purok 2")}"', 1)[1].split("</tr>", 1)[0]
    assert re.search(r"<td[^>]*>2</td>", row)  # its two machines


def test_add_rename_retire_and_restore_with_plain_forms(client, admin_client):
    res = client.post("/admin/areas", data={"name": " Purok  Bago "})
    assert res.status_code == 302 and res.headers["Location"].endswith("/admin/areas")
    html = page(client, "/admin/areas")
    assert "Area Purok Bago added." in html and "Purok Bago" in area_names(html)
    new = area_id("Purok Bago")
    assert client.post(f"/admin/areas/{new}", data={"name": "Purok Sentro"}).status_code == 302
    html = page(client, "/admin/areas")
    assert "Purok Sentro" in area_names(html) and "Purok Bago" not in area_names(html)
    assert client.post(f"/admin/areas/{new}/retired", data={"retired": "1"}).status_code == 302
    html = page(client, "/admin/areas")
    assert (
        area_names(html)["Purok Sentro"] == "Retired" and "new machines and schedules cannot use it" in html
    )
    assert client.post(f"/admin/areas/{new}/retired", data={"retired": "0"}).status_code == 302
    assert area_names(page(client, "/admin/areas"))["Purok Sentro"] == "Active"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "Area name is required."),
        ("x" * 101, "Area name must be at most 100 characters."),
        ("purok 3", "An area named purok 3 already exists."),
    ],
)
def test_a_bad_new_name_is_shown_next_to_the_add_field(client, admin_client, name, message):
    res = client.post("/admin/areas", data={"name": name})
    assert res.status_code == 400
    html = res.get_data(as_text=True)
    assert field_error(html, "area-new") == message
    assert 'id="area-new"' in html and 'aria-invalid="true"' in html.split('id="area-new"', 1)[1][:400]
    assert len(area_names(html)) == 5  # nothing added


def test_a_bad_rename_is_shown_next_to_that_areas_field(client, admin_client):
    purok1 = area_id("Purok 1")
    res = client.post(f"/admin/areas/{purok1}", data={"name": "Purok 2"})
    assert res.status_code == 400
    html = res.get_data(as_text=True)
    assert field_error(html, f"area-{purok1}") == "An area named Purok 2 already exists."
    assert field_error(html, "area-new") == "" and field_error(html, f"area-{area_id('Purok 2')}") == ""
    db.session.expire_all()
    assert db.session.get(Area, purok1).name == "Purok 1"


def test_staff_cannot_open_or_post_the_areas_page(client, login):
    login(make_account(role=RoleId.STAFF))
    assert client.get("/admin/areas").status_code == 403
    assert client.post("/admin/areas", data={"name": "Purok 9"}).status_code == 403
    assert client.post(f"/admin/areas/{area_id('Purok 1')}/retired", data={"retired": "1"}).status_code == 403
    assert area_id("Purok 9") is None and db.session.get(Area, area_id("Purok 1")).retired_at is None


def test_another_barangays_area_is_404_on_the_pages(client, admin_client):
    b = Barangay(name="Barangay Dos")
    db.session.add(b)
    db.session.commit()
    db.session.add(Area(name="Dos Purok", barangay_id=b.id))
    db.session.commit()
    other = area_id("Dos Purok")
    assert "Dos Purok" not in page(client, "/admin/areas")
    assert client.post(f"/admin/areas/{other}", data={"name": "Mine"}).status_code == 404
    assert client.post(f"/admin/areas/{other}/retired", data={"retired": "1"}).status_code == 404
    db.session.expire_all()
    assert db.session.get(Area, other).name == "Dos Purok" and db.session.get(Area, other).retired_at is None


def test_the_city_admin_must_choose_a_barangay_to_add_one(client, login):
    b = Barangay(name="Barangay Dos")
    db.session.add(b)
    db.session.commit()
    login(make_account(role=RoleId.CITY_ADMIN, username="areas.city"))
    html = page(client, "/admin/areas")
    assert '<th scope="col">Barangay</th>' in html  # every barangay's areas, with theirs
    res = client.post("/admin/areas", data={"name": "Purok Norte"})
    assert res.status_code == 400
    assert "Choose a barangay in the barangay filter first" in field_error(
        res.get_data(as_text=True), "area-new"
    )
    client.post("/city/barangay-filter", data={"barangay_id": b.id})
    assert client.post("/admin/areas", data={"name": "Purok Norte"}).status_code == 302
    assert db.session.get(Area, area_id("Purok Norte")).barangay_id == b.id


def test_the_machines_page_offers_only_open_areas_but_keeps_a_machines_own(client, admin_client):
    machine = make_machine("Old Digester", area="Purok 4")
    client.post(f"/admin/areas/{area_id('Purok 4')}/retired", data={"retired": "1"})
    adding = page(client, "/sibol-machines?tab=machines&add=1")
    add_form = adding.split('id="nojs-add-area"', 1)[1].split("</select>", 1)[0]
    assert "Purok 4" not in add_form and "Purok 5" in add_form
    editing = page(client, f"/sibol-machines?tab=machines&edit={machine.id}")
    edit_form = editing.split('id="nojs-edit-area"', 1)[1].split("</select>", 1)[0]
    assert re.search(
        rf'<option value="{area_id("Purok 4")}" selected>Purok 4 \(retired\)</option>', edit_form
    )
    # the form keeps it there; adding a machine to it is refused with the reason
    res = client.post(
        f"/sibol-machines/machines/{machine.id}", data={"name": "Old Digester", "areaId": area_id("Purok 4")}
    )
    assert res.status_code == 302 and "edit=" not in res.headers["Location"]
    res = client.post("/sibol-machines/machines", data={"name": "New Digester", "areaId": area_id("Purok 4")})
    assert res.status_code == 400
    assert 'id="nojs-add-area-error">Purok 4 is retired: choose another area.</p>' in res.get_data(
        as_text=True
    )
