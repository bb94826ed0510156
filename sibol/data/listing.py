"""One way to list a table: page arguments, the page of rows, LIKE patterns and page links.

Every table (admin accounts and audit, household tabs, machines, maintenance) reads its paging
arguments here: strictly under /api (a bad value is a 400 naming the field) and leniently on
pages (a bad value falls back to the default, pages never answer 400 for a link).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from flask import request, url_for
from flask_babel import gettext as _
from sqlalchemy import ColumnElement, Select, func, or_

from ..errors import Invalid
from ..extensions import db

MAX_PER_PAGE = 100
MAX_PAGE = 1_000_000  # beyond any real list, and past what a database offset should carry
PAGE_SIZES = (10, 25, 50, 100)  # the "Records per page" choices of every table
DEFAULT_PER_PAGE = 10


@dataclass
class Page:
    """One page of a listing: its rows, the total over all pages, and where it stands."""

    rows: list = field(default_factory=list)
    total: int = 0
    page: int = 1
    per_page: int = DEFAULT_PER_PAGE

    @property
    def items(self) -> list:
        return self.rows

    @property
    def pages(self) -> int:
        return page_count(self.total, self.per_page)


def page_count(total: int, per_page: int) -> int:
    return max(1, math.ceil(total / per_page))


def last_page(page: int, total: int, per_page: int) -> int:
    """The page to show: past the end means the last page."""
    return min(page, page_count(total, per_page))


def page_args(default_per_page: int = DEFAULT_PER_PAGE) -> tuple[int, int]:
    """`page` and `per_page` from the query string of an /api request; Invalid when out of range."""

    def number(name: str, default: int) -> int:
        raw = request.args.get(name, "")
        try:
            return int(raw) if raw.strip() else default
        except ValueError:
            raise Invalid(_("%(name)s must be a whole number.", name=name), field=name) from None

    page = number("page", 1)
    per_page = number("per_page", default_per_page)
    if page < 1:
        raise Invalid(_("page must be 1 or more."), field="page")
    if page > MAX_PAGE:
        raise Invalid(_("page must be at most %(max_page)s.", max_page=MAX_PAGE), field="page")
    if not 1 <= per_page <= MAX_PER_PAGE:
        raise Invalid(
            _("per_page must be between 1 and %(max_per_page)s.", max_per_page=MAX_PER_PAGE), field="per_page"
        )
    return page, per_page


def _lenient_number(name: str, default: int, upper: int) -> int:
    raw = request.args.get(name, "").strip()
    if not raw.isdecimal():
        return default
    if len(raw) > 9:  # far past any list (and past what int() reads quickly)
        return upper
    return min(max(int(raw), 1), upper)


def page_args_lenient(
    default_per_page: int = DEFAULT_PER_PAGE, sizes: tuple[int, ...] | None = PAGE_SIZES
) -> tuple[int, int]:
    """`page` and `per_page` of a server page: anything odd falls back to the default.

    With `sizes`, a page size outside the choices is the default too; without, 1 to MAX_PER_PAGE.
    """
    page = _lenient_number("page", 1, MAX_PAGE)
    per_page = _lenient_number("per_page", default_per_page, MAX_PER_PAGE)
    if sizes is not None and per_page not in sizes:
        per_page = default_per_page
    return page, per_page


def like_escape(text: str) -> str:
    """Text with LIKE's wildcards escaped (use with `escape="\\\\"`)."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def like_contains(text: str, *, lower: bool = True) -> str:
    """A LIKE pattern matching text anywhere (lowercased for a `func.lower(column)` match)."""
    return f"%{like_escape(text.lower() if lower else text)}%"


def matches_any(q: str, *columns: Any) -> ColumnElement[bool]:
    """Any of the columns contains q, ignoring case (q's LIKE wildcards match themselves)."""
    pattern = like_contains(q)
    return or_(*(func.lower(column).like(pattern, escape="\\") for column in columns))


def fetch_page(
    query: Select, count_query: Select, page: int, per_page: int, shape: Callable[[Any], Any] | None = None
) -> Page:
    """One page of a query and the count of all its rows; rows are the first column unless shaped."""
    total = db.session.scalar(count_query) or 0
    result = db.session.execute(query.limit(per_page).offset((page - 1) * per_page))
    rows = [shape(row) for row in result] if shape else list(result.scalars())
    return Page(rows, total, page, per_page)


def page_link(_endpoint: str | None = None, _drop: tuple[str, ...] = (), **changes: Any) -> str:
    """This request's URL with some query arguments changed; None or "" removes one.

    A Jinja global (`page_link(page=3)`), so every table's pager builds its links the same way.
    """
    args: dict[str, Any] = {k: v for k, v in request.args.items() if k not in _drop}
    args.update(changes)
    return query_url(_endpoint or request.endpoint or "", [(k, v) for k, v in args.items()])


def query_url(endpoint: str, pairs: list[tuple[str, Any]], **values: Any) -> str:
    """An endpoint's URL with query arguments in the given order (repeats allowed; None or "" left out)."""
    kept = [(k, str(v)) for k, v in pairs if v not in (None, "")]
    base = url_for(endpoint, **values)
    return f"{base}?{urlencode(kept)}" if kept else base


def page_json(page: Page, shape: Any, keys: tuple[str, ...] = ("data",), *, success: bool = True) -> dict:
    """A page as /api answers it: the shaped rows under each of `keys`, total, page, per_page."""
    rows = [shape(row) for row in page.rows]
    body: dict[str, Any] = {"success": True} if success else {}
    body.update({key: rows for key in keys})
    body.update(total=page.total, page=page.page, per_page=page.per_page)
    return body
