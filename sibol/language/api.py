"""PUT /api/me/language: the signed-in account's language ("en" or "fil")."""

from __future__ import annotations

from flask import Blueprint, g
from flask_babel import gettext as _
from flask_babel import refresh
from flask_login import current_user

from ..api import json_body
from ..i18n.languages import LANGUAGES
from ..identity.access import signed_in
from . import service

bp = Blueprint("language", __name__)


@bp.get("/languages")
@signed_in
def languages():
    return {
        "success": True,
        "data": [{"code": code, "name": name} for code, name in LANGUAGES.items()],
        "language": current_user.language,
    }


@bp.put("/me/language")
@signed_in
def set_language():
    body = json_body()
    code = service.set_account_language(current_user, body.get("language"))
    g.sibol_language = code
    refresh()  # the answer itself in the new language
    return {"success": True, "message": _("Language saved."), "language": code}
