"""The installable console's figures for bench/pages_bench.py: the service worker's and its
precache's bytes (compressed, as they cross the wire once), and the time until the collection day
page is usable when it is opened from the worker's cache with the link cut.

Budget (for staff on slow mobile links): the worker and its precache at most 150 KB compressed; a cached
page usable in at most 0.3 s.
"""

from __future__ import annotations

import json
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


def cached_page_seconds(driver, base: str, runs: int) -> list[float | None]:
    """Opens the collection day page online until the worker keeps it, then with the link cut
    (DevTools offline) reloads it `runs` times: seconds until its form is usable, each time."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(base + PAGE)
    wait = WebDriverWait(driver, 30, poll_frequency=0.1)
    wait.until(lambda d: d.execute_script("return !!navigator.serviceWorker.controller"))
    driver.get(base + PAGE)  # through the worker, which keeps the page
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", OFFLINE)
    watch = driver.execute_cdp_cmd(
        "Page.addScriptToEvaluateOnNewDocument",
        {
            "source": "window.__sibolUsable = null; (function w() {"
            f" if (document.querySelector({json.dumps(USABLE)})) window.__sibolUsable = performance.now();"
            " else requestAnimationFrame(w); })();"
        },
    )
    times: list[float | None] = []
    try:
        for _ in range(runs):
            driver.get(base + PAGE)
            try:
                wait.until(lambda d: d.execute_script("return window.__sibolUsable") is not None)
                times.append(driver.execute_script("return window.__sibolUsable") / 1000)
            except TimeoutException:
                times.append(None)
    finally:
        driver.execute_cdp_cmd(
            "Page.removeScriptToEvaluateOnNewDocument", {"identifier": watch["identifier"]}
        )
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", ONLINE)
    return times
