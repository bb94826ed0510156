"""A request's images: read from the request bounded (an oversized file is never read whole),
checked by their content, stored under the maintenance upload folder, and found again."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from flask_babel import gettext as _
from werkzeug.datastructures import FileStorage

from ..data.rows import get_by_id
from ..errors import Invalid, NotFound, TooLarge
from ..inputs import uploads
from ..inputs.uploads import IMAGE_EXTENSIONS, MAX_UPLOAD_BYTES, sniff_image
from ..models import MaintenanceAttachment

MAX_FILES = 5
IMAGE_TYPES = IMAGE_EXTENSIONS  # content type -> file extension


@dataclass(frozen=True)
class Upload:
    """A file as the view read it: its name and at most MAX_UPLOAD_BYTES + 1 bytes."""

    filename: str
    data: bytes


def checked_images(files: Iterable[Upload]) -> list[tuple[Upload, str]]:
    uploads = [f for f in files if f.filename or f.data]
    if len(uploads) > MAX_FILES:
        raise Invalid(_("Attach at most %(max_files)s images.", max_files=MAX_FILES), field="file")
    checked = []
    total = 0
    for upload in uploads:
        total += len(upload.data)
        if len(upload.data) > MAX_UPLOAD_BYTES or total > MAX_UPLOAD_BYTES:
            raise TooLarge(_("The image must be 10 MB or smaller."), field="file")
        if not upload.data:
            raise Invalid(
                _("%(display_name)s is empty.", display_name=display_name(upload.filename)), field="file"
            )
        kind = sniff_image(upload.data)
        if kind is None:
            raise Invalid(
                _(
                    "%(display_name)s is not an image (PNG, JPEG, GIF or WebP).",
                    display_name=display_name(upload.filename),
                ),
                field="file",
            )
        checked.append((upload, kind))
    return checked


def display_name(filename: str) -> str:
    name = Path((filename or "").replace("\\", "/")).name.strip()
    return name[:255] or "The file"


def upload_dir() -> Path:
    return uploads.upload_dir("maintenance")


def store_images(images: list[tuple[Upload, str]]) -> list[str]:
    """Writes the images under random names; the caller removes them if the commit fails."""
    folder = upload_dir()
    folder.mkdir(parents=True, exist_ok=True)
    names = []
    for upload, kind in images:
        name = f"{secrets.token_hex(16)}.{IMAGE_TYPES[kind]}"
        with open(folder / name, "xb") as fh:
            fh.write(upload.data)
        names.append(name)
    return names


def remove_files(names: Iterable[str]) -> None:
    for name in names:
        (upload_dir() / name).unlink(missing_ok=True)


def attachment_file(attachment_id: int) -> tuple[Path, MaintenanceAttachment]:
    attachment = get_by_id(MaintenanceAttachment, attachment_id)
    if attachment is None:
        raise NotFound(_("Attachment not found."))
    path = upload_dir() / attachment.stored_name
    if not path.is_file():
        raise NotFound(_("The attached file is missing."))
    return path, attachment


def read_uploads(files: Iterable[FileStorage]) -> list[Upload]:
    """Each chosen file's name and up to 10 MB + 1 bytes (enough for the service to refuse it)."""
    uploads = []
    for storage in files:
        data = storage.stream.read(MAX_UPLOAD_BYTES + 1)
        if not storage.filename and not data:
            continue  # an empty file input: nothing chosen
        uploads.append(Upload(filename=storage.filename or "", data=data))
    return uploads
