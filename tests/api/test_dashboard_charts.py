"""the dashboard's charts are SVG in the first response, readable without
JavaScript; Chart.js is not part of the page until someone points at a chart."""

import re
from xml.etree import ElementTree

from sibol.web import charts
from tests.factories import make_account
from tests.support.html import on_the_wire

SVG = "{http://www.w3.org/2000/svg}"


def parse_svg(text: str) -> ElementTree.Element:
    return ElementTree.fromstring(text)  # noqa: S314 - the app's own output, in a test


def dashboard(client, login) -> str:
    login(make_account())
    res = client.get("/dashboard")
    assert res.status_code == 200
    return res.get_data(as_text=True)


def svgs(html: str, marker: str) -> list[ElementTree.Element]:
    """Parsed <svg> elements inside the first element carrying `marker`."""
    part = html.split(marker, 1)[1]
    return [parse_svg(m) for m in re.findall(r"<svg .*?</svg>", part.split("</section>", 1)[0])]


def test_each_period_has_its_doughnut_with_one_titled_arc_per_street(client, login, seeded):
    html = dashboard(client, login)
    panes = re.findall(r'<div class="chart__pane" data-chart-period="(\w+)"( hidden)?>', html)
    assert panes == [("weekly", ""), ("monthly", " hidden"), ("yearly", " hidden")]
    weekly = svgs(html, 'data-chart-period="weekly"')[0]
    assert weekly.get("role") == "img"
    title_id, desc_id = weekly.get("aria-labelledby").split()
    assert weekly.find(f"{SVG}title").get("id") == title_id
    assert weekly.find(f"{SVG}title").text == "Weekly waste per street"
    assert weekly.find(f"{SVG}desc").text == "Total 4 kg; the figures are in the table below."
    arcs = [c for c in weekly.findall(f"{SVG}circle") if c.find(f"{SVG}title") is not None]
    assert [a.find(f"{SVG}title").text for a in arcs] == [
        "Rizal Street: 1.5 kg",
        "Mabini Street: 1.2 kg",
        "Bonifacio Street: 1.3 kg",
    ]
    assert [a.get("stroke") for a in arcs] == list(charts.COLOURS[:3])  # the table's swatches
    # Arc lengths follow the figures: 1.5 : 1.2 : 1.3 of the circumference (less a small gap).
    lengths = [float(a.get("stroke-dasharray").split()[0]) for a in arcs]
    circumference = sum(float(x) for x in arcs[0].get("stroke-dasharray").split())
    assert [round((n + 1.5) / circumference, 3) for n in lengths] == [0.375, 0.3, 0.325]
    monthly = svgs(html, 'data-chart-period="monthly"')[0]
    assert monthly.find(f"{SVG}desc").text.startswith("Total 16 kg")


def test_energy_chart_has_axes_a_line_per_year_and_titled_points(client, login, seeded):
    html = dashboard(client, login)
    (energy,) = svgs(html, 'id="energy-title"')
    assert energy.find(f"{SVG}title").text == "Energy per month"
    texts = [t.text for t in energy.iter(f"{SVG}text")]
    assert "Unit: kWh" in texts and texts[5:8] == ["Jan", "Feb", "Mar"]
    assert "0" in texts  # the y axis starts at zero
    lines = energy.findall(f"{SVG}polyline")
    assert [ln.get("stroke") for ln in lines] == ["#1f7a4d", "#175cd3"]  # 2024, 2025 as Chart.js
    points = [c.find(f"{SVG}title").text for c in energy.findall(f"{SVG}circle")]
    assert "2024 January: 120 kWh" in points and "2025 January: 140 kWh" in points
    assert "2024" in texts and "2025" in texts  # the legend


def test_charts_need_no_script_and_canvases_wait_hidden(client, login, seeded):
    html = dashboard(client, login)
    assert re.search(r'<canvas id="waste-chart"[^>]* hidden>', html)
    assert re.search(r'<canvas id="energy-chart"[^>]* hidden>', html)
    # The figures tables are still there for every period.
    # ... each cell named by its column, for the cards a phone shows.
    assert html.count('class="waste-figures"') == 3
    assert (
        '<td data-label="Month">January</td><td data-label="2024">120</td><td data-label="2025">140</td>'
        in html
    )


def test_no_data_draws_an_empty_ring_and_no_energy_chart(client, login):
    html = dashboard(client, login)
    weekly = svgs(html, 'data-chart-period="weekly"')[0]
    assert [t.text for t in weekly.iter(f"{SVG}text")] == ["No waste collections recorded yet."]
    assert 'id="energy-chart"' in html and "chart__svg--line" not in html


def test_dashboard_first_load_is_under_60_kb_without_chart_js(client, login, seeded):
    login(make_account())
    _html, assets, total = on_the_wire(client, "/dashboard")
    assert not any("/charts-" in a for a in assets)  # Chart.js: only on interaction
    assert total < 60 * 1024, f"{total} bytes"


def test_chart_texts_are_escaped():
    svg = charts.doughnut(["<b>&"], [2], title="a<b", desc='"d"', unit="kg")
    assert "<b>&" not in svg and "&lt;b&gt;&amp;: 2 kg" in svg and "a&lt;b" in svg
    bars = charts.bar_chart(["Mon", "Tue"], [3, None], title="t", desc="d", y_label="kg", unit="kg")
    root = parse_svg(str(bars))
    assert [r.find(f"{SVG}title").text for r in root.findall(f"{SVG}rect")] == ["Mon: 3 kg"]


def test_flat_or_noisy_series_get_a_sane_axis():
    """Averages equal but for float noise once sent the tick loop into a near-zero step."""
    svg = charts.line_chart(
        ["a", "b", "c"],
        [("pH", [7.1, 7.1000000000000005, 7.1])],
        title="t",
        desc="d",
        y_label="pH",
        from_zero=False,
    )
    ticks = [t.text for t in parse_svg(str(svg)).iter(f"{SVG}text")][:-4]
    assert 2 <= len(ticks) <= 21 and float(ticks[0]) <= 7.1 <= float(ticks[-1])
