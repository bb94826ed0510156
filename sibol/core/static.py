"""Static files: hashed build output served pre-compressed with far-future caching.

Vite writes .br and .gz beside every built file; the few hand-written files (the stylesheet,
the icon) are compressed once in memory on first request.
"""

from __future__ import annotations

import gzip
import io
import mimetypes
from pathlib import Path

import brotli
from flask import Flask, Response, abort, request, send_file
from werkzeug.security import safe_join

from ..identity.access import public
from ..web.assets import STATIC_DIR

YEAR = 365 * 24 * 3600
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))
COMPRESSIBLE = (".css", ".js", ".svg", ".json", ".txt", ".map")
_memory: dict[tuple[Path, str], tuple[float, bytes]] = {}


def _accepts(encoding: str) -> bool:
    return request.accept_encodings[encoding] > 0


def _compressed_in_memory(path: Path, encoding: str) -> bytes:
    mtime = path.stat().st_mtime
    cached = _memory.get((path, encoding))
    if cached and cached[0] == mtime:
        return cached[1]
    raw = path.read_bytes()
    data = brotli.compress(raw, quality=11) if encoding == "br" else gzip.compress(raw, 9, mtime=0)
    _memory[(path, encoding)] = (mtime, data)
    return data


def register_static(app: Flask) -> None:
    @public
    def static(filename: str):
        joined = safe_join(str(STATIC_DIR), filename)
        if joined is None or filename.endswith((".br", ".gz")) or filename == "hot":
            abort(404)
        path = Path(joined)
        if not path.is_file():
            abort(404)
        hashed = filename.startswith("dist/")
        mimetype = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if mimetype.startswith("text/") or mimetype.endswith(("javascript", "json", "svg+xml")):
            mimetype += "; charset=utf-8"
        max_age = YEAR if hashed or request.args.get("v") else 3600
        encoding = next((name for name, _ in ENCODINGS if _accepts(name)), None)
        response: Response
        if encoding and path.suffix in COMPRESSIBLE:
            sibling = path.with_name(path.name + dict(ENCODINGS)[encoding])
            if sibling.is_file():
                response = send_file(sibling, mimetype=mimetype, max_age=max_age, conditional=True, etag=True)
            else:
                data = _compressed_in_memory(path, encoding)
                response = send_file(
                    io.BytesIO(data),
                    mimetype=mimetype,
                    max_age=max_age,
                    last_modified=path.stat().st_mtime,
                    etag=False,
                )
                response.set_etag(f"{int(path.stat().st_mtime)}-{len(data)}-{encoding}")
                response.make_conditional(request)
            response.headers["Content-Encoding"] = encoding
        else:
            response = send_file(path, mimetype=mimetype, max_age=max_age, conditional=True, etag=True)
        response.vary.add("Accept-Encoding")
        if max_age == YEAR:
            response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
        return response

    app.add_url_rule("/static/<path:filename>", endpoint="static", view_func=static)
