"""Uploaded images, recognised by their content (the file name and the browser's type can lie)."""

from __future__ import annotations

MAX_IMAGE_BYTES = 10 * 1024 * 1024  # spec section 9: uploads up to 10 MB

IMAGE_EXTENSIONS = {"image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp"}


def sniff_image(data: bytes) -> str | None:
    """The content type of a PNG, JPEG, GIF or WebP by its first bytes; None for anything else."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None
