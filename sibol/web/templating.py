"""Jinja globals shared by every template."""

from __future__ import annotations

import hashlib
import re

from flask import Flask
from flask_login import current_user
from markupsafe import Markup, escape

from ..data.export import export_link
from ..data.listing import page_link
from ..i18n.localtime import init_localtime, now
from ..identity.permissions import can
from ..models import MODULES, ModuleId
from .assets import STATIC_DIR
from .home import account_page_url, greeting, home_url
from .links import sign_in_url
from .presentation import init_presentation
from .safe_actions import init_safe_actions

_versions: dict[str, str] = {}


def static_url(filename: str) -> str:
    """A cache-busting URL for an unhashed static file (content hash as ?v=)."""
    version = _versions.get(filename)
    if version is None:
        try:
            version = hashlib.sha256((STATIC_DIR / filename).read_bytes()).hexdigest()[:10]
        except FileNotFoundError:
            version = "0"
        _versions[filename] = version
    return f"/static/{filename}?v={version}"


def nav_items() -> list[dict]:
    """The top bar's links: only the modules the account can open (the spec's
    section 2 showed every link but Admin, and the others led to 403 pages). The server
    still refuses a module the account lacks (sibol/identity/access.py)."""
    if not current_user.is_authenticated:
        return []
    items = []
    for module_id, (_key, label, path) in MODULES.items():
        allowed = current_user.is_admin if module_id == ModuleId.ADMIN else current_user.has_module(module_id)
        if allowed:
            items.append({"id": int(module_id), "label": label, "path": path})
    return items


_CELL = re.compile(r"<(t[dh])(?=[\s>])")


def column_labels(columns: list) -> list[str]:
    """The header text of each data_table column (a string, {"sr": text}, or (header, cell))."""
    labels = []
    for column in columns:
        header = column if isinstance(column, str | dict) else column[0]
        labels.append(header.get("sr", "") if isinstance(header, dict) else str(header))
    return labels


def label_cells(row_html: Markup | str, headers: list[str]) -> Markup:
    """Adds data-label="<header>" to each <td> of a rendered row, in order, so that on phones
    the row can show as a card with its labels (CSS `td::before { content: attr(data-label) }`).
    A row header (<th scope="row">) takes its column's place unlabelled: it is the card's title."""
    if not isinstance(row_html, Markup):  # only template output (already escaped) is labelled
        return escape(row_html)
    html = str(row_html)
    if "table__empty" in html:
        return row_html
    labels = iter(headers)

    def label(match: re.Match[str]) -> str:
        text = next(labels, "")
        if match.group(1) == "th":
            return match.group(0)
        return f'<td data-label="{escape(text)}"' if text else "<td"

    # Safe: `html` is escaped template output and each inserted label is escaped.
    return Markup(_CELL.sub(label, html))  # noqa: S704


def user_can(action: str) -> bool:
    """In templates: `{% if can("household.reward.write") %}` (sibol/identity/permissions.py)."""
    return can(current_user, action)


def init_templating(app: Flask) -> None:
    if app.debug:
        _versions.clear()
    app.jinja_env.globals.update(
        static_url=static_url,
        nav_items=nav_items,
        page_link=page_link,
        export_link=export_link,
        profile_url=account_page_url,
        label_cells=label_cells,
        column_labels=column_labels,
        can=user_can,
        sign_in_url=sign_in_url,
        home_url=home_url,
        greeting=greeting,
    )
    app.context_processor(lambda: {"today": now()})  # the barangay's date and time
    init_presentation(app)
    init_localtime(app)
    init_safe_actions(app)
