"""axe-core in the browser tests: its serious and critical violations on the current page, a readable
list of them, and a script that finds form fields without a label."""

from __future__ import annotations

from pathlib import Path

import pytest

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


def axe_violations(browser) -> list[dict]:
    if not AXE.exists():
        pytest.fail("axe-core is not installed (npm ci)")
    if not browser.execute_script("return !!window.axe"):
        browser.execute_script(AXE.read_text())
    result = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations), e => done([{id: 'axe-error', impact: 'critical', help: String(e), nodes: []}]));"
    )
    return [v for v in result if v.get("impact") in ("serious", "critical")]


def describe(violations: list[dict]) -> str:
    return "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']} at {[n.get('target') for n in v.get('nodes', [])][:3]}"
        for v in violations
    )


# Returns the form fields of the page that have no accessible name.
UNLABELED = """
return Array.from(document.querySelectorAll('input, select, textarea'))
  .filter(el => el.type !== 'hidden' && el.type !== 'submit' && el.type !== 'button')
  .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')
                && !el.getAttribute('aria-labelledby') && !el.closest('label'))
  .map(el => el.outerHTML.slice(0, 120));
"""
