"""What the islands' translations add to a page: bytes of HTML, raw and gzipped, of the
public pages in English and in Filipino, and the texts embedded. In process (Flask's test client),
on a throwaway SQLite database; needs the islands built (make build).

    .venv/bin/python bench/island_messages_size.py
"""

from __future__ import annotations

import gzip
import json
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sibol import create_app, seed  # noqa: E402
from sibol.extensions import db  # noqa: E402
from tests.conftest import base_overrides  # noqa: E402

PAGES = ["/login", "/signup"]
BLOCK = re.compile(r'<script type="application/json" data-island-messages lang="\w+">(.*?)</script>', re.S)


def main() -> int:
    # --smoke (bench/run.py --smoke) changes nothing: the whole script takes about a second.
    database = Path(tempfile.mkdtemp(prefix="sibol-bench-")) / "size.sqlite3"
    app = create_app(base_overrides(f"sqlite:///{database}"))
    with app.app_context():
        db.create_all()
        seed.reference_data()
    client = app.test_client()
    print(
        f"{'page':<10} {'lang':<4} {'HTML B':>7} {'gzip B':>7} {'texts':>5} {'block B':>7} {'block gzip B':>12}"
    )
    for page in PAGES:
        for lang in ("en", "fil"):
            html = client.get(page, headers={"Accept-Language": lang}).get_data(as_text=True)
            blocks = BLOCK.findall(html)
            texts = sum(len(json.loads(block)) for block in blocks)
            joined = "".join(blocks).encode()
            row = [len(html.encode()), len(gzip.compress(html.encode())), texts, len(joined)]
            print(
                f"{page:<10} {lang:<4} {row[0]:>7} {row[1]:>7} {row[2]:>5} {row[3]:>7} "
                f"{len(gzip.compress(joined)) if joined else 0:>12}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
