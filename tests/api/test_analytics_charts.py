"""Analytics charts drawn on the server with axes (energy and waste fed as bars, each
metric's averages as a line), readable without JavaScript, beside their tables."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from xml.etree import ElementTree

import pytest

from sibol.i18n.localtime import to_local
from sibol.models import RoleId
from tests.factories import make_account
from tests.factories_admin import session_client
from tests.factories_telemetry import device, healthy, hour_start, keyed_machine, readings_in

SVG = "{http://www.w3.org/2000/svg}"


def parse_svg(text: str) -> ElementTree.Element:
    return ElementTree.fromstring(text)  # noqa: S314 - the app's own output, in a test


pytestmark = pytest.mark.usefixtures("fresh_identity")


def card_svg(page: str, card_id: str) -> ElementTree.Element:
    part = page[page.index(f'id="{card_id}"') :]
    return parse_svg(re.search(r"<svg .*?</svg>", part, re.S).group(0))


def test_analytics_cards_carry_svg_charts_with_axes_and_titles(app, client):
    staff = make_account(role=RoleId.STAFF)
    machine, key = keyed_machine()
    hour = hour_start(2)
    readings = readings_in(hour, (0, 20, 40), **healthy(voltage_v=200.0, current_a=5.0, weight_kg=10.0))
    readings += readings_in(hour, (60,), **healthy(voltage_v=200.0, current_a=10.0, weight_kg=5.0))
    client.post("/api/telemetry", json={"readings": readings}, headers=device(key))
    page = session_client(app, staff).get(f"/sibol-machines?tab=analytics&machine={machine.id}&range=24h")
    html = page.get_data(as_text=True)
    energy = card_svg(html, "energy")
    assert energy.find(f"{SVG}title").text == "Energy produced"
    bars = [r.find(f"{SVG}title").text for r in energy.findall(f"{SVG}rect")]
    local = to_local(hour)  # the bars are the barangay's hours, dated in the one date style
    label = f"{local:%b} {local.day}, {local.year} {local:%H}:00"
    assert bars[0] == f"{label}: 1 kWh" and bars[1].endswith(": 2 kWh")
    assert "kWh" in [t.text for t in energy.iter(f"{SVG}text")]  # the y axis label
    waste = card_svg(html, "waste-fed")
    assert [r.find(f"{SVG}title").text for r in waste.findall(f"{SVG}rect")][0] == f"{label}: 30 kg"
    ph = card_svg(html, "metric-ph")
    assert ph.find(f"{SVG}title").text.startswith("pH")
    assert ph.findall(f"{SVG}polyline") and ph.find(f"{SVG}desc").text == "The figures are in the table."
    assert '">7.1</td>' in html  # the table stays


def test_analytics_days_follow_the_barangays_clock(app, client):
    """Two readings a few hours apart on one UTC day, either side of Manila's midnight (16:00
    UTC), fall on two local days; the tab names the zone and never says UTC."""
    staff = make_account(role=RoleId.STAFF)
    machine, key = keyed_machine()
    midnight_manila = datetime.now(UTC).replace(hour=16, minute=0, second=0, microsecond=0)
    if midnight_manila > datetime.now(UTC) - timedelta(hours=2):
        midnight_manila -= timedelta(days=1)
    readings = [
        {"ts": (midnight_manila - timedelta(minutes=30)).isoformat(), **healthy(ph=6.0)},
        {"ts": (midnight_manila + timedelta(minutes=30)).isoformat(), **healthy(ph=8.0)},
    ]
    assert client.post("/api/telemetry", json={"readings": readings}, headers=device(key)).status_code == 202
    html = session_client(app, staff).get(f"/sibol-machines?tab=analytics&machine={machine.id}&range=7d")
    html = html.get_data(as_text=True)
    assert "Days by the barangay's clock (Asia/Manila)." in html and "UTC" not in html
    ph = html[html.index('id="metric-ph"') :]
    ph = ph[: ph.index("</details>")]
    before, after = to_local(midnight_manila - timedelta(minutes=30)), to_local(midnight_manila)
    for day, value in ((before, "6"), (after, "8")):
        label = f"{day:%b} {day.day}, {day.year}"
        assert re.search(
            rf"<t[dh][^>]*>{label}</t[dh]><td[^>]*>{value}</td><td[^>]*>{value}</td><td[^>]*>{value}</td><td[^>]*>1</td>",
            ph,
        ), label
