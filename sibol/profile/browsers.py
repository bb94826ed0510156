"""A readable name for a signed-in browser, from its User-Agent: "Chrome on Android".

A small parser of our own rather than a User-Agent library: the sessions list needs only the
browser family and the system, and a dozen ordered patterns cover the browsers barangay staff and
residents use; a library would bring a large, often-updated pattern file for the same answer.
Order matters: many browsers also say "Chrome" or "Safari", so the specific ones come first.
"""

from __future__ import annotations

import re

from flask_babel import gettext as _

# (pattern, browser name): the first match names the browser.
BROWSERS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), name)
    for pattern, name in (
        (r"\bEdg(?:e|A|iOS)?/", "Edge"),
        (r"\bOPR/|\bOpera\b", "Opera"),
        (r"\bSamsungBrowser/", "Samsung Internet"),
        (r"\bFBAN|\bFBAV/", "Facebook"),
        (r"\bYaBrowser/", "Yandex Browser"),
        (r"\bFirefox/|\bFxiOS/", "Firefox"),
        (r"\bCriOS/|Chrome/|\bChromium/", "Chrome"),  # HeadlessChrome too
        (r"\bVersion/[\d.]+.*\bSafari/", "Safari"),
    )
)

# (pattern, system name): checked in order, phones before the desktops they resemble.
SYSTEMS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), name)
    for pattern, name in (
        (r"\bAndroid\b", "Android"),
        (r"\biPhone\b", "iPhone"),
        (r"\biPad\b", "iPad"),
        (r"\bCrOS\b", "ChromeOS"),
        (r"\bWindows\b", "Windows"),
        (r"\bMac OS X\b|\bMacintosh\b", "macOS"),
        (r"\bLinux\b", "Linux"),
    )
)


def _first(rules: tuple[tuple[re.Pattern[str], str], ...], text: str) -> str | None:
    return next((name for pattern, name in rules if pattern.search(text)), None)


def browser_name(user_agent: str | None) -> str:
    """A name like "Chrome on Android", "Safari on iPhone", "Firefox" (system unknown), or "Unknown browser"."""
    text = user_agent or ""
    browser, system = _first(BROWSERS, text), _first(SYSTEMS, text)
    if browser and system:
        return _("%(browser)s on %(system)s", browser=browser, system=system)
    if browser:
        return browser
    if system:
        return _("A browser on %(system)s", system=system)
    return _("Unknown browser")
