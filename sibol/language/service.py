"""Storing a language choice on an account."""

from __future__ import annotations

from flask_babel import gettext as _

from ..errors import Invalid
from ..extensions import db
from ..i18n.languages import LANGUAGES


def check_language(code: object) -> str:
    if not isinstance(code, str) or code not in LANGUAGES:
        raise Invalid(
            _("Choose one of these languages: %(codes)s.", codes=", ".join(LANGUAGES)),
            field="language",
        )
    return code


def set_account_language(account, code: object) -> str:
    language = check_language(code)
    account.language = language
    db.session.commit()
    return language
