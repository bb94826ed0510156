"""Live regions: bytes on the wire per minute while nothing changes, against gunicorn (2 workers).

    .venv/bin/python bench/live_bench.py [--seconds 60] [--smoke]

A fresh SQLite database with a machine that has a device key and one reading; the admin signs
in through /api/auth/login (which also opens the page session, as the browser's sign-in does).
For three pages (the device page: its readings, its command history and the bell; Process
Panels: the panel and the bell; the dashboard: the bell alone) the bench reads the page's live
regions and their ETags from
its HTML, then polls GET /api/live exactly as static_src/lib/live.ts does, every POLL_MS, for
--seconds, over raw sockets, with the request headers Chromium sends on a same-origin fetch.
Every byte of each HTTP exchange is counted (request line, headers, body; response status line,
headers, body): the figure is bytes per minute at the page's interval. TCP/IP and TLS framing
are not counted (see docs/performance.md). Then one reading is posted and the next poll's 200
(the changed regions' HTML, compressed) is measured: what a change costs once.
--smoke polls 3 times per page with no wait between them and scales to a minute (seconds).
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import socket
import sys
import time
from datetime import UTC, datetime
from html import unescape
from pathlib import Path
from urllib.parse import quote, urlsplit

from common import ADMIN_PASSWORD, start_server, summary, table

POLL_MS = int(
    re.search(r"POLL_MS = ([\d_]+)", (Path(__file__).parents[1] / "static_src/lib/live.ts").read_text())
    .group(1)
    .replace("_", "")
)
# What Chromium 13x sends with a same-origin fetch() from a page (the Cookie is added below).
BROWSER_HEADERS = {
    "Accept": "application/json",
    "Accept-Encoding": "gzip, deflate, br, zstd",
    "Accept-Language": "en-US,en;q=0.9",
    "Connection": "keep-alive",
    "Sec-Ch-Ua": '"Chromium";v="138", "Not)A;Brand";v="8"',
    "Sec-Ch-Ua-Mobile": "?1",
    "Sec-Ch-Ua-Platform": '"Android"',
    "Sec-Fetch-Dest": "empty",
    "Sec-Fetch-Mode": "cors",
    "Sec-Fetch-Site": "same-origin",
    "User-Agent": "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/138.0.0.0 Mobile Safari/537.36",
}


def api(base: str, method: str, path: str, body: dict | None = None, headers: dict | None = None):
    url = urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    payload = json.dumps(body) if body is not None else None
    # The browser's User-Agent: Flask-Login's session protection ties the session to it.
    sent = {
        "Content-Type": "application/json",
        "User-Agent": BROWSER_HEADERS["User-Agent"],
        **(headers or {}),
    }
    conn.request(method, path, payload, sent)
    res = conn.getresponse()
    data = res.read()
    cookies = res.headers.get_all("Set-Cookie") or []
    conn.close()
    return res.status, (json.loads(data) if data and data[:1] in b"[{" else data), cookies


class Http2:
    """What the same exchanges weigh over one HTTP/2 connection (a TLS proxy in front of gunicorn,
    as docs/deploy.md sets up): each side's headers HPACK-encoded with a context that lives as long
    as the connection, plus the 9-byte frame header of each HEADERS (and DATA) frame."""

    FRAME = 9

    def __init__(self) -> None:
        from hpack import Encoder

        self.up, self.down = Encoder(), Encoder()

    def request(self, path: str, authority: str, headers: dict[str, str]) -> int:
        pseudo = [(":method", "GET"), (":scheme", "https"), (":authority", authority), (":path", path)]
        hop = ("connection", "host")
        fields = pseudo + [(k.lower(), v) for k, v in headers.items() if k.lower() not in hop]
        return self.FRAME + len(self.up.encode(fields))

    def response(self, raw: bytes) -> int:
        head, _sep, body = raw.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        fields = [(":status", lines[0].split(" ")[1])]
        for line in lines[1:]:
            name, _colon, value = line.partition(": ")
            if name.lower() not in ("connection", "transfer-encoding", "keep-alive"):
                fields.append((name.lower(), value))
        return self.FRAME + len(self.down.encode(fields)) + ((self.FRAME + len(body)) if body else 0)


def exchange(
    base: str, path: str, headers: dict[str, str], h2: Http2 | None = None
) -> tuple[int, int, int, bytes]:
    """One raw HTTP/1.1 GET: (status, request bytes, response bytes, body). With `h2`, the
    request and response bytes are what the exchange weighs over HTTP/2 instead."""
    url = urlsplit(base)
    lines = [f"GET {path} HTTP/1.1", f"Host: {url.netloc}"] + [f"{k}: {v}" for k, v in headers.items()]
    request = ("\r\n".join(lines) + "\r\n\r\n").encode()
    with socket.create_connection((url.hostname, url.port), timeout=30) as sock:
        sock.sendall(request)
        chunks = []
        while True:  # gunicorn's sync workers close the connection after each response
            chunk = sock.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    response = b"".join(chunks)
    status = int(response.split(b" ", 2)[1])
    body = response.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in response else b""
    if h2 is not None:
        return status, h2.request(path, url.netloc, headers), h2.response(response), body
    return status, len(request), len(response), body


def regions_of(page: str) -> list[tuple[str, str]]:
    return [
        (unescape(url), etag)
        for url, etag in re.findall(r'data-live="([^"]+)" data-live-etag="([0-9a-f]+)"', page)
    ]


def poll_path(regions: list[tuple[str, str]]) -> str:
    return "/api/live?" + "&".join(f"r={quote(url, safe='')}" for url, _etag in regions)


def watch(base: str, cookie: str, page: str, seconds: float, smoke: bool) -> dict:
    status, _req, _res, body = exchange(
        base,
        page,
        {**BROWSER_HEADERS, "Accept": "text/html", "Accept-Encoding": "identity", "Cookie": cookie},
    )
    assert status == 200, (page, status)
    regions = regions_of(body.decode())
    assert regions, f"no live regions on {page}"
    headers = {
        **BROWSER_HEADERS,
        "Cookie": cookie,
        "Referer": base + page,
        "If-None-Match": ", ".join(f'"{etag}"' for _url, etag in regions),
    }
    path = poll_path(regions)
    polls = 3 if smoke else max(1, int(seconds * 1000 // POLL_MS))
    sent = received = sent2 = received2 = 0
    h2 = Http2()
    h2.request(page, "x", {**headers, "Accept": "text/html"})  # the page itself came first
    for n in range(polls):
        status, req, res, _body = exchange(base, path, headers)
        assert status == 304, f"{page}: poll answered {status} while nothing changed"
        sent, received = sent + req, received + res
        _status, req, res, _body = exchange(base, path, headers, h2)
        sent2, received2 = sent2 + req, received2 + res
        if not smoke and n < polls - 1:
            time.sleep(POLL_MS / 1000)
    per_minute = 60_000 / POLL_MS
    return {
        "regions": len(regions),
        "received_min": received / polls * per_minute,
        "sent_min": sent / polls * per_minute,
        "received2_min": received2 / polls * per_minute,
        "sent2_min": sent2 / polls * per_minute,
        "response": received / polls,
        "headers": headers,
        "path": path,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60, help="how long each page is watched")
    parser.add_argument("--smoke", action="store_true", help="3 polls per page, no waiting")
    args = parser.parse_args()
    server, _tmp = start_server(workers=2, sample=False, RATELIMIT_ENABLED="0")
    try:
        status, login, cookies = api(
            server.url, "POST", "/api/auth/login", {"username": "admin", "password": ADMIN_PASSWORD}
        )
        assert status == 200, login
        cookie = "; ".join(c.split(";", 1)[0] for c in cookies)
        bearer = {"Authorization": f"Bearer {login['token']}"}
        status, machine, _c = api(
            server.url, "POST", "/api/machines", {"name": "Bench Digester", "areaId": 1}, bearer
        )
        assert status in (200, 201), machine
        machine_id = machine["data"]["machine_id"]
        status, issued, _c = api(server.url, "POST", f"/api/machines/{machine_id}/device-key", None, bearer)
        key = {"Authorization": f"Device {issued['deviceKey']}"}
        now = datetime.now(UTC).isoformat(timespec="seconds")
        assert (
            api(server.url, "POST", "/api/telemetry", {"ts": now, "ph": 7.1, "methane_pct": 60}, key)[0]
            == 202
        )

        pages = {
            "device page (readings + commands + bell)": f"/sibol-machines/machines/{machine_id}/device",
            "Process Panels (panel + bell)": f"/sibol-machines?tab=process-panels&machine={machine_id}",
            "any other page (bell)": "/dashboard",
        }
        mode = "smoke: 3 polls, scaled" if args.smoke else f"{args.seconds:.0f} s watched"
        print(f"Live regions: gunicorn 2 workers, SQLite, one poll every {POLL_MS / 1000:g} s ({mode})")
        rows, results = [], {}
        for label, page in pages.items():
            r = results[label] = watch(server.url, cookie, page, args.seconds, args.smoke)
            rows.append(
                [
                    label,
                    r["regions"],
                    f"{r['response']:.0f} B",
                    f"{r['received_min'] / 1024:.2f} KB",
                    f"{r['sent_min'] / 1024:.2f} KB",
                    f"{r['received2_min'] / 1024:.2f} KB",
                    f"{r['sent2_min'] / 1024:.2f} KB",
                ]
            )
            summary(
                "live",
                f"{label}: 304s per minute",
                f"{r['received_min']:.0f} B down, {r['sent_min']:.0f} B up",
            )
        heads = ["page", "regions", "one 304", "HTTP/1.1 down/min", "up/min", "HTTP/2 down/min", "up/min"]
        print(table(heads, rows))

        # A change: one new reading; the next poll of the device page carries the new HTML.
        later = datetime.now(UTC).isoformat(timespec="seconds")
        assert api(server.url, "POST", "/api/telemetry", {"ts": later, "ph": 7.3}, key)[0] == 202
        device = results["device page (readings + commands + bell)"]
        status, _req, res, _body = exchange(server.url, device["path"], device["headers"])
        assert status == 200, status
        print(f"After a reading: the device page's next poll is a 200 of {res:,} B (brotli), once.")
        summary("live", "device page: one change", f"{res} B once")
        worst = max(r["received_min"] for r in results.values())
        print(f"Budget: 2 KB per minute while nothing changes; the most any page costs: {worst:.0f} B.")
        return 0 if worst <= 2048 else 1
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
