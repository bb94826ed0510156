"""Critical CSS in the document (step 1).

A page's stylesheets (`<link rel="stylesheet" href="/static/css/...">` in its head) make the
browser wait a round trip before it paints anything. Before a page leaves the server, this module
moves those links to the end of the body (they still load, cached for a year, but no longer
block the first paint) and puts in the head one `<style>` with the rules of those same files
that can match the page: every rule whose selector names only classes, ids and elements that
occur in the document. Rules for classes that scripts add later (dialogs opening, tabs) arrive
with the full stylesheets a moment after.

The rules are read from the real files in sibol/static/css when first needed (and again when a
file changes), so the inline CSS never drifts from them. Its sha256 goes into the page's
Content-Security-Policy (`style-src 'self' 'sha256-…'`); there is no 'unsafe-inline'.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from flask import Flask, Response, g

from .assets import STATIC_DIR
from .vite_dev import dev_server_url

_LINK = re.compile(
    r'<link rel="stylesheet" href="/static/(css/[A-Za-z0-9_./-]+\.css)(?:\?v=[A-Za-z0-9]*)?">\s*'
)
_CLASS_ATTR = re.compile(r'\sclass="([^"]*)"')
_ID_ATTR = re.compile(r'\sid="([^"]*)"')
_TAG = re.compile(r"<([a-zA-Z][a-zA-Z0-9-]*)")
_DECLARATION = re.compile(r"(^|[;{])\s*(-{0,2}[\w-]+)\s*:\s*")  # "margin : 0" -> "margin:0"
_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_PARENS = re.compile(r"\([^()]*\)")
_PSEUDO = re.compile(r"::?[a-zA-Z-]+")
_ATTRIBUTE = re.compile(r"\[[^\]]*\]")
_SELECTOR_CLASS = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
_SELECTOR_ID = re.compile(r"#(-?[_a-zA-Z][\w-]*)")
_SELECTOR_TAG = re.compile(r"(?:^|[\s>+~])([a-zA-Z][a-zA-Z0-9-]*)")
# At-rules whose body is kept whole when present (their names are not selectors).
_KEEP_WHOLE = ("@font-face", "@keyframes", "@-webkit-keyframes", "@property", "@page", "@counter-style")


@dataclass
class Rule:
    """A style rule (`prelude` is its selector list) or an at-rule block with nested rules."""

    prelude: str
    body: str = ""
    children: list[Rule] | None = None
    needs: list[tuple[frozenset[str], frozenset[str], frozenset[str]]] = field(default_factory=list)


@dataclass
class Sheet:
    mtime: float
    rules: list[Rule]


_sheets: dict[Path, Sheet] = {}
_results: OrderedDict[tuple, tuple[str, str]] = OrderedDict()
_RESULTS_MAX = 512


def _requirements(selector_list: str) -> list[tuple[frozenset[str], frozenset[str], frozenset[str]]]:
    """For each selector of a list: the (classes, ids, elements) a document needs for it to match.
    :not(...) and other parenthesised arguments are ignored (they can only narrow a match)."""
    needs = []
    for selector in selector_list.split(","):
        s = selector
        while True:
            stripped = _PARENS.sub("", s)
            if stripped == s:
                break
            s = stripped
        s = _ATTRIBUTE.sub("", s)
        s = _PSEUDO.sub("", s)
        classes = frozenset(_SELECTOR_CLASS.findall(s))
        ids = frozenset(_SELECTOR_ID.findall(s))
        tags = frozenset(t.lower() for t in _SELECTOR_TAG.findall(" " + re.sub(r"[.#][\w-]+", " ", s)))
        needs.append((classes, ids, tags))
    return needs


def parse(css: str) -> list[Rule]:
    """Rules of a stylesheet, nested into @media/@supports/@layer blocks; comments dropped and
    whitespace collapsed (the files are written compactly already)."""
    text = _COMMENT.sub("", css)
    rules, _ = _parse_block(text, 0)
    return rules


def _compact(text: str) -> str:
    text = re.sub(r"\s+", " ", text.strip())
    return re.sub(r"\s*([{};,>])\s*", r"\1", text).replace(";}", "}")


def _parse_block(text: str, pos: int) -> tuple[list[Rule], int]:
    rules: list[Rule] = []
    n = len(text)
    while pos < n:
        while pos < n and text[pos].isspace():
            pos += 1
        if pos >= n:
            break
        if text[pos] == "}":
            return rules, pos + 1
        brace = text.find("{", pos)
        semi = text.find(";", pos)
        if brace == -1 or (semi != -1 and semi < brace and text[pos] == "@"):
            # A statement at-rule (@import, @charset) or trailing junk: kept as it is.
            end = n if semi == -1 else semi + 1
            rules.append(Rule(prelude=_compact(text[pos:end]), needs=[]))
            pos = end
            continue
        prelude = _compact(text[pos:brace])
        if prelude.startswith("@") and not prelude.startswith(_KEEP_WHOLE):
            children, pos = _parse_block(text, brace + 1)
            rules.append(Rule(prelude=prelude, children=children))
            continue
        depth, end = 1, brace + 1
        while end < n and depth:
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            end += 1
        body = text[brace + 1 : end - 1]
        rule = Rule(prelude=prelude, body=_DECLARATION.sub(r"\1\2:", _compact(body)))
        rule.needs = [] if prelude.startswith("@") else _requirements(prelude)
        rules.append(rule)
        pos = end
    return rules, pos


def _sheet(relative: str) -> list[Rule]:
    path = STATIC_DIR / relative
    try:
        mtime = path.stat().st_mtime
    except FileNotFoundError:
        return []
    cached = _sheets.get(path)
    if cached is None or cached.mtime != mtime:
        cached = Sheet(mtime=mtime, rules=parse(path.read_text(encoding="utf-8")))
        _sheets[path] = cached
    return cached.rules


def _matches(rule: Rule, classes: set[str], ids: set[str], tags: set[str]) -> bool:
    if not rule.needs:  # at-rules kept whole
        return True
    return any(c <= classes and i <= ids and t <= tags for c, i, t in rule.needs)


def _select(rules: list[Rule], classes: set[str], ids: set[str], tags: set[str]) -> str:
    out = []
    for rule in rules:
        if rule.children is not None:
            inner = _select(rule.children, classes, ids, tags)
            if inner:
                out.append(f"{rule.prelude}{{{inner}}}")
        elif not rule.body and not rule.needs and rule.prelude.endswith(";"):
            out.append(rule.prelude)
        elif _matches(rule, classes, ids, tags):
            out.append(f"{rule.prelude}{{{rule.body}}}")
    return "".join(out)


def document_tokens(html: str) -> tuple[set[str], set[str], set[str]]:
    """The classes, ids and element names that occur in an HTML document."""
    classes: set[str] = set()
    for value in _CLASS_ATTR.findall(html):
        classes.update(value.split())
    ids = set(_ID_ATTR.findall(html))
    tags = {t.lower() for t in _TAG.findall(html)}
    return classes, ids, tags


def critical_css(files: tuple[str, ...], html: str) -> tuple[str, str]:
    """(CSS, CSP source 'sha256-…') of the rules of `files` that can match `html`."""
    classes, ids, tags = document_tokens(html)
    key = (files, tuple(_sheet_versions(files)), frozenset(classes), frozenset(ids), frozenset(tags))
    hit = _results.get(key)
    if hit is not None:
        _results.move_to_end(key)
        return hit
    css = "".join(_select(_sheet(name), classes, ids, tags) for name in files)
    digest = base64.b64encode(hashlib.sha256(css.encode("utf-8")).digest()).decode("ascii")
    result = (css, f"'sha256-{digest}'")
    _results[key] = result
    if len(_results) > _RESULTS_MAX:
        _results.popitem(last=False)
    return result


def _sheet_versions(files: tuple[str, ...]) -> list[float]:
    versions = []
    for name in files:
        try:
            versions.append((STATIC_DIR / name).stat().st_mtime)
        except FileNotFoundError:
            versions.append(0.0)
    return versions


def inline_critical(html: str) -> tuple[str, str | None]:
    """The page with its head stylesheets replaced by their critical rules and moved to the end
    of the body, and the CSP hash source of the inline CSS (None when nothing changed)."""
    head_end = html.find("</head>")
    body_end = html.rfind("</body>")
    if head_end == -1 or body_end == -1:
        return html, None
    head = html[:head_end]
    links = list(_LINK.finditer(head))
    if not links:
        return html, None
    files = tuple(dict.fromkeys(m.group(1) for m in links))
    tags = "".join(m.group(0).strip() for m in links)
    css, source = critical_css(files, html)
    first = links[0]
    new_head = head[: first.start()] + f"<style>{css}</style>\n  " + _LINK.sub("", head[first.start() :])
    body = html[head_end:body_end]
    return new_head + body + tags + "\n" + html[body_end:], source


def install_critical_css(app: Flask) -> None:
    """Registered after Flask-Compress, so it runs before compression (after_request hooks run
    in reverse order of registration)."""

    @app.after_request
    def _inline(response: Response) -> Response:
        if (
            response.mimetype != "text/html"
            or response.direct_passthrough
            or response.is_streamed
            or response.headers.get("Content-Encoding")
            or app.config.get("SIBOL_CRITICAL_CSS") is False
            or dev_server_url()
        ):
            return response
        html = response.get_data(as_text=True)
        new, source = inline_critical(html)
        if source is not None:
            response.set_data(new)
            g.sibol_style_sources = [*g.get("sibol_style_sources", []), source]
        return response
