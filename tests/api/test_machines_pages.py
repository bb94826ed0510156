"""/sibol-machines rendered on the server: tabs, tables, the selector, the no-JavaScript forms."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select

from sibol import seed
from sibol.extensions import db
from sibol.models import Machine, RoleId
from sibol.models.machines import ChemicalAdditive, MachineTerm, WasteContainer
from tests.factories import make_account, make_machine
from tests.factories_machines import area_id, make_additive, make_container, status_id


@pytest.fixture
def operator_client(client, login):
    """The test client signed in as an Operator."""
    login(make_account(role=RoleId.OPERATOR))
    return client


def page(client, query: str = "") -> str:
    res = client.get(f"/sibol-machines{query}")
    assert res.status_code == 200
    return res.get_data(as_text=True)


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_page_needs_module_2(client, login):
    assert client.get("/sibol-machines").status_code == 302
    login(make_account(role=RoleId.HOUSEHOLD))
    assert client.get("/sibol-machines").status_code == 403


def test_tabs_are_links_and_chemical_additives_is_the_default(operator_client):
    html = page(operator_client)
    tabs = re.findall(r'<a href="/sibol-machines\?tab=[^"]+"( aria-current="page")?>([^<]+)</a>', html)
    assert [label for _, label in tabs] == [
        "Process Panels",
        "Chemical Additives",
        "Machines",
        "Waste Container",
        "Analytics",
    ]
    assert [label for current, label in tabs if current] == ["Chemical Additives"]
    assert ">Add Chemical</a>" in html and "Filter by" in html
    assert "No chemical additives data available" in html  # no machines yet


@pytest.mark.parametrize("tab", ["process-panels", "machines", "waste-container", "analytics"])
def test_other_tabs_say_add_machine_and_the_selector_is_not_on_machines(operator_client, tab):
    make_machine("Only")
    html = page(operator_client, f"?tab={tab}")
    # The Waste Container tab names what it adds (button and submit).
    label = "Add Waste Container" if tab == "waste-container" else "Add Machine"
    assert f">{label}</a>" in html and "Add Chemical</a>" not in html
    assert ('data-island="machines-selector"' in html) == (tab != "machines")


def test_machines_table_renders_on_the_server(operator_client):
    active = make_machine("Digester A", area="Purok 2", status_id=status_id("Active"))
    bare = make_machine("Digester B", area="Purok 3")
    html = text(page(operator_client, "?tab=machines"))
    assert f"#{active.id} Digester A Purok 2 Active never Edit Device" in html
    assert f"#{bare.id} Digester B Purok 3 No Status never Edit Device" in html
    assert "1-2 of 2" in html


def test_machines_search_and_paging_in_the_query_string(operator_client):
    for n in range(1, 13):
        make_machine(f"Unit {n}", area="Purok 1")
    make_machine("Shredder", area="Purok 5")
    html = text(page(operator_client, "?tab=machines&q=PUROK 5"))
    assert "Shredder" in html and "Unit 1 " not in html and "1-1 of 1" in html
    html = page(operator_client, "?tab=machines&per_page=5&page=2")
    assert "Unit 6" in text(html) and "Unit 5 " not in text(html) and "6-10 of 13" in text(html)
    assert 'href="/sibol-machines?tab=machines&amp;per_page=5&amp;page=3"' in html
    html = text(page(operator_client, "?tab=machines&q=nothing-like-this"))
    assert "No machines found. Click 'Add Machine' to create one." in html


def test_junk_query_values_do_not_break_the_page(operator_client):
    make_machine("Robust")
    for query in (
        "?tab=nope",
        "?tab=machines&page=-3&per_page=abc",
        "?tab=machines&edit=zz",
        "?machine=abc",
        "?machine=99999999999999",
        "?tab=waste-container&machine=-1",
    ):
        assert operator_client.get(f"/sibol-machines{query}").status_code == 200


def test_selector_defaults_to_the_first_machine_and_filters_the_rows(operator_client):
    one, two = make_machine("Alpha"), make_machine("Beta")
    make_additive(one, chemical_input="Lime")
    make_additive(two, chemical_input="Urea")
    make_container(one, container_no="WC-A")
    make_container(two, container_no="WC-B")
    html = page(operator_client)
    assert "Lime" in html and "Urea" not in html
    assert f'<option value="{one.id}" selected>Alpha</option>' in html
    html = page(operator_client, f"?machine={two.id}")
    assert "Urea" in html and "Lime" not in html
    html = page(operator_client, f"?tab=waste-container&machine={two.id}")
    assert "WC-B" in html and "WC-A" not in html
    html = page(operator_client, "?tab=waste-container&machine_q=bet")
    assert f'<option value="{two.id}">Beta</option>' in html


def test_chemical_search_box_filters_rows(operator_client):
    machine = make_machine("Alpha")
    make_additive(machine, chemical_input="Lime", person_in_charge="Ana")
    make_additive(machine, chemical_input="Urea", person_in_charge="Ben")
    html = page(operator_client, f"?machine={machine.id}&q=ben")
    assert "Urea" in html and "Lime" not in html


def test_add_forms_save_rows_without_javascript(operator_client):
    machine = make_machine("Alpha")
    res = operator_client.post(
        "/sibol-machines/chemical-additives",
        data={
            "machine": machine.id,
            "area": "Package 2",
            "startDate": "2026-03-04",
            "chemicalInput": "Molasses",
            "stage": "Filtering",
            "value": "4",
            "units": "L",
            "personInCharge": "Lito",
        },
        follow_redirects=True,
    )
    assert "Chemical added." in text(res.get_data(as_text=True))
    assert "Molasses Filtering 4 L Mar 4, 2026" in text(res.get_data(as_text=True))
    res = operator_client.post(
        "/sibol-machines/waste-containers",
        data={"machine": machine.id, "area": "Package 4", "startDate": "2026-03-05"},
        follow_redirects=True,
    )
    assert f"WC-{machine.id:03d}-01 Package 4 Not Full Mar 5, 2026" in text(res.get_data(as_text=True))
    res = operator_client.post(
        "/sibol-machines/waste-containers",
        data={"machine": machine.id, "area": "Package 4"},
        follow_redirects=True,
    )
    assert "Failed to add waste container: Start Date is required" in text(res.get_data(as_text=True))
    assert db.session.scalar(select(func.count()).select_from(WasteContainer)) == 1


def test_machine_forms_without_javascript(operator_client):
    # No name: the dialog shows again with the error beside the field and the chosen area kept.
    res = operator_client.post("/sibol-machines/machines", data={"name": "  ", "areaId": area_id("Purok 2")})
    html = res.get_data(as_text=True)
    assert res.status_code == 400 and db.session.scalar(select(func.count()).select_from(Machine)) == 0
    assert 'id="nojs-add-name-error">Machine Name is required.</p>' in html
    assert f'<option value="{area_id("Purok 2")}" selected>Purok 2</option>' in html
    res = operator_client.post("/sibol-machines/machines", data={"name": "Digester", "areaId": ""})
    assert res.status_code == 400 and 'id="nojs-add-area-error">Area is required.</p>' in res.get_data(
        as_text=True
    )
    res = operator_client.post(
        "/sibol-machines/machines", data={"name": "x" * 101, "areaId": area_id("Purok 2")}
    )
    assert res.status_code == 400 and "at most 100 characters" in res.get_data(as_text=True)
    # Saved by an operator (who issues no keys): the list says so.
    res = operator_client.post(
        "/sibol-machines/machines",
        data={"name": " Purok  2 Digester ", "areaId": area_id("Purok 2")},
        follow_redirects=True,
    )
    machine = db.session.scalar(select(Machine))
    assert machine.name == "Purok 2 Digester"
    assert "Machine created successfully!" in text(res.get_data(as_text=True))
    html = page(operator_client, f"?tab=machines&edit={machine.id}")
    assert f"Edit Machine #{machine.id}" in html and "No Status</option>" in html
    res = operator_client.post(
        f"/sibol-machines/machines/{machine.id}",
        data={"name": "Hand Edited", "areaId": area_id("Purok 5"), "status": status_id("Offline")},
        follow_redirects=True,
    )
    assert "Machine updated successfully!" in text(res.get_data(as_text=True))
    assert f"#{machine.id} Hand Edited Purok 5 Offline" in text(res.get_data(as_text=True))
    res = operator_client.post(
        f"/sibol-machines/machines/{machine.id}", data={"name": "x", "areaId": "999"}, follow_redirects=True
    )
    assert "Failed to update machine: Area not found." in text(res.get_data(as_text=True))
    assert operator_client.post("/sibol-machines/machines/abc", data={"areaId": 1}).status_code == 302


def test_sample_data_is_idempotent_and_tied_to_machines(app):
    seed.sample_data()
    seed.sample_data()
    assert db.session.scalar(select(func.count()).select_from(Machine)) == 4
    per_machine = dict(
        db.session.execute(
            select(ChemicalAdditive.machine_id, func.count()).group_by(ChemicalAdditive.machine_id)
        ).all()
    )
    assert sorted(per_machine.values()) == [1, 2, 3, 4]
    assert db.session.scalar(select(func.count()).select_from(WasteContainer)) > 0


def test_generate_machines_command(app):
    result = app.test_cli_runner().invoke(args=["generate-machines", "--count", "7"])
    assert result.exit_code == 0 and "Added 7 machines" in result.output
    assert db.session.scalar(select(func.count()).select_from(Machine)) == 7
    assert db.session.scalar(select(func.count(func.distinct(MachineTerm.machine_id)))) == 7


def test_issued_key_is_shown_once_with_the_controller_settings(client, login, app):
    login(make_account(role=RoleId.STAFF))
    machine = make_machine()
    html = client.get(f"/sibol-machines/machines/{machine.id}/device").get_data(as_text=True)
    assert 'id="issue-key"' in html and 'id="device-key"' not in html
    html = client.post(f"/sibol-machines/machines/{machine.id}/device-key").get_data(as_text=True)
    key = re.search(r'<code id="device-key">([^<]+)</code>', html)
    assert key and 'data-copy="device-key"' in html
    base = app.config["SIBOL_BASE_URL"]
    http = html.split('id="http-settings"', 1)[1].split("</dl>", 1)[0]
    assert f"POST {base}/api/telemetry" in http and "Authorization: Device &lt;key&gt;" in http
    assert "MQTT is not configured on this console" in html.split('id="mqtt-settings"', 1)[1]
    # shown once: the page again has no key
    assert key.group(1) not in client.get(f"/sibol-machines/machines/{machine.id}/device").get_data(
        as_text=True
    )


def test_mqtt_settings_name_host_port_topic_and_user(app):
    from sibol.telemetry.connect import device_settings

    app.config.update(
        SIBOL_MQTT_URL="mqtts://console:secret@broker.example.ph", SIBOL_BASE_URL="https://sibol.example.ph"
    )
    with app.app_context():
        settings = device_settings(12)
        assert settings["mqtt"] == {
            "host": "broker.example.ph",
            "port": 8883,
            "tls": True,
            "topic": "sibol/v1/machines/12/telemetry",
            "username": "12",
        }
        assert settings["http"]["url"] == "https://sibol.example.ph/api/telemetry"
        # The embedded broker listens on the console's host: a device is told that host, not 127.0.0.1.
        app.config.update(SIBOL_MQTT_URL="mqtt://console:secret@127.0.0.1:1884")
        assert device_settings(12)["mqtt"]["host"] == "sibol.example.ph"


def test_machines_and_device_pages_show_no_none(client, login):
    """A machine with no status, readings, key or commands: blanks and dashes, never "None"."""
    login(make_account(role=RoleId.STAFF))
    machine = make_machine()
    for path in (
        "/sibol-machines?tab=machines",
        f"/sibol-machines?tab=analytics&machine={machine.id}",
        f"/sibol-machines/machines/{machine.id}/device",
    ):
        html = client.get(path).get_data(as_text=True)
        assert not re.search(r"\bNone\b", text(html)), path
        assert 'value="None"' not in html, path


def test_staff_adding_a_machine_land_on_its_device_key(client, login):
    login(make_account(role=RoleId.STAFF))
    res = client.post("/sibol-machines/machines", data={"name": "Digester", "areaId": area_id("Purok 2")})
    machine = db.session.scalar(select(Machine))
    assert res.status_code == 302
    assert res.headers["Location"].endswith(f"/sibol-machines/machines/{machine.id}/device")
    html = client.get(res.headers["Location"]).get_data(as_text=True)
    assert "Machine Digester created. Issue its device key to connect it." in text(html)
    assert 'id="issue-key"' in html and "Not issued yet" in html
