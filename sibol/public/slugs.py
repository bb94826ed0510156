"""A barangay's public address: /b/<slug>.

The default slug is the name in lower-case ASCII, every run of other characters one hyphen
("Sto. Niño" -> "sto-nino"), a number added on a clash ("-2", "-3", ...). An Admin of the
barangay or the City Admin may choose another; the old one is kept and redirects.
"""

from __future__ import annotations

import re
import unicodedata

from flask_babel import gettext as _
from sqlalchemy import select

from ..errors import Invalid
from ..extensions import db
from ..identity import tenancy
from ..models import Barangay
from ..models.public import FormerSlug

SLUG_MAX = 60
SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
RESERVED = {"api", "static", "new", "edit", "poster"}


def slugify(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:SLUG_MAX].strip("-") or "barangay"


def _taken(slug: str, exclude_id: int | None = None) -> bool:
    current = db.session.scalar(select(Barangay.id).where(Barangay.slug == slug))
    former = db.session.scalar(select(FormerSlug.barangay_id).where(FormerSlug.slug == slug))
    return any(owner is not None and owner != exclude_id for owner in (current, former))


def free_slug(name: str, exclude_id: int | None = None) -> str:
    base = slug = slugify(name)
    n = 2
    while _taken(slug, exclude_id) or slug in RESERVED:
        slug, n = f"{base}-{n}", n + 1
    return slug


def ensure_slugs() -> None:
    """Give every barangay without a slug its default one (barangays created before public pages
    existed, or by code that does not set it); one transaction."""
    with tenancy.unscoped():
        missing = list(
            db.session.scalars(select(Barangay).where(Barangay.slug.is_(None)).order_by(Barangay.id))
        )
        for barangay in missing:
            barangay.slug = free_slug(barangay.name, barangay.id)
            db.session.flush()
        if missing:
            db.session.commit()


def clean_slug(raw: object, barangay: Barangay) -> str:
    """A chosen slug: lower-case letters, digits and single hyphens, 3 to 60 characters, not
    another barangay's (current or former). Raises Invalid naming `slug`."""
    if not isinstance(raw, str):
        raise Invalid(_("Page address must be text."), field="slug")
    slug = raw.strip().lower()
    if not 3 <= len(slug) <= SLUG_MAX or not SLUG_RE.match(slug) or slug in RESERVED:
        raise Invalid(
            _(
                "Page address must be 3 to %(n)s lower-case letters, digits and single hyphens, "
                "for example sto-nino.",
                n=SLUG_MAX,
            ),
            field="slug",
        )
    with tenancy.unscoped():
        if _taken(slug, barangay.id):
            raise Invalid(_("Another barangay's page already uses %(slug)s.", slug=slug), field="slug")
    return slug


def change_slug(barangay: Barangay, raw: object) -> Barangay:
    """Give the barangay's page a new address; the old one redirects. One transaction."""
    ensure_slugs()
    slug = clean_slug(raw, barangay)
    if slug == barangay.slug:
        return barangay
    with tenancy.unscoped():
        old = barangay.slug
        former = db.session.get(FormerSlug, slug)
        if former is not None:  # taking back one of its own former addresses
            db.session.delete(former)
        if old:
            db.session.add(FormerSlug(slug=old, barangay_id=barangay.id))
        barangay.slug = slug
        db.session.commit()
    return barangay


def find(slug: str) -> tuple[Barangay | None, bool]:
    """(barangay, is_current): the barangay whose page is, or was, at /b/<slug>."""
    ensure_slugs()
    with tenancy.unscoped():
        barangay = db.session.scalar(select(Barangay).where(Barangay.slug == slug))
        if barangay is not None:
            return barangay, True
        former = db.session.get(FormerSlug, slug)
        if former is not None:
            return db.session.get(Barangay, former.barangay_id), False
    return None, False
