"""Reading server-rendered pages in page tests."""

from __future__ import annotations

import re

import brotli


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


def on_the_wire(client, url: str) -> tuple[str, list[str], int]:
    """GET a page as a browser would (Brotli), then every /static file it links:
    (the page's HTML, those files' URLs, the compressed bytes of the page and the files)."""
    page = client.get(url, headers={"Accept-Encoding": "br"})
    assert page.headers["Content-Encoding"] == "br"
    html = brotli.decompress(page.data).decode()  # one request: the test app context shares g
    assets = re.findall(r'(?:href|src)="(/static/[^"]+)"', html)
    total = len(page.data)
    for asset in assets:
        res = client.get(asset, headers={"Accept-Encoding": "br"})
        assert res.status_code == 200, asset
        total += len(res.data)
    return html, assets, total
