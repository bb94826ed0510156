"""Charts drawn on the server as small inline SVG (step 2).

They arrive with the page's first response, read without JavaScript, and carry their own text
equivalent: a <title> and <desc> (named by aria-labelledby) and a <title> on every segment or
point, which browsers show on hover. Colours are presentation attributes, not style attributes,
so the Content-Security-Policy needs nothing for them. Chart.js may take over later for
interaction (static_src/islands/dashboard-panels.ts); each page keeps its figures in a table too.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence

from markupsafe import Markup, escape

# Same order as the .swatch colours in dashboard.css and COLOURS in components/dashboard/charts.ts.
COLOURS = ("#1f7a4d", "#f2a900", "#175cd3", "#c4540a", "#7a3fb8", "#0e8a8a")
LINE_COLOURS = ("#8cc9a8", "#1f7a4d", "#175cd3")
_ids = itertools.count(1)


def _num(x: float) -> str:
    """Coordinates with at most 1 decimal and no trailing zeros (small markup)."""
    text = f"{x:.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _figure(value: float) -> str:
    return f"{value:,.2f}".rstrip("0").rstrip(".")


def _open(kind: str, width: int, height: int, title: str, desc: str, extra: str = "") -> str:
    uid = f"svgchart{next(_ids)}"
    return (
        f'<svg class="chart__svg chart__svg--{kind}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-labelledby="{uid}t {uid}d" xmlns="http://www.w3.org/2000/svg"{extra}>'
        f'<title id="{uid}t">{escape(title)}</title><desc id="{uid}d">{escape(desc)}</desc>'
    )


def doughnut(
    labels: Sequence[str],
    values: Sequence[float],
    *,
    title: str,
    desc: str,
    unit: str = "",
    size: int = 240,
    empty: str = "",
) -> Markup:
    """A doughnut: one arc per label (stroke-dasharray on a circle), clockwise from the top."""
    centre = size / 2
    width = size * 0.22
    radius = centre - width / 2 - 2
    circumference = 2 * math.pi * radius
    total = sum(v for v in values if v and v > 0)
    parts = [_open("doughnut", size, size, title, desc)]
    parts.append(
        f'<circle cx="{_num(centre)}" cy="{_num(centre)}" r="{_num(radius)}" fill="none" '
        f'stroke="#e4eae7" stroke-width="{_num(width)}"></circle>'
    )
    if total <= 0:
        if empty:
            parts.append(
                f'<text x="{_num(centre)}" y="{_num(size - 4)}" text-anchor="middle" font-size="12">'
                f"{escape(empty)}</text>"
            )
        parts.append("</svg>")
        return Markup("".join(parts))  # noqa: S704 - every text above is escaped
    offset = 0.0
    gap = 1.5 if sum(1 for v in values if v and v > 0) > 1 else 0.0
    for i, (label, value) in enumerate(zip(labels, values, strict=False)):
        if not value or value <= 0:
            continue
        length = circumference * value / total
        dash = max(length - gap, 0.5)
        parts.append(
            f'<circle cx="{_num(centre)}" cy="{_num(centre)}" r="{_num(radius)}" fill="none" '
            f'stroke="{COLOURS[i % len(COLOURS)]}" stroke-width="{_num(width)}" '
            f'stroke-dasharray="{_num(dash)} {_num(circumference - dash)}" '
            f'stroke-dashoffset="{_num(-offset)}" transform="rotate(-90 {_num(centre)} {_num(centre)})">'
            f"<title>{escape(label)}: {escape(_figure(value))}{' ' + escape(unit) if unit else ''}</title>"
            "</circle>"
        )
        offset += length
    parts.append("</svg>")
    return Markup("".join(parts))  # noqa: S704 - every text above is escaped


def _nice_max(value: float) -> tuple[float, float]:
    """A round upper bound of the axis and its tick step (about 4-5 ticks)."""
    if value <= 0:
        return 1.0, 0.25
    raw = value / 4
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    return step * math.ceil(value / step), step


def _axes(
    scale: tuple[float, float, float],
    y_at: Callable[[float], float],
    x_at: Callable[[int], float],
    labels: Sequence[str],
    n: int,
    y_label: str,
    plot: tuple[float, float, float, float],
) -> str:
    """A chart's axes: a grid line with its figure at each step of `scale` (lowest, highest, step),
    the category labels under the plot (about 12 of the `n` at most), and the y axis's title.
    `plot` is the plot's left edge, right edge, top and height; `y_at` and `x_at` place a value
    and a category."""
    y_min, y_max, step = scale
    left, right_edge, top, plot_h = plot
    parts = ['<g font-size="11" fill="#5d6b64">']
    for k in range(min(20, round((y_max - y_min) / step)) + 1):
        tick = y_min + k * step
        y = y_at(tick)
        parts.append(
            f'<line x1="{left}" x2="{right_edge}" y1="{_num(y)}" y2="{_num(y)}" stroke="#e4eae7"></line>'
            f'<text x="{left - 6}" y="{_num(y + 4)}" text-anchor="end">{escape(_figure(tick))}</text>'
        )
    every = max(1, math.ceil(n / 12))
    for i, label in enumerate(labels):
        if i % every == 0:
            parts.append(
                f'<text x="{_num(x_at(i))}" y="{top + plot_h + 16}" text-anchor="middle">{escape(label)}</text>'
            )
    parts.append(
        f'<text transform="rotate(-90)" x="{_num(-(top + plot_h / 2))}" y="12" text-anchor="middle">'
        f"{escape(y_label)}</text></g>"
    )
    return "".join(parts)


def _legend(
    series: Sequence[tuple[str, Sequence[float | None]]], colours: Sequence[str], left: int, height: int
) -> str:
    """The legend under a chart of several series (a colour swatch and each series' name); none
    for one series, whose title says what it is."""
    if len(series) <= 1:
        return ""
    parts, x, y = [], left, height - 10
    for s, (name, _values) in enumerate(series):
        colour = colours[(s + len(colours) - len(series)) % len(colours)]
        parts.append(
            f'<rect x="{x}" y="{y - 9}" width="12" height="10" fill="{colour}"></rect>'
            f'<text x="{x + 16}" y="{y}" font-size="11" fill="#1d2521">{escape(name)}</text>'
        )
        x += 24 + 7 * len(name)
    return "".join(parts)


def line_chart(
    categories: Sequence[str],
    series: Sequence[tuple[str, Sequence[float | None]]],
    *,
    title: str,
    desc: str,
    y_label: str,
    unit: str = "",
    width: int = 640,
    height: int = 260,
    colours: Sequence[str] | None = None,
    short_labels: Sequence[str] | None = None,
    from_zero: bool = True,
    max_dots: int = 60,
) -> Markup:
    """Lines over categories (months, hours), one per series, with a y axis (from zero, or around
    the values with from_zero=False), category labels and a legend. A missing value (None) breaks
    its line. Beyond max_dots points per series the points carry no dot (the table has them)."""
    colours = colours or LINE_COLOURS
    left, right, top, bottom = 48, 10, 12, 48 if len(series) > 1 else 30
    plot_w, plot_h = width - left - right, height - top - bottom
    present = [float(v) for _, vals in series for v in vals if v is not None]
    highest = max(present, default=0.0)
    y_min = 0.0
    if not from_zero and present:
        lowest = min(present)
        spread = highest - lowest
        if spread <= abs(highest) * 1e-6:  # flat (or float noise): a band around the value
            spread = abs(highest) or 1.0
        _span, step = _nice_max(spread)
        y_min = step * math.floor(lowest / step)
        y_max = y_min + step * math.ceil((highest - y_min) / step or 1)
    else:
        y_max, step = _nice_max(highest)
    n = max(len(categories), 1)

    def x_at(i: int) -> float:
        return left + (plot_w * (i + 0.5) / n)

    def y_at(v: float) -> float:
        return top + plot_h - plot_h * (v - y_min) / (y_max - y_min)

    parts = [_open("line", width, height, title, desc)]
    parts.append(
        _axes(
            (y_min, y_max, step),
            y_at,
            x_at,
            short_labels or categories,
            n,
            y_label,
            (left, width - right, top, plot_h),
        )
    )
    for s, (name, values) in enumerate(series):
        colour = colours[(s + len(colours) - len(series)) % len(colours)]
        runs: list[list[tuple[float, float]]] = [[]]
        dots = []
        for i, v in enumerate(values):
            if v is None:
                runs.append([])
                continue
            point = (x_at(i), y_at(float(v)))
            runs[-1].append(point)
            if len(values) > max_dots:
                continue
            cat = categories[i] if i < len(categories) else ""
            dots.append(
                f'<circle cx="{_num(point[0])}" cy="{_num(point[1])}" r="3" fill="{colour}">'
                f"<title>{escape(name)} {escape(cat)}: {escape(_figure(float(v)))}"
                f"{' ' + escape(unit) if unit else ''}</title></circle>"
            )
        for run in runs:
            if len(run) > 1:
                points = " ".join(f"{_num(x)},{_num(y)}" for x, y in run)
                parts.append(
                    f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"></polyline>'
                )
        parts.extend(dots)
    parts.append(_legend(series, colours, left, height))
    parts.append("</svg>")
    return Markup("".join(parts))  # noqa: S704 - every text above is escaped


def bar_chart(
    categories: Sequence[str],
    values: Sequence[float | None],
    *,
    title: str,
    desc: str,
    y_label: str,
    unit: str = "",
    width: int = 640,
    height: int = 200,
    colour: str = COLOURS[0],
    short_labels: Sequence[str] | None = None,
) -> Markup:
    """Bars from zero, one per category, with a y axis and category labels: one unnamed series
    of grouped_bar_chart."""
    return grouped_bar_chart(
        categories,
        [("", values)],
        title=title,
        desc=desc,
        y_label=y_label,
        unit=unit,
        width=width,
        height=height,
        colours=[colour],
        short_labels=short_labels,
    )


def joins_points(series: Sequence[tuple[str, Sequence[float | None]]]) -> bool:
    """True when some series has two neighbouring values, so a line chart draws a line; else a
    line chart would show lone dots, and bars (grouped_bar_chart) read better."""
    return any(
        a is not None and b is not None for _name, values in series for a, b in itertools.pairwise(values)
    )


def grouped_bar_chart(
    categories: Sequence[str],
    series: Sequence[tuple[str, Sequence[float | None]]],
    *,
    title: str,
    desc: str,
    y_label: str,
    unit: str = "",
    width: int = 640,
    height: int = 260,
    colours: Sequence[str] | None = None,
    short_labels: Sequence[str] | None = None,
) -> Markup:
    """Bars from zero, side by side for each series within a category (colours and legend as
    line_chart's), for figures too few to draw as lines. A missing value leaves its slot empty."""
    colours = colours or LINE_COLOURS
    left, right, top, bottom = 48, 10, 12, 48 if len(series) > 1 else 30
    plot_w, plot_h = width - left - right, height - top - bottom
    highest = max((float(v) for _, vals in series for v in vals if v is not None), default=0.0)
    y_max, step = _nice_max(highest)
    n = max(len(categories), 1)
    slot = plot_w / n
    bar_w = slot * 0.7 / max(len(series), 1)
    parts = [_open("bar", width, height, title, desc)]
    parts.append(
        _axes(
            (0.0, y_max, step),
            lambda v: top + plot_h - plot_h * v / y_max,
            lambda i: left + slot * (i + 0.5),
            short_labels or categories,
            n,
            y_label,
            (left, width - right, top, plot_h),
        )
    )
    for s, (name, values) in enumerate(series):
        colour = colours[(s + len(colours) - len(series)) % len(colours)]
        for i, v in enumerate(values):
            if v is None or v <= 0:
                continue
            h = plot_h * float(v) / y_max
            cat = categories[i] if i < len(categories) else ""
            parts.append(
                f'<rect x="{_num(left + slot * i + slot * 0.15 + bar_w * s)}" y="{_num(top + plot_h - h)}" '
                f'width="{_num(bar_w)}" height="{_num(h)}" fill="{colour}">'
                f"<title>{escape(name) + ' ' if name else ''}{escape(cat)}: {escape(_figure(float(v)))}"
                f"{' ' + escape(unit) if unit else ''}</title></rect>"
            )
    parts.append(_legend(series, colours, left, height))
    parts.append("</svg>")
    return Markup("".join(parts))  # noqa: S704 - every text above is escaped
