"""The table macro names every cell for the cards phones show (sibol/web/templating.py)."""

from __future__ import annotations

from markupsafe import Markup

from sibol.web.templating import label_cells


def test_each_cell_is_named_by_its_column():
    row = Markup("<tr><td>Eco bag</td><td class='n'>100</td></tr>")
    assert label_cells(row, ["Reward", "Points"]) == (
        '<tr><td data-label="Reward">Eco bag</td><td data-label="Points" class=\'n\'>100</td></tr>'
    )


def test_a_row_header_is_the_card_title_and_the_cells_keep_their_columns():
    row = Markup('<tr><th scope="row">pH</th><td>7.1</td><td>6.5–8</td></tr>')
    assert label_cells(row, ["Metric", "Value", "Healthy range"]) == (
        '<tr><th scope="row">pH</th><td data-label="Value">7.1</td><td data-label="Healthy range">6.5–8</td></tr>'
    )


def test_labels_are_escaped_and_an_empty_row_is_left_alone():
    assert 'data-label="Cost &lt;PHP&gt;"' in label_cells(Markup("<tr><td>1</td></tr>"), ["Cost <PHP>"])
    empty = Markup('<tr class="table__empty"><td colspan="2">No rows.</td></tr>')
    assert label_cells(empty, ["A", "B"]) == empty


def test_the_macro_labels_rows_it_renders(app):
    template = app.jinja_env.from_string(
        '{% from "macros/table.html" import data_table %}'
        '{% call(row, n) data_table(rows, ["Metric", "Value"]) %}'
        '<tr><th scope="row">{{ row[0] }}</th><td>{{ row[1] }}</td></tr>{% endcall %}'
    )
    with app.test_request_context():
        html = template.render(rows=[("pH", "7.1")])
    assert '<th scope="row">pH</th><td data-label="Value">7.1</td>' in html
    assert '<div class="table-wrap">' in html
