"""Reading server-rendered pages in page tests."""

from __future__ import annotations

import re


def page(client, url: str, status: int = 200) -> str:
    """GET a page, check its status, return its HTML."""
    res = client.get(url)
    assert res.status_code == status, res.get_data(as_text=True)[:500]
    return res.get_data(as_text=True)


def rows(html: str, table_id: str) -> list[list[str]]:
    """The text of every cell of every body row of the table with this id."""
    body = html.split(f'id="{table_id}"', 1)[1].split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    out = []
    for tr in body.split("<tr")[1:]:
        cells = re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
        out.append([re.sub(r"<[^>]+>", "", c).strip() for c in cells])
    return out
