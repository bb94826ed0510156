"""Page weight and time-to-usable per route, cold cache, over an emulated slow link.

Headless Chromium (selenium + the DevTools protocol) loads each route of spec section 2 from
the production server (gunicorn, 2 workers, SQLite with the sample data), signed in as the
admin where the route needs it, with an empty cache and the link throttled to 400 kbit/s both
ways with 400 ms latency. It reports bytes on the wire by type, the request count, and the time
until the page is usable: the moment its usable-marker (below) is on screen, measured in the
page from navigation start. Beside it, the physical floor of the link: one round trip plus the
bytes of the first response (the document) at the link's rate; a page whose content arrives in
its first response can be usable close to it. On /dashboard also the moment both charts are
visible, and for every page a repeat visit (warm cache): requests that crossed the wire again.
Last, the installable console (bench/offline_figures.py): the service worker's and its precache's
compressed bytes, and the collection day page opened from the worker's cache with the link cut.

    .venv/bin/python bench/pages_bench.py [--runs 3] [--only /login /dashboard] [--offline]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections import defaultdict

import offline_figures
from common import ADMIN_PASSWORD, median, start_server, summary, table

sys.path.insert(0, ".")
from tests.support.browser import CHROMEDRIVER, CHROMIUM, chrome_options  # noqa: E402

KBIT = 1000 / 8  # bytes per second in one kbit/s
LINK = {"offline": False, "latency": 400, "downloadThroughput": 400 * KBIT, "uploadThroughput": 400 * KBIT}
RTT_S = LINK["latency"] / 1000
BUDGET_LOGIN = 30 * 1024
BUDGET_PAGE = 150 * 1024

# route -> CSS selector that marks the page usable (spec section 2 routes).
ROUTES = {
    "/login": "#username:not([disabled])",
    "/signup": "#signup-form select, #signup-form input:not([type=hidden])",
    "/email-verification?email=someone%40example.org": "main h1",
    "/pending-approval?email=someone%40example.org&username=someone": "main h1",
    "/dashboard": ".dashboard h2",
    "/admin": "main table tbody tr",
    "/sibol-machines": "main table tbody tr",
    "/household": "main table tbody tr",
    "/maintenance": "main table tbody tr",
    "/chat-support": "main h1",
    "/reports/monthly": "main h1",  # the monthly report (Admin, Barangay Staff)
}
# route -> CSS selector that is on screen once the page's charts are drawn (both of them).
CHARTS = {"/dashboard": ".chart__pane:not([hidden]) svg"}
PUBLIC = {"/login", "/signup"}
TYPES = {
    "Document": "document",
    "Script": "script",
    "Stylesheet": "style",
    "Image": "image",
    "Font": "font",
    "XHR": "data",
    "Fetch": "data",
}

WATCH = """
window.__sibolUsable = null;
window.__sibolCharts = null;
function sibolWatch(sel, key, every) {
  (function watch() {
    const els = sel ? Array.from(document.querySelectorAll(sel)) : [];
    const shown = els.filter((el) => el.offsetWidth || el.offsetHeight || el.getClientRects().length);
    if (shown.length && (!every || shown.length === els.length)) {
      window[key] = performance.now();
      return;
    }
    requestAnimationFrame(watch);
  })();
}
sibolWatch(%s, "__sibolUsable", false);
sibolWatch(%s, "__sibolCharts", true);
"""


def make_driver():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options, profile = chrome_options(CHROMIUM, "sibol-bench-chrome-")
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(120)
    return driver, profile


def sign_in(driver, base: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(f"{base}/login")
    driver.find_element(By.ID, "username").send_keys("admin")
    driver.find_element(By.ID, "password").send_keys(ADMIN_PASSWORD)
    driver.find_element(By.CSS_SELECTOR, "#login-form [type=submit]").click()
    WebDriverWait(driver, 30).until(lambda d: "/dashboard" in d.current_url)


def measure(driver, base: str, route: str, warm: bool = False) -> dict:
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get("about:blank")
    driver.get_log("performance")  # drain
    driver.execute_cdp_cmd("Network.enable", {})
    if not warm:
        driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", LINK)
    script = driver.execute_cdp_cmd(
        "Page.addScriptToEvaluateOnNewDocument",
        {"source": WATCH % (json.dumps(ROUTES[route]), json.dumps(CHARTS.get(route)))},
    )
    try:
        driver.get(base + route)
        try:
            WebDriverWait(driver, 30, poll_frequency=0.1).until(
                lambda d: d.execute_script("return window.__sibolUsable") is not None
            )
            usable_ms = driver.execute_script("return window.__sibolUsable")
        except TimeoutException:
            usable_ms = None  # the marker never appeared: reported as "not usable"
        charts_ms = None
        if route in CHARTS:
            try:
                WebDriverWait(driver, 30, poll_frequency=0.1).until(
                    lambda d: d.execute_script("return window.__sibolCharts") is not None
                )
                charts_ms = driver.execute_script("return window.__sibolCharts")
            except TimeoutException:
                pass
        # Let late requests (lazy islands, data calls) finish before counting bytes.
        WebDriverWait(driver, 90, poll_frequency=0.2).until(
            lambda d: d.execute_script("return document.readyState") == "complete"
        )
    finally:
        driver.execute_cdp_cmd(
            "Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]}
        )
        driver.execute_cdp_cmd(
            "Network.emulateNetworkConditions",
            {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
        )
    kinds: dict[str, str] = {}
    cached: set[str] = set()
    by_type: dict[str, int] = defaultdict(int)
    requests = 0
    wire = 0  # requests that crossed the network (not answered from the browser's cache)
    messages = [json.loads(entry["message"])["message"] for entry in driver.get_log("performance")]
    # Only what this navigation loaded: a late response of an earlier page carries its own loaderId.
    documents = [
        m["params"]["loaderId"]
        for m in messages
        if m["method"] == "Network.responseReceived"
        and m["params"].get("type") == "Document"
        and m["params"]["response"]["url"].startswith(base)
    ]
    loader = documents[-1]  # after redirects, the page that was finally shown
    for msg in messages:
        params = msg.get("params", {})
        if msg["method"] == "Network.responseReceived":
            if params["response"]["url"].startswith(base) and params.get("loaderId") == loader:
                kinds[params["requestId"]] = TYPES.get(params.get("type"), "other")
                if params["response"].get("fromDiskCache") or params["response"].get("fromPrefetchCache"):
                    cached.add(params["requestId"])
        elif msg["method"] == "Network.requestServedFromCache":
            cached.add(params["requestId"])
        elif msg["method"] == "Network.loadingFinished" and params["requestId"] in kinds:
            requests += 1
            wire += params["requestId"] not in cached
            by_type[kinds[params["requestId"]]] += int(params.get("encodedDataLength", 0))
    return {
        "usable_ms": usable_ms,
        "charts_ms": charts_ms,
        "wire": wire,
        "requests": requests,
        "bytes": dict(by_type),
        "total": sum(by_type.values()),
    }


def usable_text(values: list[float | None], missing: str = "not usable") -> str:
    if any(v is None for v in values):
        return missing
    return f"{median(values) / 1000:.2f}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", nargs="*", help="routes to measure (default: all)")
    parser.add_argument("--smoke", action="store_true", help="one run of /login and /dashboard")
    parser.add_argument("--offline", action="store_true", help="only the installable console's figures")
    args = parser.parse_args()
    if args.smoke:
        args.runs, args.only = 1, ["/login", "/dashboard"]
    routes = [r for r in ROUTES if not args.only or r.split("?")[0] in args.only]
    if args.offline:
        routes = []
    server, _tmp = start_server(workers=2, RATELIMIT_ENABLED="0")
    driver, profile = make_driver()
    rows, over_budget = [], []
    offline_ms: list[float | None] = []
    try:
        signed_in = False
        for route in routes:
            base = server.url
            if route in PUBLIC:
                driver.delete_all_cookies()
                signed_in = False
            elif not signed_in:
                sign_in(driver, base)
                signed_in = True
            runs = [measure(driver, base, route) for _ in range(args.runs)]
            warm = [measure(driver, base, route, warm=True) for _ in range(args.runs)]
            last = runs[-1]
            doc = median([r["bytes"].get("document", 0) for r in runs])
            floor = RTT_S + doc / LINK["downloadThroughput"]
            charts = usable_text([r["charts_ms"] for r in runs], "-") if route in CHARTS else ""
            total = int(median([r["total"] for r in runs]))
            budget = BUDGET_LOGIN if route == "/login" else BUDGET_PAGE
            if total > budget:
                over_budget.append(route)
            kb = {
                k: f"{last['bytes'].get(k, 0) / 1024:.1f}"
                for k in ("document", "script", "style", "image", "font", "data")
            }
            summary(
                "pages (400 kbit/s, 400 ms)",
                route.split("?")[0],
                f"{total / 1024:.1f} KB of {budget // 1024} KB, {last['requests']} requests, "
                f"usable {usable_text([r['usable_ms'] for r in runs])} s (floor {floor:.2f} s)"
                + (f", charts {charts} s" if charts else "")
                + f"; repeat: {warm[-1]['wire']} requests, usable {usable_text([r['usable_ms'] for r in warm])} s",
            )
            rows.append(
                [
                    route.split("?")[0],
                    kb["document"],
                    kb["script"],
                    kb["style"],
                    kb["image"],
                    kb["font"],
                    kb["data"],
                    f"{total / 1024:.1f}",
                    f"{budget // 1024}",
                    last["requests"],
                    usable_text([r["usable_ms"] for r in runs]),
                    f"{floor:.2f}",
                    charts,
                    warm[-1]["wire"],
                    usable_text([r["usable_ms"] for r in warm]),
                ]
            )
        if not signed_in:
            sign_in(driver, server.url)
        # The cached page is quick to open: a few more runs than the cold loads (one for --smoke).
        offline_ms = offline_figures.cached_page_ms(
            driver,
            server.url,
            args.runs if args.smoke else max(args.runs, 5),
            WATCH % (json.dumps(offline_figures.USABLE), "null"),
        )
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
        server.stop()
    if rows:  # none with --offline
        print(
            f"Cold loads over 400 kbit/s, 400 ms latency (median of {args.runs}; KB = 1024 bytes on the wire)"
        )
        print("floor: one round trip plus the document's bytes at 400 kbit/s; repeat: the same page again,")
        print("cache warm (requests that crossed the wire, the document included)")
        print(
            table(
                [
                    "route",
                    "doc KB",
                    "script KB",
                    "style KB",
                    "image KB",
                    "font KB",
                    "data KB",
                    "total KB",
                    "budget KB",
                    "requests",
                    "usable s",
                    "floor s",
                    "charts s",
                    "repeat reqs",
                    "repeat usable s",
                ],
                rows,
            )
        )
    sw = offline_figures.worker_bytes()
    sw_total = sw["worker"] + sw["precache"]
    cached = usable_text(offline_ms)
    print(
        f"Installable console: service worker {sw['worker'] / 1024:.1f} KB + precache "
        f"{sw['precache'] / 1024:.1f} KB ({sw['entries']} files) = {sw_total / 1024:.1f} KB brotli "
        f"(budget {offline_figures.BUDGET_BYTES // 1024} KB, downloaded once); {offline_figures.PAGE} "
        f"from the cache with no link, after one visit online: usable {cached} s "
        f"(median of {len(offline_ms)}; budget {offline_figures.BUDGET_CACHED_S} s)"
    )
    summary(
        "installable console",
        offline_figures.PAGE,
        f"worker + precache {sw_total / 1024:.1f} KB of {offline_figures.BUDGET_BYTES // 1024} KB; "
        f"cached page usable {cached} s",
    )
    if sw_total > offline_figures.BUDGET_BYTES:
        over_budget.append("service worker + precache")
    if cached == "not usable" or float(cached) > offline_figures.BUDGET_CACHED_S:
        over_budget.append(f"{offline_figures.PAGE} from the cache")
    if over_budget:
        print("OVER BUDGET:", ", ".join(over_budget))
    return 0


if __name__ == "__main__":
    sys.exit(main())
