"""Safe destructive actions: ask first, then offer undo for a few seconds.

A page route for a destructive action calls `needs_confirmation()`; while the form did not carry
`confirmed=1` it answers `confirmation_page(...)`: a page (a dialog without JavaScript) naming
what will happen, whose form posts the same fields back with `confirmed=1`. With JavaScript,
`static_src/lib/confirm.ts` asks in place and adds `confirmed=1` itself.

After a reversible action the route calls `offer_undo(...)`: the next page shows an Undo button
(templates/partials/flash.html) that posts to the reversing route for UNDO_SECONDS; that route
calls `take_undo(kind, id)`, which is true only within the window and only once.
"""

from __future__ import annotations

import time

from flask import Flask, render_template, request, session

UNDO_SECONDS = 30
_KEY = "sibol_undo"


def _now() -> float:
    return time.time()


def needs_confirmation() -> bool:
    return request.form.get("confirmed") != "1"


def confirmation_page(title: str, message: str, confirm_label: str, cancel_url: str, *, danger: bool = True):
    """The no-JavaScript confirmation: the same form fields, posted back with confirmed=1."""
    fields = [(k, v) for k, v in request.form.items(multi=True) if k not in ("csrf_token", "confirmed")]
    return render_template(
        "confirm.html",
        title=title,
        message=message,
        confirm_label=confirm_label,
        cancel_url=cancel_url,
        fields=fields,
        action=request.path,
        danger=danger,
    )


def offer_undo(kind: str, target: int, label: str, action: str, fields: dict[str, str] | None = None) -> None:
    session[_KEY] = {
        "kind": kind,
        "id": int(target),
        "label": label,
        "action": action,
        "fields": fields or {},
        "until": _now() + UNDO_SECONDS,
    }


def take_undo(kind: str, target: int) -> bool:
    """True once, within the window, for the action offered last; the offer is used up."""
    offer = session.get(_KEY)
    if not offer or offer.get("kind") != kind or offer.get("id") != int(target):
        return False
    session.pop(_KEY, None)
    return _now() <= float(offer.get("until", 0))


def pending_undo() -> dict | None:
    """The Undo offer the page shows (kept in the session until taken or expired)."""
    offer = session.get(_KEY)
    if not offer:
        return None
    left = float(offer.get("until", 0)) - _now()
    if left <= 0:
        session.pop(_KEY, None)
        return None
    return {**offer, "seconds": int(left)}


def init_safe_actions(app: Flask) -> None:
    app.jinja_env.globals.update(pending_undo=pending_undo)
