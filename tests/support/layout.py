"""The layout check the browser tests share: at a width, the document never scrolls sideways,
the top bar stays low, every table's last column is visible and, on phones, every table reads as
cards whose cells name their columns."""

from __future__ import annotations

from tests.support.browser import TOPBAR_MAX

MEASURE = """
const width = arguments[0];
const bar = document.querySelector('.topbar');
const shown = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
const tables = [...document.querySelectorAll('table')]
  .filter(t => t.getAttribute('role') !== 'presentation' && t.tHead && shown(t))
  .map(t => {
    const box = (t.closest('.table-wrap') || t.parentElement).getBoundingClientRect();
    const right = Math.min(box.right, innerWidth);
    const th = [...t.tHead.querySelectorAll('th')].pop();
    const rows = [...t.querySelectorAll(':scope > tbody > tr:not(.table__empty)')];
    const cells = rows.flatMap(r => [...r.children]).filter(shown);
    return {
      id: t.id || `${t.closest('[id]')?.id || 'page'} table`,
      header: th ? th.getBoundingClientRect().right - right : null,
      cards: rows.length === 0 || getComputedStyle(rows[0]).display === 'block',
      // A row's header (<th scope="row">) is its card's title and a group's (scope="rowgroup") the
      // heading over its cards; every other cell names its column.
      unlabelled: cells.filter(c => !(c.dataset.label || '').trim() && !['row', 'rowgroup'].includes(c.scope)).length,
      cut: rows.map(r => [...r.children].pop()).filter(Boolean)
        .map(c => { const r = c.getBoundingClientRect(); return r.width > 0 ? r.right - innerWidth : 9999; })
        .filter(d => d > 1).length,
    };
  });
return {scroll: document.documentElement.scrollWidth, inner: innerWidth, width,
        bar: bar ? bar.getBoundingClientRect().height : 0, tables};
"""


def measure(browser, width: int, where: str) -> list[str]:
    """What is wrong with the current page at this width (nothing: an empty list)."""
    problems = []
    m = browser.execute_script(MEASURE, width)
    if m["scroll"] > width or m["scroll"] > m["inner"]:
        problems.append(f"{where}: document {m['scroll']} px wide")
    if m["bar"] > TOPBAR_MAX:
        problems.append(f"{where}: top bar {m['bar']} px high")
    for table in m["tables"]:
        if width > 600 and table["header"] is not None and table["header"] > 1:
            problems.append(f"{where}: {table['id']} last column cut by {table['header']:.0f} px")
        if width < 600 and not table["cards"]:
            problems.append(f"{where}: {table['id']} is not shown as cards")
        if width < 600 and table["unlabelled"]:
            problems.append(f"{where}: {table['id']} has {table['unlabelled']} cells without a label")
        if table["cut"]:
            problems.append(f"{where}: {table['id']} last cells off-screen in {table['cut']} rows")
    return problems
