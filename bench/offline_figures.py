"""The installable console's figures for bench/pages_bench.py: the service worker's and its
precache's bytes (compressed, as they cross the wire once), and the time until the collection day
page is usable when it is opened from the worker's cache with the link cut, after one visit online.

Budget (for staff on slow mobile links): the worker and its precache at most 150 KB compressed; a cached
page usable in at most 0.3 s.
"""

from __future__ import annotations

import re
from pathlib import Path

import brotli

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "sibol" / "static"
BUDGET_BYTES = 150 * 1024
BUDGET_CACHED_S = 0.3
PAGE = "/household/collection-day"
USABLE = "form.collection-day input[name^='kg-'], form.collection-day button[type=submit]"
OFFLINE = {"offline": True, "latency": 0, "downloadThroughput": 0, "uploadThroughput": 0}
ONLINE = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
# Pages the worker keeps (its "sibol-pages" cache), counted in the page.
KEPT_PAGES = """const done = arguments[arguments.length - 1];
caches.open("sibol-pages").then((c) => c.keys()).then((keys) => done(keys.length), () => done(0));"""


def _compressed(path: Path) -> int:
    beside = path.with_name(path.name + ".br")
    if beside.is_file():
        return beside.stat().st_size
    return len(brotli.compress(path.read_bytes(), quality=11))


def worker_bytes() -> dict:
    """{worker, precache, entries}: brotli bytes of sw.js and of every file it precaches."""
    worker = STATIC / "dist" / "sw.js"
    text = worker.read_text()
    urls = re.findall(r'"?url"?:"(/static/[^"]+)"', text)
    precache = sum(_compressed(STATIC / url.removeprefix("/static/")) for url in urls)
    return {"worker": _compressed(worker), "precache": precache, "entries": len(urls)}


def cached_page_ms(driver, base: str, runs: int, watch: str) -> list[float | None]:
    """Opens the collection day page once online (the worker registers from it and then keeps
    it), cuts the link (DevTools offline) and opens it `runs` times: milliseconds from navigation
    start until the page is usable, each time. `watch` is the pages bench's usable-mark script;
    it sets window.__sibolUsable (performance.now()) once USABLE is on screen."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    wait = WebDriverWait(driver, 30, poll_frequency=0.1)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", ONLINE)
    driver.get(base + PAGE)  # the one visit online
    wait.until(lambda d: d.execute_script("return !!navigator.serviceWorker.controller"))
    wait.until(lambda d: d.execute_async_script(KEPT_PAGES) >= 1)
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", OFFLINE)
    script = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": watch})
    times: list[float | None] = []
    try:
        for _ in range(runs):
            driver.get("about:blank")
            driver.get(base + PAGE)
            try:
                wait.until(lambda d: d.execute_script("return window.__sibolUsable") is not None)
                times.append(driver.execute_script("return window.__sibolUsable"))
            except TimeoutException:
                times.append(None)
    finally:
        driver.execute_cdp_cmd(
            "Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]}
        )
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", ONLINE)
    return times
