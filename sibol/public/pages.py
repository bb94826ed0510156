"""/b/<slug> (a barangay's public page), its A4 poster, /city/public, and /public-page where a
barangay's Admin (or the City Admin) sees the page's address and changes it.

The public pages need no sign-in and no JavaScript, and are cacheable: Cache-Control lets any
cache keep them five minutes (their numbers are then at most five minutes stale), the ETag is
the body's hash and a repeat with If-None-Match gets 304. ?lang=en|fil picks the language;
otherwise the visitor's (cookie, then Accept-Language).
"""

from __future__ import annotations

import segno
from flask import Blueprint, abort, flash, make_response, redirect, render_template, request, url_for
from flask_babel import force_locale
from flask_babel import gettext as _
from markupsafe import Markup

from ..errors import Invalid
from ..extensions import db
from ..i18n.languages import LANGUAGES
from ..identity import tenancy
from ..identity.access import module_required, public
from ..models import Barangay, ModuleId
from . import service, slugs

bp = Blueprint("public", __name__)
MAX_AGE = 300  # seconds: the figures a visitor sees are at most this old


def _language() -> str | None:
    lang = request.args.get("lang")
    return lang if lang in LANGUAGES else None


def cacheable(render):
    """A response for a public page: Cache-Control, Vary, ETag, and 304 on a repeat."""
    lang = _language()
    if lang:
        with force_locale(lang):
            body = render()
    else:
        body = render()
    response = make_response(body)
    response.headers["Cache-Control"] = f"public, max-age={MAX_AGE}"
    response.headers["Vary"] = "Accept-Language, Cookie"
    response.add_etag()
    return response.make_conditional(request)


def qr_svg(url: str) -> Markup:
    """The page's address as an inline SVG QR code (made on the server with segno)."""
    svg = segno.make(url, error="m").svg_inline(scale=6, border=4, title=url)  # segno escapes the title
    return Markup(svg)  # noqa: S704


def _barangay_or_redirect(slug: str, endpoint: str):
    barangay, current = slugs.find(slug)
    if barangay is None or not barangay.is_active:
        abort(404)
    if not current:
        args: dict = dict(request.args)
        return None, redirect(url_for(endpoint, slug=barangay.slug, **args), 301)
    return barangay, None


@bp.get("/b/<slug>")
@public
def barangay_page(slug: str):
    barangay, moved = _barangay_or_redirect(slug, "public.barangay_page")
    if moved is not None:
        return moved
    figures = service.figures(barangay)
    return cacheable(lambda: render_template("public/barangay.html", f=figures, lang=_language()))


@bp.get("/b/<slug>/poster")
@public
def poster(slug: str):
    barangay, moved = _barangay_or_redirect(slug, "public.poster")
    if moved is not None:
        return moved
    address = url_for("public.barangay_page", slug=barangay.slug, _external=True)
    figures = service.figures(barangay)
    return cacheable(
        lambda: render_template("public/poster.html", f=figures, address=address, qr=qr_svg(address))
    )


@bp.get("/city/public")
@public
def city_page():
    lines = service.city_lines()
    return cacheable(lambda: render_template("public/city.html", lines=lines, lang=_language()))


def _managed_barangay() -> Barangay | None:
    """The signed-in Admin's barangay, or the one the City Admin's filter picked."""
    scope = tenancy.current_scope()
    if scope is None:
        return None
    slugs.ensure_slugs()
    with tenancy.unscoped():
        return db.session.get(Barangay, scope)


@bp.route("/public-page", methods=["GET", "POST"])
@module_required(ModuleId.DASHBOARD, action="public.manage")
def manage():
    barangay = _managed_barangay()
    error, status = None, 200
    if barangay is not None and request.method == "POST":
        try:
            slugs.change_slug(barangay, request.form.get("slug"))
        except Invalid as err:
            db.session.rollback()
            error, status = err.message, 400
        else:
            flash(_("The public page is now at /b/%(slug)s; the old address redirects.", slug=barangay.slug))
            return redirect(url_for("public.manage"))
    return render_template(
        "public/manage.html", barangay=barangay, error=error, value=request.form.get("slug")
    ), status
