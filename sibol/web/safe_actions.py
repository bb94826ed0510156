"""Safe destructive actions: ask first, then offer undo for a few seconds.

A page route for a destructive action calls `needs_confirmation()`; while the form did not carry
`confirmed=1` it answers `confirmation_page(...)`: a page (a dialog without JavaScript) naming
what will happen, whose form posts the same fields back with `confirmed=1`. With JavaScript,
`static_src/lib/confirm.ts` asks in place and adds `confirmed=1` itself.

After a reversible action the route calls `offer_undo(...)`: the next page shows an Undo button
(templates/partials/flash.html) that posts to the reversing route for UNDO_SECONDS; that route
calls `take_undo(kind, id)`, which is true only within the window and only once.

An offer is a row on the server (models UndoOffer) named by a random secret the session cookie
carries: it names the action and the row, belongs to the account that acted, and is used up by
one conditional UPDATE in the undo's own transaction. A replayed copy of an old cookie, a second
tab, or simultaneous posts therefore undo at most once, and only what that account did.
"""

from __future__ import annotations

import secrets
import time
from datetime import timedelta
from typing import Any, cast

from flask import Flask, render_template, request, session
from flask_login import current_user
from sqlalchemy import CursorResult, delete, update

from ..extensions import db
from ..identity.tokens import hash_secret
from ..models import utcnow
from ..models.auth import UndoOffer

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
    """Offer Undo of what the signed-in account just did to row `target`; commits the offer (the
    action itself was committed already: without an offer it simply cannot be undone)."""
    raw = secrets.token_urlsafe(24)
    now = utcnow()
    db.session.add(
        UndoOffer(
            token_hash=hash_secret(raw),
            kind=kind,
            target_id=int(target),
            account_id=current_user.id,
            created_at=now,
            expires_at=now + timedelta(seconds=UNDO_SECONDS),
        )
    )
    if secrets.randbelow(20) == 0:  # offers over for a day go, so the table stays small
        db.session.execute(delete(UndoOffer).where(UndoOffer.expires_at < now - timedelta(days=1)))
    db.session.commit()
    session[_KEY] = {
        "token": raw,
        "label": label,
        "action": action,
        "fields": fields or {},
        "until": _now() + UNDO_SECONDS,
    }


def take_undo(kind: str, target: int) -> bool:
    """True once, within the window, for the offer of this action on this row made to the
    signed-in account; the offer is used up in the caller's transaction (its commit keeps the
    undo and the use together; a rollback gives the offer back)."""
    offer = session.pop(_KEY, None)
    raw = offer.get("token") if isinstance(offer, dict) else None
    if not isinstance(raw, str) or not raw or len(raw) > 100 or not current_user.is_authenticated:
        return False
    now = utcnow()
    result = cast(
        "CursorResult[Any]",
        db.session.execute(
            update(UndoOffer)
            .where(
                UndoOffer.token_hash == hash_secret(raw),
                UndoOffer.kind == kind,
                UndoOffer.target_id == int(target),
                UndoOffer.account_id == current_user.id,
                UndoOffer.used_at.is_(None),
                UndoOffer.expires_at > now,
            )
            .values(used_at=now),
            execution_options={"synchronize_session": False},
        ),
    )
    return result.rowcount == 1


def drop_undo(action: str) -> None:
    """Forgets the page's Undo offer when it posts to `action`: the reversal was done another
    way (e.g. Enable pressed after Disable), so the banner must not offer it again."""
    offer = session.get(_KEY)
    if isinstance(offer, dict) and offer.get("action") == action:
        session.pop(_KEY, None)


def pending_undo() -> dict | None:
    """The Undo offer the page shows (kept in the session until taken or expired)."""
    offer = session.get(_KEY)
    if not isinstance(offer, dict):
        return None
    left = float(offer.get("until", 0)) - _now()
    if left <= 0:
        session.pop(_KEY, None)
        return None
    return {**offer, "seconds": int(left)}


def init_safe_actions(app: Flask) -> None:
    app.jinja_env.globals.update(pending_undo=pending_undo)
