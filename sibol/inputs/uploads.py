"""Uploaded images: recognised by their content (the file name and the browser's type can lie),
kept under the one upload directory (SIBOL_UPLOAD_DIR, a folder per feature), served privately."""

from __future__ import annotations

from pathlib import Path

from flask import Response, current_app, send_file

MAX_UPLOAD_BYTES = 10 * 1024 * 1024  # spec section 9: uploads up to 10 MB
MAX_UPLOAD_MB = MAX_UPLOAD_BYTES // (1024 * 1024)

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


def upload_dir(feature: str) -> Path:
    """Where a feature keeps its uploads (rewards, maintenance): a folder of SIBOL_UPLOAD_DIR."""
    return Path(current_app.config["SIBOL_UPLOAD_DIR"]) / feature


def image_response(path: Path, mimetype: str, *, download_name: str | None = None) -> Response:
    """An uploaded image for a signed-in browser: cached privately, never sniffed or run."""
    response = send_file(
        path, mimetype=mimetype, download_name=download_name, max_age=3600, conditional=True, etag=True
    )
    response.headers["Cache-Control"] = "private, max-age=3600"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Content-Security-Policy"] = "default-src 'none'; sandbox"
    return response
