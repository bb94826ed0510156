"""Reading uploaded files for the service: bounded, so an oversized file is never read whole."""

from __future__ import annotations

from collections.abc import Iterable

from werkzeug.datastructures import FileStorage

from . import service


def read_uploads(files: Iterable[FileStorage]) -> list[service.Upload]:
    """Each chosen file's name and up to 10 MB + 1 bytes (enough for the service to refuse it)."""
    uploads = []
    for storage in files:
        data = storage.stream.read(service.MAX_UPLOAD_BYTES + 1)
        if not storage.filename and not data:
            continue  # an empty file input: nothing chosen
        uploads.append(service.Upload(filename=storage.filename or "", data=data))
    return uploads
